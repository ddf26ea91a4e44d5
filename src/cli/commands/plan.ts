import type { Command } from 'commander';
// The forecast and the plan alone: the campaign's index would load the Docker clients.
import { forecastLines, pilotPerRun, runsToDetect, statedPerRun } from '../../campaign/forecast.js';
import { planRuns } from '../../campaign/plan.js';
import { loadEvalSet } from '../../config/index.js';
import { InputError } from '../../errors/index.js';

interface PlanFlags {
  from?: string;
  runs?: string;
  jobs: string;
  turnTokens?: string;
  turnCost?: string;
  turnSeconds?: string;
  detect?: string;
  baselineRate: string;
}

function numberOf(flag: string, value: string, min: number): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min)
    throw new InputError(`${flag} must be a number >= ${min}, got "${value}"`);
  return n;
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
    .option('--jobs <n>', 'runs at once', '1')
    .option('--turn-tokens <n>', 'stated tokens per turn (without --from)')
    .option('--turn-cost <usd>', 'stated USD per turn (without --from)')
    .option('--turn-seconds <s>', 'stated seconds per turn (without --from)')
    .option('--detect <points>', 'the difference in a rate to detect, in points (e.g. 20)')
    .option('--baseline-rate <r>', "the baseline's rate for --detect (0 to 1)", '0.5')
    .action(async (file: string, flags: PlanFlags) => {
      const set = await loadEvalSet(file);
      const runs = flags.runs === undefined ? undefined : numberOf('--runs', flags.runs, 1);
      const jobs = numberOf('--jobs', flags.jobs, 1);
      const planned = planRuns(set, { runs });
      const pilot = flags.from ? await pilotPerRun(flags.from) : undefined;
      if (!pilot && flags.turnCost === undefined)
        throw new InputError(
          'give a pilot campaign (--from <dir>) or stated per-turn figures (--turn-cost, --turn-tokens, --turn-seconds)',
        );
      const stated = {
        tokens: numberOf('--turn-tokens', flags.turnTokens ?? '0', 0),
        costUsd: numberOf('--turn-cost', flags.turnCost ?? '0', 0),
        seconds: numberOf('--turn-seconds', flags.turnSeconds ?? '0', 0),
      };
      const turnsOf = (condition: string) =>
        planned.find((p) => p.condition.name === condition)!.eval.turns.length + 1;
      const perRun = (condition: string) =>
        pilot?.get(condition) ?? statedPerRun(turnsOf(condition), stated);
      for (const line of forecastLines(set, planned, perRun, jobs))
        process.stdout.write(`${line}\n`);
      if (flags.detect !== undefined) {
        const points = numberOf('--detect', flags.detect, 1);
        const base = numberOf('--baseline-rate', flags.baselineRate, 0);
        const n = runsToDetect(points / 100, base);
        const evals = new Set(planned.map((p) => p.eval.id)).size;
        if (n === null)
          process.stdout.write(
            `to detect ${points} points from ${base * 100}%: more than 200 runs per condition\n`,
          );
        else {
          const perEval = Math.ceil(n / Math.max(1, evals));
          const more = planRuns(set, { runs: perEval });
          const cost = more.reduce((c, p) => c + perRun(p.condition.name).costUsd, 0);
          process.stdout.write(
            `to detect ${points} points from ${base * 100}% (Fisher's exact test, alpha 0.05, power 0.8): ${n} runs per condition (--runs ${perEval} over ${evals} eval(s)), about ${cost.toFixed(2)} USD\n`,
          );
        }
      }
    });
}
