import type { Command } from 'commander';
import { bounded, connectDocker, pingDocker } from '../../runtime/index.js';

export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description('check that a Docker engine answers')
    .action(async () => {
      const client = connectDocker();
      await pingDocker(client);
      const info = await bounded(client, 'a version query', () => client.docker.version(), 5000);
      process.stdout.write(`Docker engine ${info.Version} answers at ${client.where}\n`);
    });
}
