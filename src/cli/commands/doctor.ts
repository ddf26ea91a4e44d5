import type { Command } from 'commander';
import { examineEngines, formatExamination } from '../../campaign/index.js';
import { agentVersions, formatAgentVersions } from '../../agents/index.js';
import { EvalrigError } from '../../errors/index.js';
import { engineAddress, examineClusterEngine, schemeOf } from '../../sandbox/index.js';

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
      'an engine to check (unix://, tcp://, ssh://user@host, k8s://<context> or a kubeconfig path, or a context name); repeat for several; default DOCKER_HOST',
      collect,
    )
    .option('--no-agents', "skip the agents' versions (npm is not asked)")
    .action(async (flags: { engine?: string[]; agents: boolean }) => {
      const specs = flags.engine ?? [];
      // A cluster speaks no Docker: it is examined through its API server alone.
      const clusters = await Promise.all(
        specs.filter((s) => schemeOf(s) === 'k8s').map((s) => examineClusterEngine(s)),
      );
      const dockers = specs.filter((s) => schemeOf(s) !== 'k8s').map((s) => engineAddress(s));
      const exams =
        dockers.length > 0 || clusters.length === 0 ? await examineEngines(dockers) : [];
      const text = [...clusters.map((c) => c.text), ...exams.map(formatExamination)];
      process.stdout.write(`${text.join('\n')}\n`);
      if (flags.agents) {
        // A newer agent is news, not a fault: it never makes doctor fail.
        const versions = await agentVersions();
        process.stdout.write(`agents\n${versions.map(formatAgentVersions).join('\n')}\n`);
      }
      const fix = clusters.find((c) => c.fix)?.fix ?? exams.find((e) => e.fix)?.fix;
      if (fix) throw new EvalrigError(fix);
    });
}
