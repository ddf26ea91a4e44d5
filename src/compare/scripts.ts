/**
 * The scripts in two campaigns' provenance: offline, the script is the model, so a changed
 * script is a difference that could explain the measures as much as a changed skill. So is a
 * changed file of the eval set folder, which every run sees (the scripted agent's script lives
 * there).
 */
import { createHash } from 'node:crypto';
import type { ProvenanceDifference, SideProvenance } from './types.js';

const short = (hash: string): string => hash.slice(0, 12);

/** A condition's scripts in one line, or that none was recorded. */
export function scriptsLine(p: SideProvenance, condition: string): string {
  const hashes = p.model_scripts?.[condition] ?? [];
  return hashes.length ? `sha256 ${hashes.map(short).join(', ')}` : 'none recorded';
}

const key = (p: SideProvenance, condition: string): string =>
  JSON.stringify(p.model_scripts?.[condition] ?? []);

/** The conditions both sides have, in A's order. */
function common(a: SideProvenance, b: SideProvenance): string[] {
  return a.conditions.map((c) => c.name).filter((n) => b.conditions.some((c) => c.name === n));
}

/**
 * The model scripts that differ: one entry when every condition both sides have changed its
 * script alike (a script the conditions share), else one per condition. Nothing when a side
 * recorded none (an older evalrig, or no script played): there is nothing to tell then.
 */
export function modelScriptDifferences(
  a: SideProvenance,
  b: SideProvenance,
): ProvenanceDifference[] {
  if (!a.model_scripts || !b.model_scripts) return [];
  const names = common(a, b);
  const differing = names.filter((c) => key(a, c) !== key(b, c));
  if (differing.length === 0) return [];
  const shared = (p: SideProvenance) => new Set(names.map((c) => key(p, c))).size === 1;
  if (differing.length === names.length && shared(a) && shared(b))
    return [
      {
        aspect: 'model_script',
        what: 'the model script',
        a: scriptsLine(a, names[0]!),
        b: scriptsLine(b, names[0]!),
      },
    ];
  return differing.map((c) => ({
    aspect: 'model_script' as const,
    what: `the model script of condition ${c}`,
    a: scriptsLine(a, c),
    b: scriptsLine(b, c),
  }));
}

/** The eval set folder's files in one line: how many, and one sha256 over them all. */
function filesLine(p: SideProvenance): string {
  const files = p.eval_set_files;
  if (!files) return 'none recorded';
  const all = createHash('sha256')
    .update(JSON.stringify(Object.entries(files).sort()))
    .digest('hex');
  return `${Object.keys(files).length} files, sha256 ${short(all)}`;
}

/**
 * The provenance table's rows of the scripts: the model script of each condition, when a side
 * has any, and the eval set folder's files.
 */
export function scriptRows(
  a: SideProvenance,
  b: SideProvenance,
): Array<{ what: string; a: string; b: string }> {
  const names = [...new Set([...a.conditions, ...b.conditions].map((c) => c.name))];
  const scripts =
    a.model_scripts || b.model_scripts
      ? names.map((c) => ({
          what: `model script (${c})`,
          a: scriptsLine(a, c),
          b: scriptsLine(b, c),
        }))
      : [];
  const files =
    a.eval_set_files || b.eval_set_files
      ? [{ what: 'eval set folder files', a: filesLine(a), b: filesLine(b) }]
      : [];
  return [...scripts, ...files];
}

/** At most this many changed files are named in the difference; the others are counted. */
const NAMED_FILES = 5;

/**
 * The eval set folder's files that differ (changed, or on one side only), as one difference.
 * Nothing when a side recorded none.
 */
export function evalSetFileDifference(
  a: SideProvenance,
  b: SideProvenance,
): ProvenanceDifference | null {
  const fa = a.eval_set_files;
  const fb = b.eval_set_files;
  if (!fa || !fb) return null;
  const all = [...new Set([...Object.keys(fa), ...Object.keys(fb)])].sort();
  const differing = all.filter((f) => JSON.stringify(fa[f] ?? []) !== JSON.stringify(fb[f] ?? []));
  if (differing.length === 0) return null;
  const named = differing.slice(0, NAMED_FILES);
  const more = differing.length - named.length;
  const side = (files: Readonly<Record<string, readonly string[]>>) =>
    named
      .map((f) => `${f} ${files[f]?.length ? files[f]!.map(short).join(', ') : 'absent'}`)
      .join('; ') + (more > 0 ? `; ${more} more` : '');
  return {
    aspect: 'eval_set_files',
    what: `the eval set folder's ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`,
    a: side(fa),
    b: side(fb),
  };
}
