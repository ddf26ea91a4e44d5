/**
 * A step check over one run: its rule against the run's shell commands in order and the files
 * it read. Null where the check has nothing to look at (no command matches `before_last`).
 */
import type { StepCheck } from '../config/step-checks.js';
import type { RunBehaviour } from './run.js';

export function passesStepCheck(
  check: StepCheck,
  run: Pick<RunBehaviour, 'commands' | 'reads'>,
): boolean | null {
  if (check.never !== undefined) {
    const re = new RegExp(check.never, 'u');
    return !run.commands.some((c) => re.test(c.text));
  }
  if (check.read !== undefined) {
    const re = new RegExp(check.read, 'u');
    return run.reads.some((f) => re.test(f));
  }
  if (check.ran === undefined) return null;
  const ran = new RegExp(check.ran, 'u');
  let end = run.commands.length;
  if (check.before_last !== undefined) {
    const last = new RegExp(check.before_last, 'u');
    end = run.commands.findLastIndex((c) => last.test(c.text));
    if (end < 0) return null;
  }
  return run.commands
    .slice(0, end)
    .some((c) => ran.test(c.text) && (check.succeeded !== true || c.ok));
}
