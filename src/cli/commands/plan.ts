import type { Command } from 'commander';
// The forecast and the plan alone: the campaign's index would load the Docker clients.
import {
  forecast,
  forecastLines,
  readPilot,
  runsToDetect,
  statedPerRun,
  type PerRun,
} from '../../campaign/forecast.js';
import { planRuns, type PlannedRun } from '../../campaign/plan.js';
import { loadEvalSet, type EvalSet } from '../../config/index.js';
import { InputError } from '../../errors/index.js';
import { sequentialForecast, sequentialForecastLines } from './plan-sequential.js';

interface PlanFlags {
  from?: string;
  runs?: string;
  only?: string[];
  condition?: string[];
  jobs: string;
  turnTokens?: string;
  turnCost?: string;
  turnSeconds?: string;
  detect?: string;
  baselineRate: string;
  json?: boolean;
  untilDecided?: boolean;
  maxRuns?: string;
}

function numberOf(flag: string, value: string, min: number): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min)
    throw new InputError(`${flag} must be a number >= ${min}, got "${value}"`);
  return n;
}

function ids(value: string, previous: string[] = []): string[] {
  return [...previous, ...value.split(',').flatMap((s) => (s.trim() ? [s.trim()] : []))];
}

/**
 * `evalrig plan <evals.json>`: runs and turns to play, their expected tokens, cost and wall
 * time (from a pilot campaign's benchmark.json, or stated per-turn figures), and the runs per
 * condition needed to detect a difference. Starts nothing.
 */
export function registerPlan(program: Command): void {
  program
    .command('plan')
    .description(
      'what a campaign will take, before anything starts: runs, turns, tokens, cost, wall time, and the runs a difference needs',
    )
    .argument('<evals.json>', 'the eval set file')
    .option('--from <dir>', 'a finished pilot campaign: its per-run figures, per condition')
    .option('--runs <n>', 'runs per (eval, condition), overriding the eval set')
    .option('--only <ids>', 'only these eval ids (comma-separated), as run takes them', ids)
    .option('--condition <names>', 'only these conditions (comma-separated)', ids)
    .option('--jobs <n>', 'runs at once', '1')
    .option('--turn-tokens <n>', 'stated tokens per turn (without --from)')
    .option('--turn-cost <usd>', 'stated USD per turn (without --from)')
    .option('--turn-seconds <s>', 'stated seconds per turn (without --from)')
    .option('--detect <points>', 'the difference in a rate to detect, in points (e.g. 20)')
    .option('--baseline-rate <r>', "the baseline's rate for --detect (0 to 1)", '0.5')
    .option(
      '--until-decided',
      "the sequential design of evalrig run --until-decided: expected and worst-case runs and cost, its power at the eval set's min_effect",
    )
    .option('--max-runs <n>', 'with --until-decided: at most this many runs per (eval, condition)')
    .option('--json', 'print the forecast as JSON')
    .action(async (file: string, flags: PlanFlags) => {
      const set = await loadEvalSet(file);
      if (flags.maxRuns !== undefined && !flags.untilDecided)
        throw new InputError(
          '--max-runs is the most --until-decided may play: give --until-decided too',
        );
      if (flags.untilDecided && flags.runs !== undefined)
        throw new InputError(
          '--runs and --until-decided conflict: give the maximum with --max-runs',
        );
      const given = flags.untilDecided ? flags.maxRuns : flags.runs;
      const runs =
        given === undefined
          ? undefined
          : numberOf(flags.untilDecided ? '--max-runs' : '--runs', given, 1);
      const jobs = numberOf('--jobs', flags.jobs, 1);
      const planned = planRuns(set, { runs, only: flags.only, conditions: flags.condition });
      const perRun = await perRunOf(flags);
      const f = forecast(set, planned, perRun, jobs);
      const sequential = flags.untilDecided ? sequentialForecast(set, planned, f) : undefined;
      if (flags.json)
        process.stdout.write(`${JSON.stringify(sequential ? { ...f, sequential } : f, null, 2)}\n`);
      else for (const line of forecastLines(f)) process.stdout.write(`${line}\n`);
      if (sequential && !flags.json)
        for (const line of sequentialForecastLines(sequential)) process.stdout.write(`${line}\n`);
      if (flags.detect !== undefined && !flags.json) detectLine(set, flags, perRun);
    });
}

/**
 * Why the plan has no figures, saying which are missing: a stated turn needs its cost
 * (`--turn-cost`); tokens and seconds count 0 when left out. `--turn-seconds 60` alone read
 * as if one figure were enough.
 */
export function missingFigures(flags: Pick<PlanFlags, 'turnTokens' | 'turnSeconds'>): string {
  const given = [
    ...(flags.turnTokens === undefined ? [] : [`--turn-tokens ${flags.turnTokens}`]),
    ...(flags.turnSeconds === undefined ? [] : [`--turn-seconds ${flags.turnSeconds}`]),
  ];
  if (given.length === 0)
    return 'give a pilot campaign (--from <dir>) or stated per-turn figures: --turn-cost <usd> (needed), with --turn-tokens <n> and --turn-seconds <s> (0 when left out)';
  return `${given.join(' and ')} alone is not a forecast: stated per-turn figures need --turn-cost <usd> too (the USD one turn costs; ${flags.turnTokens === undefined ? '--turn-tokens counts 0 when left out; ' : ''}${flags.turnSeconds === undefined ? '--turn-seconds counts 0 when left out; ' : ''}or give a pilot campaign with --from <dir>)`;
}

/** Each planned run's figures: the pilot's where it played them, else the stated ones. */
async function perRunOf(flags: PlanFlags): Promise<(run: PlannedRun) => PerRun> {
  const pilot = flags.from ? await readPilot(flags.from) : undefined;
  const stated =
    flags.turnCost === undefined
      ? undefined
      : {
          tokens: numberOf('--turn-tokens', flags.turnTokens ?? '0', 0),
          costUsd: numberOf('--turn-cost', flags.turnCost, 0),
          seconds: numberOf('--turn-seconds', flags.turnSeconds ?? '0', 0),
        };
  if (!pilot && !stated) throw new InputError(missingFigures(flags));
  return (p) => {
    const found = pilot?.perRun(p.eval.id, p.condition.name);
    if (found) return found;
    if (!stated)
      throw new InputError(
        `--from ${flags.from}: the pilot has no measured run of condition "${p.condition.name}"; state per-turn figures (--turn-cost) for it`,
      );
    return statedPerRun(p.eval.turns.length + 1, stated);
  };
}

/** The runs per condition a difference needs, and what that many runs would cost. */
function detectLine(set: EvalSet, flags: PlanFlags, perRun: (run: PlannedRun) => PerRun): void {
  const points = numberOf('--detect', flags.detect!, 1);
  const base = numberOf('--baseline-rate', flags.baselineRate, 0);
  const n = runsToDetect(points / 100, base);
  const evals = new Set(set.evals.map((e) => e.id)).size;
  if (n === null) {
    process.stdout.write(
      `to detect ${points} points from ${base * 100}%: more than 200 runs per condition\n`,
    );
    return;
  }
  const perEval = Math.ceil(n / Math.max(1, evals));
  const cost = planRuns(set, { runs: perEval }).reduce((c, p) => c + perRun(p).costUsd, 0);
  process.stdout.write(
    `to detect ${points} points from ${base * 100}% (Fisher's exact test, alpha 0.05, power 0.8): ${n} runs per condition (--runs ${perEval} over ${evals} eval(s)), about ${cost.toFixed(2)} USD\n`,
  );
}
