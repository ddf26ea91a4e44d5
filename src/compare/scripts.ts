/**
 * The model scripts in two campaigns' provenance: offline, the script is the model, so a
 * changed script is a difference that could explain the measures as much as a changed skill.
 */
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
  if (differing.length === names.length && names.length > 1 && shared(a) && shared(b))
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

/** The provenance table's rows of the model scripts, one per condition, when a side has any. */
export function modelScriptRows(
  a: SideProvenance,
  b: SideProvenance,
): Array<{ what: string; a: string; b: string }> {
  if (!a.model_scripts && !b.model_scripts) return [];
  const names = [...new Set([...a.conditions, ...b.conditions].map((c) => c.name))];
  return names.map((c) => ({
    what: `model script (${c})`,
    a: scriptsLine(a, c),
    b: scriptsLine(b, c),
  }));
}
