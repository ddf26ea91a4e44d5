/// <reference lib="dom" />
import type { ConditionsFile } from '../../artifacts/types.js';
import type { BenchmarkFile } from '../../report/benchmark-file.js';
import type { Trajectory } from '../../trajectory/types.js';
import type { ReviewFile } from '../../report/review-file.js';
import type { RunRow } from '../rows.js';

export type { RunRow, Trajectory, BenchmarkFile, ReviewFile };

export interface CampaignInfo {
  readonly conditions: ConditionsFile | null;
  readonly benchmark: BenchmarkFile | null;
}

async function json<T>(url: string): Promise<T> {
  const res = await fetch(url, { headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`${url}: ${res.status} ${(await res.text()).trim()}`);
  return (await res.json()) as T;
}

export const campaignInfo = (): Promise<CampaignInfo> => json('/_api/campaign');

const runPath = (e: string, c: string, n: number): string =>
  [e, c, String(n)].map(encodeURIComponent).join('/');

export const runDetail = (e: string, c: string, n: number) =>
  json<{ row: RunRow; trajectory: Trajectory }>(`/_api/run/${runPath(e, c, n)}`);

/** The run's diff and its eval's reference diff (a mined task's), each null when there is none. */
export const runDiffs = (e: string, c: string, n: number) =>
  json<{ run: string | null; reference: string | null; reference_path?: string }>(
    `/_api/diffs/${runPath(e, c, n)}`,
  );

/**
 * Every finished run's row, as the server streams them (one JSON line each): `onRows` is
 * called with each batch as it arrives, so a page shows its first rows before the last is read.
 */
export async function streamRows(onRows: (rows: RunRow[]) => void): Promise<void> {
  const res = await fetch('/_api/runs');
  if (!res.ok || !res.body) throw new Error(`/_api/runs: ${res.status}`);
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let rest = '';
  for (;;) {
    const { done, value } = await reader.read();
    rest += done ? decoder.decode() : decoder.decode(value, { stream: true });
    const lines = rest.split('\n');
    rest = done ? '' : lines.pop()!;
    const rows = lines.filter((l) => l !== '').map((l) => JSON.parse(l) as RunRow);
    if (rows.length > 0) onRows(rows);
    if (done) return;
  }
}

/** Every finished run's row, once all are read. */
export async function runRows(): Promise<RunRow[]> {
  const all: RunRow[] = [];
  await streamRows((rows) => all.push(...rows));
  return all;
}

export async function saveReview(
  e: string,
  c: string,
  n: number,
  review: { verdict: 'agree' | 'disagree' | null; note: string },
): Promise<ReviewFile> {
  const res = await fetch(`/_api/review/${runPath(e, c, n)}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(review),
  });
  if (!res.ok) throw new Error((await res.text()).trim());
  return (await res.json()) as ReviewFile;
}

export const rowKey = (r: Pick<RunRow, 'eval' | 'condition' | 'run'>): string =>
  `${r.eval}\u0000${r.condition}\u0000${r.run}`;

/** The filters a run list takes, by name: what each selects. */
export const FILTERS: Readonly<Record<string, { label: string; test: (r: RunRow) => boolean }>> = {
  all: { label: 'all runs', test: () => true },
  failed_check: { label: 'failed check', test: (r) => r.flags.failed_check },
  tampered: { label: 'tampered', test: (r) => r.flags.tampered },
  broken: { label: 'broken', test: (r) => r.flags.broken },
  timed_out: { label: 'timed out', test: (r) => r.flags.timed_out },
  judge_no: { label: 'judge said no', test: (r) => r.flags.judge_no },
  failed: { label: 'failed', test: (r) => r.flags.failed },
  reviewed: { label: 'reviewed', test: (r) => r.review !== null },
};

/** The run list a page shows, by its query: condition, eval, agent, filter. */
export function selectRows(rows: readonly RunRow[], q: URLSearchParams): RunRow[] {
  const condition = q.get('condition');
  const evalId = q.get('eval');
  const agent = q.get('agent');
  const filter = FILTERS[q.get('filter') ?? 'all'] ?? FILTERS.all!;
  return rows.filter(
    (r) =>
      (!condition || r.condition === condition) &&
      (!evalId || r.eval === evalId) &&
      (!agent || r.agent === agent) &&
      filter.test(r),
  );
}

/** Listens to the server's live events: a finished run's row, a new benchmark. */
export function listen(onRun: (row: RunRow) => void, onBenchmark: () => void): EventSource {
  const source = new EventSource('/_api/events');
  source.addEventListener('run', (e) =>
    onRun(JSON.parse((e as MessageEvent<string>).data) as RunRow),
  );
  source.addEventListener('benchmark', () => onBenchmark());
  return source;
}
