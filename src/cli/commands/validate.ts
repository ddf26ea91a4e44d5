import type { Command } from 'commander';
import { EvalSetError, loadEvalSet, type EvalSet } from '../../config/index.js';

/** The one-line summary of a valid eval set. */
export function describeValid(file: string, set: EvalSet): string {
  const conditions = set.conditions.length;
  const runs = set.evals.reduce((sum, item) => sum + item.runs, 0) * conditions;
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${file}: valid (${plural(set.evals.length, 'eval')}, ${plural(conditions, 'condition')}, ${plural(runs, 'run')} in all)`;
}

/**
 * A ref a codebase on this machine does not have, at its JSON pointer with the branches and
 * tags it has: found now rather than when `run` resolves it. Remote URLs are not asked.
 */
async function refuseMissingLocalRefs(file: string, set: EvalSet): Promise<void> {
  const codebases = set.evals.flatMap((e) => (e.codebase ? [e.codebase] : []));
  if (codebases.every((c) => !('url' in c.source))) return;
  const { missingLocalRefs } = await import('../../source/index.js');
  const problems = await missingLocalRefs(codebases);
  if (problems.length > 0) throw new EvalSetError(file, problems);
}

/**
 * `evalrig validate <evals.json>`: the checks `evalrig run` starts with, and
 * nothing else (no image built, nothing written; a codebase on this machine is asked
 * whether it has its ref, a remote one is not). An
 * invalid set throws EvalSetError: main prints every problem and exits 2. A
 * valid one may still stage instructions its agent does not load: each is a
 * line, first, at its JSON pointer, and the set is refused (exit 2: it would
 * compare nothing) unless `--allow-unloaded` accepts it. A path the agent loads
 * in a lesser form is a warning only.
 */
export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('check an eval set and list every problem with its JSON pointer')
    .argument('<evals.json>', 'the eval set file')
    .option('--allow-unloaded', 'accept staged paths their agent does not load (a warning, exit 0)')
    .action(async (file: string, flags: { allowUnloaded?: boolean }) => {
      const set = await loadEvalSet(file);
      await refuseMissingLocalRefs(file, set);
      // Only an adapter agent loads staged files: the agents' table is loaded for it alone.
      const adapters = [set.agent, ...set.conditions.map((c) => c.agent)].some(
        (a) => a?.type !== undefined && a.type !== 'command',
      );
      if (adapters) {
        const { stagingWarnings, unloadedError } = await import('../../treatment/index.js');
        const warnings = await stagingWarnings(set);
        for (const w of warnings) {
          const level = w.voids && !flags.allowUnloaded ? 'error' : 'warning';
          process.stdout.write(`${file}#${w.pointer}: ${level}: ${w.message}\n`);
        }
        const voiding = warnings.filter((w) => w.voids);
        if (voiding.length > 0 && !flags.allowUnloaded) throw unloadedError(file, voiding);
      }
      process.stdout.write(`${describeValid(file, set)}\n`);
    });
}
