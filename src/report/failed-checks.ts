/**
 * The checks that failed, for the report to name: per condition and check, how many measured
 * runs failed it, and one failed run's exit code and last output lines. The counts are the
 * `checks.<name>` rates' own (n − successes); this keeps only what the rates do not: the runs
 * that ended before the check ran, and the first failed run that ran it.
 */
import type { RunRecord } from '../artifacts/index.js';
import { checkOutcomes, leftOut } from '../measure/index.js';
import { withoutEscapes } from '../untrusted/index.js';
import type { BenchmarkFile } from './benchmark-file.js';

export type FailedCheck = NonNullable<BenchmarkFile['failed_checks']>[number];

/** The most of an output the report shows: its last lines, and about this many characters. */
export const TAIL_LINES = 5;
export const TAIL_CHARS = 400;

// eslint-disable-next-line no-control-regex -- these control characters are what it takes out.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u202a-\u202e\u2066-\u2069]/gu;

/**
 * The last lines of a command's output as a page may show them: terminal escapes, control
 * characters and bidirectional overrides taken out (the output is the container's, so nothing
 * in it may restyle or reorder the page); a line a carriage return rewrote shows what a
 * terminal would, its last part. `cut` says the output held more.
 *
 * @example
 * outputTail('\u001b[31m1 failing\u001b[0m\n'); // { tail: '1 failing', cut: false }
 */
export function outputTail(output: string): { tail: string; cut: boolean } {
  const lines = withoutEscapes(output)
    .replace(/\r\n/gu, '\n')
    .split('\n')
    .map((l) => (l.split('\r').pop() ?? '').replace(CONTROL, '').trimEnd());
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const kept = lines.slice(-TAIL_LINES);
  let tail = kept.join('\n');
  let cut = kept.length < lines.length;
  if (tail.length > TAIL_CHARS) {
    // Whole code points only: a cut surrogate pair would show as a broken glyph.
    tail = `…${[...tail].slice(-TAIL_CHARS).join('')}`;
    cut = true;
  }
  return { tail, cut };
}

/** A run as its folder names it: eval/condition/run-NN. */
function runName(r: Pick<RunRecord, 'eval' | 'condition' | 'run'>): string {
  return `${r.eval}/${r.condition}/run-${String(r.run).padStart(2, '0')}`;
}

interface Seen {
  notRun: number;
  example: FailedCheck['example'];
}

/** Running over the runs once: per (condition, check), the runs not run and one example. */
export class FailedCheckAccumulator {
  private readonly seen = new Map<string, Seen>();

  /** `declaredChecks`: the names of the checks of the run's eval (conditions.json). */
  add(record: RunRecord, declaredChecks: readonly string[] = []): void {
    // The runs the rates leave out are left out here too, so the counts agree.
    if (leftOut(record)) return;
    for (const c of checkOutcomes(record, declaredChecks)) {
      if (c.passed !== false) continue;
      const key = JSON.stringify([record.condition, c.name]);
      let s = this.seen.get(key);
      if (!s) this.seen.set(key, (s = { notRun: 0, example: null }));
      const result = (record.checks ?? []).find((r) => r.name === c.name);
      if (!result) s.notRun++;
      else if (s.example === null)
        s.example = {
          run: runName(record),
          exit_code: result.exit_code,
          ...outputTail(result.output),
        };
    }
  }

  /** benchmark.json's `failed_checks`, from the conditions' check rates; empty when none failed. */
  section(conditions: BenchmarkFile['conditions']): FailedCheck[] {
    return conditions.flatMap((c) =>
      Object.entries(c.checks ?? {})
        .filter(([, rate]) => rate.n > rate.successes)
        .map(([check, rate]) => {
          const s = this.seen.get(JSON.stringify([c.condition, check]));
          return {
            condition: c.condition,
            check,
            failed: rate.n - rate.successes,
            runs: rate.n,
            not_run: s?.notRun ?? 0,
            example: s?.example ?? null,
          };
        }),
    );
  }
}
