import type { Command } from 'commander';
import { connectDocker, pingDocker } from '../../runtime/index.js';

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('check that a Docker engine answers')
    .action(async () => {
      const client = connectDocker();
      await pingDocker(client);
      const info = await client.docker.version();
      process.stdout.write(`Docker engine ${info.Version} answers at ${client.where}\n`);
    });
}
