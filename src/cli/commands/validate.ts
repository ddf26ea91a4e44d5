import type { Command } from 'commander';
import { loadEvalSet, type EvalSet } from '../../config/index.js';

/** The one-line summary of a valid eval set. */
export function describeValid(file: string, set: EvalSet): string {
  const conditions = set.conditions.length;
  const runs = set.evals.reduce((sum, item) => sum + item.runs, 0) * conditions;
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${file}: valid (${plural(set.evals.length, 'eval')}, ${plural(conditions, 'condition')}, ${plural(runs, 'run')} in all)`;
}

/**
 * `evalrig validate <evals.json>`: the checks `evalrig run` starts with, and
 * nothing else (no codebase resolved, no image built, nothing written). An
 * invalid set throws EvalSetError: main prints every problem and exits 2. A
 * valid one may still stage instructions its agent is known not to load: each
 * is a warning line, first, at its JSON pointer (exit 0).
 */
export function registerValidate(program: Command): void {
  program
    .command('validate')
    .description('check an eval set and list every problem with its JSON pointer')
    .argument('<evals.json>', 'the eval set file')
    .action(async (file: string) => {
      const set = await loadEvalSet(file);
      // Only an adapter agent loads staged files: the agents' table is loaded for it alone.
      const type = set.agent.type;
      if (type !== undefined && type !== 'command') {
        const { stagingWarnings } = await import('../../treatment/index.js');
        for (const w of await stagingWarnings(set)) {
          process.stdout.write(`${file}#${w.pointer}: warning: ${w.message}\n`);
        }
      }
      process.stdout.write(`${describeValid(file, set)}\n`);
    });
}
