import {
  AGENT_LABELS,
  MEASURE_LABELS,
  NA,
  formatP,
  num,
  percent,
  points,
  smallNum,
} from '../report/format.js';
import type {
  GroupComparison,
  MeasureComparison,
  OneSidedGroup,
  SideNumber,
  SideCodebase,
  SideProvenance,
  SideRate,
} from './types.js';
import { judgeLine } from './judges.js';
import { scriptRows } from './scripts.js';

/** A measure's name for a reader, on one line: the report's label when evalrig knows it, else its key. */
export function measureLabel(measure: string): string {
  return label(measure).replace(/\s+/g, ' ');
}

function label(measure: string): string {
  const labels: Record<string, string> = { ...MEASURE_LABELS };
  for (const [k, v] of Object.entries(AGENT_LABELS)) labels[`agent.${k}`] = v;
  labels['grading.all_passed'] = 'every expectation met (judge)';
  labels['grading.expectations'] = 'expectations met (judge)';
  labels['grading.expectations_passed'] = 'share of expectations met a run (judge)';
  labels['grading.blind_wins'] = 'blind comparison wins (judge)';
  if (labels[measure]) return labels[measure];
  if (measure.startsWith('grading.expectation: '))
    return `expectation: ${measure.slice('grading.expectation: '.length)}`;
  if (measure.startsWith('message_checks.'))
    return `message check ${measure.slice('message_checks.'.length)}`;
  if (measure.startsWith('checks.')) return `check ${measure.slice('checks.'.length)}`;
  return measure;
}

export function sideValue(m: MeasureComparison, side: 'a' | 'b'): string {
  if (m.kind === 'rate') {
    const s: SideRate = m[side];
    return s.rate === null ? `${NA} (n 0)` : `${percent(s.rate)} (${s.successes}/${s.n})`;
  }
  const s: SideNumber = m[side];
  if (s.mean === null) return `${NA} (n 0)`;
  return `${num(s.mean)}${s.stddev === null ? '' : ` ± ${num(s.stddev)}`} (n ${s.n})`;
}

function signed(value: number, kind: 'rate' | 'number'): string {
  if (value === 0) return kind === 'rate' ? '±0.0' : '±0';
  if (kind === 'rate') return points(value, 1, true);
  return `${value > 0 ? '+' : '−'}${smallNum(Math.abs(value))}`;
}

/** "−100.0 pts [−100.0, −34.2]", "+1.5 [0.2, 2.8]", "+1.5 (no interval below 2 runs a side)". */
export function differenceText(m: MeasureComparison): string {
  if (m.difference === null) return NA;
  const unit = m.kind === 'rate' ? ' pts' : '';
  const d = `${signed(m.difference, m.kind)}${unit}`;
  if (m.ci95 === null) return `${d} (no interval below 2 runs a side)`;
  const bound = (v: number) =>
    m.kind === 'rate' ? signed(v, 'rate') : `${v < 0 ? '−' : ''}${smallNum(Math.abs(v))}`;
  return `${d} [${bound(m.ci95[0])}, ${bound(m.ci95[1])}]`;
}

export function pText(m: MeasureComparison): string {
  return m.kind === 'rate' ? formatP(m.p_value) : '';
}

/**
 * Whether the machine's load moves a measure (a duration): its difference is shown, never
 * marked as the condition's effect. Two campaigns ran at other times, on other loads; a reused
 * run keeps the time of the campaign that played it.
 */
export function loadMoved(measure: string): boolean {
  return /(^|[._])duration(_|$)|_ms$|(^|_)time_s$/u.test(measure);
}

/** Said under a table that shows a duration. */
export const LOAD_NOTE =
  "Durations move with the machine's load (another time, other runs beside them; a reused run keeps the time of the campaign that played it): their differences are never marked as the condition's effect.";

/** Measures with n 0 on both sides: nothing to show but their names. */
export function unknownOnBoth(m: MeasureComparison): boolean {
  return m.a.n === 0 && m.b.n === 0;
}

/** What the numbers of runs can tell, in a sentence; empty when not computed. */
export function detectableText(g: GroupComparison): string {
  const d = g.smallest_detectable;
  if (d === null) return '';
  const pts = (v: number) => `${(v * 100).toFixed(1)} pts`;
  const runs = `With A ${d.n_a} and B ${d.n_b} runs measured, Fisher's test (p < 0.05)`;
  if (d.from_edge === null)
    return `${runs} cannot detect any difference of rates 80% of the time, not even 100% against 0%: more runs are needed to tell.`;
  const r = Math.round(d.worst.rate_a * 100);
  const at = r === 50 ? '50%' : `${r}% or ${100 - r}%`;
  const worst =
    d.worst.difference === null
      ? `none when it is ${at} (the hardest: not even the largest difference)`
      : `from ${pts(d.worst.difference)} when it is ${at} (the hardest)`;
  return `${runs} detects 80% of the time a difference of rates from ${pts(d.from_edge)} when A's rate is 0% or 100%, ${worst}; a smaller one may go unseen.`;
}

export function groupTitle(g: Pick<GroupComparison, 'eval' | 'condition'>): string {
  return g.eval === null ? g.condition : `${g.eval} / ${g.condition}`;
}

export function oneSidedGroupLine(g: OneSidedGroup): string {
  const where = g.eval === null ? `condition ${g.condition}` : `${g.eval} / ${g.condition}`;
  return `${where}: only in ${g.only.toUpperCase()} (${g.runs} run${g.runs === 1 ? '' : 's'})`;
}

