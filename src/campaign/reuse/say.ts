/**
 * What reuse decided, in the line the CLI says before anything plays: per condition, what
 * changed and how many runs play, and how many are reused (and from where, when several folders
 * were named).
 *
 * ```
 * evalrig: reuse: with_skill: .claude/skills/tdd/SKILL.md changed: 10 to play; without_skill: unchanged: 10 reused
 * ```
 */
import type { PlannedRun } from '../plan.js';
import type { ReuseSource, RunDecision } from './match.js';

/** One planned run and what became of it. */
export interface Decided {
  readonly planned: PlannedRun;
  readonly decision: RunDecision;
}

/** Counts by reason, in the order the reasons first came. */
function tally(keys: readonly string[]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return [...counts];
}

/** One condition's part of the line: `unchanged: 10 reused`, `X changed: 2 to play`, … */
function conditionPart(decided: readonly Decided[], several: boolean): string {
  const reused = decided.flatMap((d) => (d.decision.kind === 'reused' ? [d.decision.source] : []));
  const parts: string[] = [];
  if (reused.length > 0) {
    const bySource = tally(reused.map((s: ReuseSource) => s.folder));
    const from = several ? bySource.map(([f, n]) => `${n} from ${f}`).join(', ') : '';
    parts.push(`unchanged: ${reused.length} reused${from ? ` (${from})` : ''}`);
  }
  const play = decided.flatMap((d) => (d.decision.kind === 'play' ? [d.decision.why] : []));
  for (const [why, n] of tally(play)) parts.push(`${why}: ${n} to play`);
  const here = decided.filter((d) => d.decision.kind === 'here').length;
  if (here > 0) parts.push(`${here} finished here`);
  return parts.join(', ');
}

/**
 * The line said before anything plays, per condition in the order planned.
 *
 * @example
 * reuseLine(decided, sources)
 * // 'evalrig: reuse: with_skill: .claude/skills/tdd/SKILL.md changed: 10 to play; without_skill: unchanged: 10 reused'
 */
export function reuseLine(decided: readonly Decided[], sources: readonly ReuseSource[]): string {
  const byCondition = new Map<string, Decided[]>();
  for (const d of decided) {
    const name = d.planned.condition.name;
    byCondition.set(name, [...(byCondition.get(name) ?? []), d]);
  }
  const several = sources.length > 1;
  const parts = [...byCondition].map(([name, ds]) => `${name}: ${conditionPart(ds, several)}`);
  return `evalrig: reuse: ${parts.join('; ')}`;
}
