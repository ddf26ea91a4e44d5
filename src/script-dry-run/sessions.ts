/**
 * The sessions a campaign folder recorded, as a dry run replays them: each run's model calls
 * (its flight record), or each question the judge was asked (a run's grading, a blind
 * comparison). A judge's gateway starts its stand-in again for every question, so a question
 * is a session of its own: its calls are numbered again from 1.
 */
import { access } from 'node:fs/promises';
import path from 'node:path';
import {
  flightFiles,
  judgeFlightFiles,
  listComparisons,
  listRuns,
  type FlightFiles,
} from '../campaign-folder/index.js';
import { readFlight } from '../flight/index.js';
import type { RecordedSession } from './play.js';

/** Which sessions: the agents' (default) or the judge's. */
export type SessionKind = 'agent' | 'judge';

const exists = (file: string): Promise<boolean> =>
  access(file).then(
    () => true,
    () => false,
  );

/** The calls of one flight record, split where their numbering starts again. */
async function sessionsOf(files: FlightFiles, label: string): Promise<RecordedSession[]> {
  if (!(await exists(files.calls))) return [];
  const record = await readFlight(files, { shared: true });
  const groups: Array<Array<{ seq: number; body: unknown }>> = [];
  // Lines are written as calls end; within one gateway `seq` is the order they arrived.
  let current: Array<{ seq: number; body: unknown }> = [];
  for (const call of record.calls) {
    if (call.seq === 1 && current.length > 0) {
      groups.push(current);
      current = [];
    }
    current.push({ seq: call.seq, body: record.request(call) });
  }
  if (current.length > 0) groups.push(current);
  return groups.map((requests, i) => ({
    label: groups.length > 1 ? `${label} #${i + 1}` : label,
    requests: [...requests].sort((a, b) => a.seq - b.seq),
  }));
}

/**
 * Every recorded session of `kind` in the campaign folder, in the folder's order, each named
 * by its folder (`runs/<eval>/<condition>/run-NN`, `comparisons/<a>.vs.<b>/<eval>/run-NN`);
 * `only` keeps those whose name holds it.
 */
export async function recordedSessions(
  outDir: string,
  kind: SessionKind,
  only?: string,
): Promise<RecordedSession[]> {
  const dirs: string[] = [];
  for await (const run of listRuns(outDir)) dirs.push(run.dir);
  if (kind === 'judge') {
    for (const pair of await listComparisons(outDir)) dirs.push(...pair.files.map(path.dirname));
  }
  const out: RecordedSession[] = [];
  for (const dir of dirs) {
    const label = path.relative(outDir, dir).split(path.sep).join('/');
    if (only !== undefined && !label.includes(only)) continue;
    const files = kind === 'agent' ? flightFiles(dir) : judgeFlightFiles(dir);
    out.push(...(await sessionsOf(files, label)));
  }
  return out;
}