const short = (hash: string): string => hash.replace(/^sha256:/, '').slice(0, 12);

/** A row of the provenance table; `info` rows (paths, dates) differ without it mattering. */
export interface ProvenanceRow {
  readonly what: string;
  readonly a: string;
  readonly b: string;
  readonly info?: true;
}

/** The mark of a row whose sides differ in something that can move the measures. */
export function differsMark(row: ProvenanceRow): string {
  return row.info || row.a === row.b ? '' : '≠';
}

/** The provenance of both sides as rows, for the tables of both renderings. */
export function provenanceRows(a: SideProvenance, b: SideProvenance): ProvenanceRow[] {
  const rows: ProvenanceRow[] = [];
  const push = (what: string, va: string, vb: string, info = false): void => {
    rows.push(info ? { what, a: va, b: vb, info: true } : { what, a: va, b: vb });
  };
  push(
    'eval set',
    `${a.eval_set.name} (${a.eval_set.path})`,
    `${b.eval_set.name} (${b.eval_set.path})`,
    true,
  );
  push('eval set sha256', a.eval_set.sha256, b.eval_set.sha256);
  const codebases = (p: SideProvenance, e: string, line: (c: SideCodebase) => string) =>
    [...new Set(p.codebases.filter((c) => c.evals.includes(e)).map(line))].join('; ') || NA;
  const evals = [...new Set([...a.codebases, ...b.codebases].flatMap((c) => c.evals))];
  for (const e of evals) {
    const commit = (c: SideCodebase) => `${c.commit}${c.dirty ? ' (dirty)' : ''}`;
    const source = (c: SideCodebase) => `${c.url ?? c.path ?? c.kind}${c.ref ? ` @ ${c.ref}` : ''}`;
    push(`codebase commit (${e})`, codebases(a, e, commit), codebases(b, e, commit));
    push(`codebase source (${e})`, codebases(a, e, source), codebases(b, e, source), true);
  }
  agentRows(a, b, push);
  push('image', `${a.image.tag} ${a.image.id}`, `${b.image.tag} ${b.image.id}`);
  const envs = [
    ...new Set([...a.image.environments, ...b.image.environments].map((e) => e.evals.join(', '))),
  ];
  for (const key of envs) {
    const env = (p: SideProvenance) => {
      const e = p.image.environments.find((x) => x.evals.join(', ') === key);
      return e ? `${e.tag} ${e.id} (environment ${short(e.environment_sha256)})` : NA;
    };
    push(`environment image (${key})`, env(a), env(b));
  }
  push('gh stand-in sha256', a.stand_in_sha256, b.stand_in_sha256);
  push('evalrig', a.evalrig_version, b.evalrig_version);
  push('--stop-at-hand-over', String(a.stop_at_hand_over), String(b.stop_at_hand_over));
  const names = [...new Set([...a.conditions, ...b.conditions].map((c) => c.name))];
  for (const name of names) {
    const cond = (p: SideProvenance) => {
      const c = p.conditions.find((x) => x.name === name);
      if (!c) return 'absent';
      const stage = c.stage.map((s) => `${s.to} ${short(s.sha256)}`).join(', ') || 'nothing';
      return `stages ${stage}; env ${c.env.join(', ') || 'none'}; agent args ${c.agent_args.join(' ') || 'none'}`;
    };
    push(`condition ${name}`, cond(a), cond(b));
  }
  for (const r of scriptRows(a, b)) push(r.what, r.a, r.b);
  if (a.judges.length || b.judges.length)
    push('judge', judgeLine(a) || 'not graded', judgeLine(b) || 'not graded');
  push('campaign created', a.created_at, b.created_at, true);
  return rows;
}

/** How the numbers are computed, in the words both renderings print. */
export const METHOD =
  "Every difference is B − A. Rates: successes over the runs where the measure is known; the difference in points with Newcombe's hybrid score 95% interval (built from the two Wilson intervals), and Fisher's exact two-sided p. Numbers: mean ± sample stddev (n); the difference of means with Welch's 95% interval (t at the Welch–Satterthwaite degrees of freedom; none below 2 runs a side). Failed runs (the harness's) are not measured.";

/**
 * The agent rows: the campaign's one agent, or each condition's in a campaign that plays
 * several (benchmark.json's provenance.agents), with its Node runtime where it has one.
 */
function agentRows(
  a: SideProvenance,
  b: SideProvenance,
  push: (what: string, va: string, vb: string) => void,
): void {
  const several = a.agents !== undefined || b.agents !== undefined;
  const names = several
    ? [...new Set([...a.conditions, ...b.conditions].map((c) => c.name))]
    : [undefined];
  for (const name of names) {
    const of = (p: SideProvenance) =>
      name === undefined ? p.agent : (p.agents?.[name] ?? p.agent);
    const [ia, ib] = [of(a), of(b)];
    const at = name === undefined ? '' : ` (${name})`;
    const id = (x: typeof ia) => (x ? `${x.package}@${x.version}` : 'command agent');
    push(`agent${at}`, id(ia), id(ib));
    push(`agent binary sha256${at}`, ia?.binary_sha256 ?? NA, ib?.binary_sha256 ?? NA);
    if (ia?.runtime || ib?.runtime) {
      const node = (x: typeof ia) =>
        x?.runtime ? `${x.runtime.package}@${x.runtime.version} ${x.runtime.sha256}` : NA;
      push(`agent Node runtime${at}`, node(ia), node(ib));
    }
  }
}
