/**
 * A look of the sequential test: the primary measure's successes of each condition within
 * each eval, read from the finished runs of the rounds played so far, and what the looks
 * taken decide, in words.
 */
import { readRun } from '../../campaign-folder/index.js';
import type { SequentialFile } from '../../artifacts/index.js';
import {
  decide,
  runsOf,
  stratifiedZ,
  type Counts,
  type DecidedLook,
} from '../../sequential/index.js';
import { runLayout } from '../layout.js';
import type { PlannedRun } from '../plan.js';
import { statisticsOf, type DesignRecord } from './design.js';
import { valueIn } from './primary.js';

/** Each eval's counts over these planned runs' records (unfinished ones count nothing). */
export async function countsOf(
  outDir: string,
  design: DesignRecord,
  planned: readonly PlannedRun[],
): Promise<Counts[]> {
  const byEval = new Map(design.evals.map((e) => [e, { x1: 0, n1: 0, x2: 0, n2: 0 }]));
  for (const p of planned) {
    const c = byEval.get(p.eval.id);
    if (!c) continue;
    const read = await readRun(runLayout(outDir, p.key).dir);
    if (read.status !== 'ok') continue;
    const value = valueIn(read.value.record, design.primary_measure);
    if (value === null) continue;
    if (p.condition.name === design.condition) {
      c.n1++;
      if (value) c.x1++;
    } else if (p.condition.name === design.baseline) {
      c.n2++;
      if (value) c.x2++;
    }
  }
  return [...byEval.values()];
}

/**
 * The looks with one more from these counts, when they count more runs than the last look
 * did (a round whose runs all failed tells nothing new); each look's bounds and decision
 * from the whole history.
 */
export function withLook(
  design: DesignRecord,
  looks: SequentialFile['looks'],
  counts: readonly Counts[],
): DecidedLook[] {
  const history = looks.map((l) => ({ runs: l.runs, z: l.z }));
  const runs = runsOf(counts);
  if (runs > (history.at(-1)?.runs ?? 0)) history.push({ runs, z: stratifiedZ(counts) });
  return decide(statisticsOf(design), history);
}

const fixed = (x: number) => x.toFixed(2);

/** The decision of the last look, in words ("stopped after 14 of 40 runs a condition: ..."). */
export function decisionText(design: DesignRecord, last: DecidedLook | undefined): string {
  const of = `${last?.runs ?? 0} of ${design.max_runs} runs a condition`;
  if (!last || last.decision === 'go_on')
    return `undecided after ${of}: a resume plays the next round`;
  const z = `z ${fixed(last.z)}`;
  switch (last.decision) {
    case 'significant':
      return `stopped after ${of}: significant at the sequential boundary (${z}, beyond ±${fixed(last.efficacy)})`;
    case 'futile':
      return `stopped after ${of}: futile at the futility bound (${z}, within ±${fixed(last.futility)}: a difference of ${Math.round(design.min_effect * 100)} pts is unlikely)`;
    case 'cap':
      return `played all ${design.max_runs} runs a condition: not significant at the sequential boundary (${z}, within ±${fixed(last.efficacy)})`;
  }
}

/** sequential.json of the design and these looks. */
export function sequentialFile(
  design: DesignRecord,
  looks: readonly DecidedLook[],
): SequentialFile {
  const last = looks.at(-1);
  return {
    schema: 'evalrig/sequential@1',
    design,
    looks: looks.map((l) => ({
      runs: l.runs,
      z: l.z,
      t: l.t,
      efficacy: l.efficacy,
      futility: l.futility,
      decision: l.decision,
    })),
    decision: last?.decision ?? 'go_on',
    text: decisionText(design, last),
  };
}
