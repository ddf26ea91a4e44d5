// What the tests of a campaign on another engine (ssh, TLS, two at once) share: the toy
// campaign they play, the run containers each engine held meanwhile, the verdict, and what
// a campaign measured (to compare one setup's with another's).
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LABELS, listContainers, type DockerClient } from '../../src/runtime/index.js';
import { campaignOf, runRecords } from './faults.js';
import { executionTurn, makeToyWorkspace, planningTurn, PLAN, type ToyWorkspace } from './toy.js';

/** The user's turn after the plan: approve it. */
export const EXECUTION = [{ message: 'Approved: carry out the plan.', phase: 'execution' }];

/** One nominal eval (plan, then carry it out; the checks pass) in two conditions, one run each. */
export function nominalWorkspace(): Promise<ToyWorkspace> {
  return makeToyWorkspace({
    scripts: { nominal: { turns: [planningTurn(), executionTurn()] } },
    set: {
      conditions: { a: {}, b: {} },
      checks: [{ name: 'tests', run: 'node test.js' }],
      evals: [{ id: 'nominal', prompt: 'Plan multiply.', turns: EXECUTION, runs: 1 }],
    },
    files: { 'PLAN.md': PLAN },
  });
}

/** The two runs of {@link nominalWorkspace}'s campaign in `out` completed, the checks passed. */
export async function expectBothRunsCompleted(out: string): Promise<void> {
  const records = (await runRecords(out)).map((x) => x.record);
  expect(records).to.have.length(2);
  for (const r of records) {
    expect(r.status, r.error).to.equal('completed');
    expect(r.measures.checks_passed).to.equal(true);
  }
}

/**
 * The run containers of the campaign in `outDir` each engine held while
 * `running` lasted, looked at every 100 ms (a run holds its container for
 * seconds, so every one is seen). Only those with a run label count: the
 * campaign's preflight starts a short-lived container of its own on every
 * engine, which a slow look sometimes caught and sometimes did not.
 */
export async function containersWhile(
  running: Promise<unknown>,
  outDir: string,
  engines: Record<string, DockerClient>,
): Promise<Record<string, number>> {
  const seen: Record<string, Set<string>> = {};
  for (const name of Object.keys(engines)) seen[name] = new Set();
  let done = false;
  void running.finally(() => {
    done = true;
  });
  while (!done) {
    const campaign = await campaignOf(outDir);
    if (campaign) {
      for (const [name, client] of Object.entries(engines)) {
        for (const c of await listContainers(client, { [LABELS.campaign]: campaign }))
          if (c.Labels?.[LABELS.run]) seen[name]!.add(c.Id);
      }
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return Object.fromEntries(Object.entries(seen).map(([k, v]) => [k, v.size]));
}

/** `value` without what depends on when it ran (times, durations, commit ids that hold a date). */
function timeless(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(timeless);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (/(^|_)(at|ms|s|head|seq|ts|time)$|^(at|head|sha|commit)$/u.test(k)) continue;
    out[k] = timeless(v);
  }
  return out;
}

/** What every run measured and recorded at each stop, keyed by eval/condition/run. */
export async function measuredOf(outDir: string): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const { dir, record } of await runRecords(outDir)) {
    const stops = [];
    for (const stop of record.stops) {
      stops.push(timeless(JSON.parse(await readFile(path.join(dir, stop), 'utf8'))));
    }
    out[`${record.eval}/${record.condition}/${record.run}`] = {
      status: record.status,
      measures: timeless(record.measures),
      diff: record.diff,
      checks: timeless(record.checks),
      turns: record.turns_completed,
      stops,
      patch: await readFile(path.join(dir, 'diff.patch'), 'utf8'),
    };
  }
  return out;
}
