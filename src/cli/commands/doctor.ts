import type { Command } from 'commander';
import { examineEngines, formatExamination } from '../../campaign/index.js';
import { agentVersions, formatAgentVersions } from '../../agents/index.js';
import { EvalrigError } from '../../errors/index.js';
import { engineAddress } from '../../sandbox/index.js';

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * `evalrig doctor [--engine ADDRESS]…`: each engine examined (what answers,
 * its capacity, the images, a locked-down container), printed on stdout; the
 * first engine's first thing to fix, when one has any, is the error (exit 1).
 */
export function registerDoctor(program: Command): void {
  program
    .command('doctor')
    .description(
      "check each engine a campaign would run on (what answers, its CPUs and memory, the images, a locked-down container, and what to fix) and each agent's pinned version against the newest npm has",
    )
    .option(
      '--engine <address>',
      'an engine to check (unix://, tcp://, ssh://user@host or a context name); repeat for several; default DOCKER_HOST',
      collect,
    )
    .option('--no-agents', "skip the agents' versions (npm is not asked)")
    .action(async (flags: { engine?: string[]; agents: boolean }) => {
      const addresses = (flags.engine ?? []).map((spec) => engineAddress(spec));
      const exams = await examineEngines(addresses);
      process.stdout.write(`${exams.map(formatExamination).join('\n')}\n`);
      if (flags.agents) {
        // A newer agent is news, not a fault: it never makes doctor fail.
        const versions = await agentVersions();
        process.stdout.write(`agents\n${versions.map(formatAgentVersions).join('\n')}\n`);
      }
      const broken = exams.find((e) => e.fix !== undefined);
      if (broken) throw new EvalrigError(broken.fix!);
    });
}
