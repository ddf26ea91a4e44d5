/**
 * What the agent did, per condition, from each run's trajectory (the host's record): rates
 * with Wilson intervals, counts a run with their spread, each condition against the baseline
 * (rates: Newcombe's interval and Fisher's p, as the verdicts; counts: Welch's interval and
 * p), and the few largest differences as sentences. Runs with no witnessed model call are left
 * out (a command agent's), and so are runs the harness failed, as for every measure.
 */
import { toolResultForms } from '../agents/index.js';
import type { RunRecord } from '../artifacts/index.js';
import { passesStepCheck, runBehaviour, type RunBehaviour } from '../behaviour/index.js';
import type { StepCheck } from '../config/step-checks.js';
import { leftOut } from '../measure/index.js';
import { readTrajectory } from '../trajectory/index.js';
import { rateDifference } from './benchmark.js';
import type { BenchmarkFile } from './benchmark-file.js';
import { NumberAccumulator, RateAccumulator } from './stats.js';
import { behaviourDifference, behaviourSentences } from './behaviour-words.js';
import { welchFigures } from './behaviour-welch.js';

export type BehaviourSection = NonNullable<BenchmarkFile['behaviour']>;

/** The rates, as benchmark.json names them. */
export const BEHAVIOUR_RATES = ['ran_tests', 'tests_before_last_commit'] as const;
/** The counts a run, as benchmark.json names them. */
export const BEHAVIOUR_COUNTS = [
  'model_calls',
  'tool_calls',
  'shell_commands',
  'files_read',
  'files_edited',
  'files_changed',
  'gh_calls',
] as const;
/** Tools and programs past this many, by how often they were called, are left out. */
const TOP = 8;

class ConditionBehaviour {
  runs = 0;
  readonly rates = new Map<string, RateAccumulator>(
    BEHAVIOUR_RATES.map((m) => [m, new RateAccumulator()]),
  );
  readonly counts = new Map<string, NumberAccumulator>(
    BEHAVIOUR_COUNTS.map((m) => [m, new NumberAccumulator()]),
  );
  readonly each: RunBehaviour[] = [];

  add(b: RunBehaviour, checks: readonly StepCheck[]): void {
    this.runs++;
    // The figures only: the commands and reads are what step checks read, here and now.
    this.each.push({ ...b, commands: [], reads: [] });
    for (const c of checks) {
      let acc = this.rates.get(`step.${c.name}`);
      if (!acc) this.rates.set(`step.${c.name}`, (acc = new RateAccumulator()));
      acc.add(passesStepCheck(c, b));
    }
    this.rates.get('ran_tests')!.add(b.ran_tests);
    this.rates.get('tests_before_last_commit')!.add(b.tests_before_last_commit);
    for (const m of BEHAVIOUR_COUNTS) this.counts.get(m)!.add(b[m]);
  }
}

/** The named counts (tools, programs) most often seen across every condition. */
function topNames(
  groups: readonly ConditionBehaviour[],
  pick: (b: RunBehaviour) => Readonly<Record<string, number>>,
): string[] {
  const total = new Map<string, number>();
  for (const g of groups)
    for (const b of g.each)
      for (const [k, v] of Object.entries(pick(b))) total.set(k, (total.get(k) ?? 0) + v);
  return [...total]
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
    .slice(0, TOP)
    .map(([k]) => k);
}

export class BehaviourAccumulator {
  private readonly byCondition = new Map<string, ConditionBehaviour>();
  private unread = 0;

  constructor(
    conditions: readonly string[],
    private readonly checks: readonly StepCheck[] = [],
  ) {
    for (const c of conditions) this.byCondition.set(c, new ConditionBehaviour());
  }

  /**
   * Reads the run's trajectory. A run the harness failed (or the budget cut) says nothing of
   * its agent and is left out, as from every measure; so is one whose record cannot be read.
   */
  async add(runDir: string, record: RunRecord): Promise<void> {
    if (leftOut(record)) return;
    let behaviour: RunBehaviour;
    try {
      // The agent's own forms say which results were its refusals and which exit codes failed.
      const reading = toolResultForms(record.agent?.package);
      behaviour = runBehaviour(await readTrajectory(runDir), reading);
    } catch {
      this.unread++;
      return;
    }
    if (!behaviour.witnessed) return;
    let group = this.byCondition.get(record.condition);
    if (!group) this.byCondition.set(record.condition, (group = new ConditionBehaviour()));
    group.add(behaviour, this.checks);
  }

  /** benchmark.json's `behaviour`, or undefined when no run's model calls were witnessed. */
  section(baseline: string): BehaviourSection | undefined {
    const groups = [...this.byCondition].filter(([, g]) => g.runs > 0);
    if (groups.length === 0) return undefined;
    const tools = topNames(
      groups.map(([, g]) => g),
      (b) => b.by_tool,
    );
    const programs = topNames(
      groups.map(([, g]) => g),
      (b) => b.by_program,
    );
    const conditions = groups.map(([condition, g]) => {
      const counts: Record<string, ReturnType<NumberAccumulator['stats']>> = {};
      for (const [m, acc] of g.counts) counts[m] = acc.stats();
      for (const [prefix, names, pick] of [
        ['tool.', tools, (b: RunBehaviour) => b.by_tool],
        ['program.', programs, (b: RunBehaviour) => b.by_program],
      ] as const) {
        for (const name of names) {
          const acc = new NumberAccumulator();
          for (const b of g.each) acc.add(pick(b)[name] ?? 0);
          counts[`${prefix}${name}`] = acc.stats();
        }
      }
      const rates: Record<string, ReturnType<RateAccumulator['stats']>> = {};
      for (const [m, acc] of g.rates) rates[m] = acc.stats();
      return { condition, runs: g.runs, rates, counts };
    });
    const base = conditions.find((c) => c.condition === baseline);
    const differences = base
      ? conditions
          .filter((c) => c !== base)
          .flatMap((c) => [
            ...Object.keys(c.rates)
              .filter((m) => base.rates[m])
              .map((m) => {
                const d = rateDifference(base.rates[m]!, c.rates[m]!);
                return behaviourDifference(
                  c.condition,
                  baseline,
                  m,
                  'rate',
                  d.difference,
                  d.ci95,
                  d.p_value,
                  c.rates[m]!.rate,
                  base.rates[m]!.rate,
                );
              }),
            ...Object.keys(c.counts).map((m) => {
              const [o, b] = [c.counts[m]!, base.counts[m]!];
              return behaviourDifference(
                c.condition,
                baseline,
                m,
                'count',
                ...welchFigures(b, o),
                o.mean,
                b.mean,
              );
            }),
          ])
          .filter((d) => d.difference !== null)
      : [];
    return {
      conditions,
      differences,
      sentences: behaviourSentences(differences),
      ...(this.unread > 0 ? { unread: this.unread } : {}),
    };
  }
}
