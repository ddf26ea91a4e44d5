/**
 * What the report says of reused runs (copied from an earlier campaign by `evalrig run
 * --reuse`) and of the model scripts the runs played, gathered from the runs' records as the
 * report streams them: benchmark.json's `provenance.reused` and `provenance.model_scripts`,
 * their rows in BASELINE.md and their line in report.md.
 */
import type { RunRecord } from '../artifacts/index.js';
import type { Provenance } from './benchmark-file.js';

type Reused = NonNullable<Provenance['reused']>[number];

/** The key prefix of an eval set folder file among a run's inputs (campaign/reuse's). */
const FOLDER = 'folder:';

/** At most this many run keys are listed per source in BASELINE.md; the others are counted. */
const LISTED = 10;

/** Running sums of the reused runs by source, and of each condition's model scripts. */
export class ReuseAccumulator {
  private readonly bySource = new Map<string, Reused & { conditions: Record<string, number> }>();
  private readonly scripts = new Map<string, Set<string>>();
  private readonly files = new Map<string, Set<string>>();

  add(record: RunRecord): void {
    const inputs = record.fingerprint?.inputs ?? {};
    const script = inputs['model.script'];
    if (script !== undefined) {
      const known = this.scripts.get(record.condition) ?? new Set<string>();
      this.scripts.set(record.condition, known.add(script));
    }
    for (const [key, hash] of Object.entries(inputs)) {
      if (!key.startsWith(FOLDER)) continue;
      const rel = key.slice(FOLDER.length);
      this.files.set(rel, (this.files.get(rel) ?? new Set<string>()).add(hash));
    }
    const from = record.reused_from;
    if (!from) return;
    const key = JSON.stringify([from.campaign, from.folder]);
    const source = this.bySource.get(key) ?? {
      campaign: from.campaign,
      folder: from.folder,
      conditions: {},
      runs: [],
    };
    source.conditions[record.condition] = (source.conditions[record.condition] ?? 0) + 1;
    (source.runs as string[]).push(from.run);
    this.bySource.set(key, source);
  }

  /** benchmark.json's `provenance.reused`, `model_scripts` and `eval_set_files`, when there are any. */
  provenance(): Pick<Provenance, 'reused' | 'model_scripts' | 'eval_set_files'> {
    const reused = [...this.bySource.values()].map((s) => ({ ...s, runs: [...s.runs].sort() }));
    const scripts = Object.fromEntries(
      [...this.scripts].map(([condition, hashes]) => [condition, [...hashes].sort()]),
    );
    const files = Object.fromEntries(
      [...this.files].sort(([a], [b]) => (a < b ? -1 : 1)).map(([rel, h]) => [rel, [...h].sort()]),
    );
    return {
      ...(reused.length > 0 ? { reused } : {}),
      ...(this.scripts.size > 0 ? { model_scripts: scripts } : {}),
      ...(this.files.size > 0 ? { eval_set_files: files } : {}),
    };
  }
}

function runsWord(n: number): string {
  return `${n} run${n === 1 ? '' : 's'}`;
}

/** The conditions of a source in words: `without_skill`, or `a 2, b 1`. */
function conditionsText(conditions: Readonly<Record<string, number>>): string {
  const entries = Object.entries(conditions);
  if (entries.length === 1) return entries[0]![0];
  return entries.map(([c, n]) => `${c} ${n}`).join(', ');
}

/** At most this many eval set folder files get a row of their own in BASELINE.md. */
const FILE_ROWS = 20;

/**
 * BASELINE.md's rows from the runs' fingerprints: each model script, the eval set folder's
 * other files, and the reused runs of each source campaign.
 */
export function fingerprintRows(p: Provenance): string[][] {
  const rows: string[][] = [];
  const scripts = Object.entries(p.model_scripts ?? {});
  const same = new Set(scripts.map(([, h]) => h.join(', '))).size === 1;
  if (same && scripts.length > 1) rows.push(['model script sha256', scripts[0]![1].join(', ')]);
  else for (const [c, h] of scripts) rows.push([`model script sha256 (${c})`, h.join(', ')]);
  const files = Object.entries(p.eval_set_files ?? {});
  for (const [rel, h] of files.slice(0, FILE_ROWS))
    rows.push([`eval set file ${rel} sha256`, h.join(', ')]);
  if (files.length > FILE_ROWS)
    rows.push(['eval set files', `${files.length - FILE_ROWS} more (benchmark.json)`]);
  for (const s of p.reused ?? []) {
    const listed = s.runs.slice(0, LISTED).join(', ');
    const more = s.runs.length > LISTED ? ` and ${s.runs.length - LISTED} more` : '';
    const n = Object.values(s.conditions).reduce((a, b) => a + b, 0);
    rows.push([
      `reused runs (campaign ${s.campaign})`,
      `${runsWord(n)} of ${conditionsText(s.conditions)} from ${s.folder}: ${listed}${more}`,
    ]);
  }
  return rows;
}

/**
 * report.md's and report.html's lines on the reused runs, one per source campaign.
 *
 * @example
 * reuseLines(provenance, 20)
 * // ['10 of 20 runs were reused from campaign c-1 (/out/first), their every input unchanged: without_skill 10.']
 */
export function reuseLines(p: Provenance, total: number): string[] {
  return (p.reused ?? []).map((s) => {
    const n = Object.values(s.conditions).reduce((a, b) => a + b, 0);
    const by = Object.entries(s.conditions)
      .map(([c, k]) => `${c} ${k}`)
      .join(', ');
    return `${n} of ${total} runs were reused from campaign ${s.campaign} (${s.folder}), their every input unchanged: ${by}. Their measures, durations and costs are that campaign's; the account leaves them out.`;
  });
}
