/**
 * Which earlier run a planned run may be copied from: the run of the same key in the first
 * `--reuse` folder where it completed with the same fingerprint; else why it is played, in
 * words, from the first folder that has it.
 */
import {
  notACampaign,
  readConditions,
  readSourceRun,
  type SourceRun,
} from '../../campaign-folder/index.js';
import { InputError } from '../../errors/index.js';
import type { PlannedRun } from '../plan.js';
import {
  changedInputs,
  describeInput,
  FILE_INPUT,
  fingerprintOf,
  type Fingerprint,
  type InputChanges,
} from './fingerprint.js';
import { stat } from 'node:fs/promises';
import path from 'node:path';

/** A campaign folder runs are reused from: as the user named it, where it is, whose it is. */
export interface ReuseSource {
  readonly folder: string;
  readonly dir: string;
  readonly campaign: string;
}

/**
 * The `--reuse` folders, each checked to be a campaign folder other than `outDir`; a folder
 * that is not one is the user's mistake, said before anything is built.
 */
export async function reuseSources(
  outDir: string,
  folders: readonly string[] | undefined,
): Promise<ReuseSource[]> {
  const sources: ReuseSource[] = [];
  for (const folder of folders ?? []) {
    const dir = path.resolve(folder);
    if (dir === path.resolve(outDir))
      throw new InputError(
        `--reuse ${folder} is the --out folder itself: its finished runs are kept anyway; name an earlier campaign's folder`,
      );
    const isFolder = await stat(dir).then(
      (s) => s.isDirectory(),
      () => false,
    );
    if (!isFolder) throw new InputError(`--reuse ${folder}: no such folder`);
    const read = await readConditions(dir);
    if (read.status !== 'ok') throw new InputError(`--reuse ${folder}: ${notACampaign(read, dir)}`);
    if (!sources.some((s) => s.dir === dir))
      sources.push({ folder, dir, campaign: read.value.campaign });
  }
  return sources;
}

/** What becomes of one planned run. */
export type RunDecision =
  | { readonly kind: 'here' }
  | { readonly kind: 'reused'; readonly source: ReuseSource; readonly run: SourceRun }
  | { readonly kind: 'play'; readonly why: string; readonly warning?: string };

const STATUS_WORDS: Readonly<Record<string, string>> = {
  failed: 'failed',
  timed_out: 'timed out',
  broken: 'broken',
  limit_reached: 'reached a limit',
};

/** The first folder with an earlier run of the same key that cannot be reused: why not. */
function whyNot(run: SourceRun, source: ReuseSource, now: Fingerprint): string {
  const record = run.stored.record;
  if (record.status !== 'completed')
    return `${STATUS_WORDS[record.status] ?? record.status} in ${source.folder}`;
  const before = record.fingerprint;
  if (!before) return `not fingerprinted in ${source.folder} (an earlier evalrig)`;
  if (fingerprintOf(before.inputs).sha256 !== before.sha256)
    return `its fingerprint in ${source.folder} does not match its inputs`;
  return describeChanges(changedInputs(before.inputs, now.inputs)) || 'its fingerprint differs';
}

/**
 * Whether the planned run is copied, and from where. Only a completed run whose fingerprint is
 * this run's (and is the hash of the inputs it lists) is reused; the first folder wins.
 */
export async function decideRun(
  sources: readonly ReuseSource[],
  planned: PlannedRun,
  now: Fingerprint,
): Promise<RunDecision> {
  let why: string | undefined;
  let warning: string | undefined;
  for (const source of sources) {
    const read = await readSourceRun(source.dir, planned.key);
    if (read.status === 'missing') continue;
    if (read.status === 'broken') {
      why ??= `unreadable in ${source.folder}`;
      warning ??= `--reuse ${source.folder}: ${planned.key}: ${read.problem}`;
      continue;
    }
    const record = read.value.stored.record;
    const before = record.fingerprint;
    const whole = before !== undefined && fingerprintOf(before.inputs).sha256 === before.sha256;
    if (record.status === 'completed' && whole && before.sha256 === now.sha256)
      return { kind: 'reused', source, run: read.value };
    why ??= whyNot(read.value, source, now);
  }
  const nowhere = `not in ${sources.map((s) => s.folder).join(', ')}`;
  return { kind: 'play', why: why ?? nowhere, ...(warning ? { warning } : {}) };
}

/** At most this many inputs are named in a reason; the others are counted. */
const NAMED = 3;

/** What a condition stages comes first: it is what a campaign of conditions changes. */
function rank(key: string): number {
  return key.startsWith(FILE_INPUT.staged) ? 0 : 1;
}

function names(unordered: readonly string[]): string {
  const keys = [...unordered].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const shown = keys.slice(0, NAMED).map(describeInput);
  const more = keys.length - shown.length;
  if (more > 0) return `${shown.join(', ')} and ${more} more`;
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

/**
 * What changed, in words: the inputs changed, added and removed, by name.
 *
 * @example
 * describeChanges({ changed: ['stage:.claude/skills/tdd/SKILL.md'], added: [], removed: [] })
 * // '.claude/skills/tdd/SKILL.md changed'
 */
export function describeChanges(changes: InputChanges): string {
  const parts: string[] = [];
  if (changes.changed.length) parts.push(`${names(changes.changed)} changed`);
  if (changes.added.length) parts.push(`${names(changes.added)} added`);
  if (changes.removed.length) parts.push(`${names(changes.removed)} removed`);
  return parts.join(', ');
}
