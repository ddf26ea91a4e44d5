/**
 * `evalrig plan --from <pilot>` checked against the campaign it plans: a finished real-agent
 * campaign is the pilot, the planned campaign is played after it, and what that campaign's
 * account says it cost must fall within the error the plan stated.
 */
import { expect } from 'chai';
import path from 'node:path';
import { execa } from 'execa';
import type { Forecast } from '../../src/campaign/index.js';
import type { BenchmarkFile } from '../../src/report/index.js';
import type { AdapterCampaign } from './adapter-campaign.js';
import { readJson } from './campaign.js';

export interface PlannedCampaign {
  /** The evals of the pilot's eval set to play (`--only`). */
  readonly only: readonly string[];
  /** Runs per (eval, condition) and runs at once. */
  readonly runs: number;
  readonly jobs: number;
  /** The environment the pilot played with (an upstream's key). */
  readonly env?: Record<string, string>;
}

const cli = (args: readonly string[], env?: Record<string, string>) =>
  execa('node', ['--import', 'tsx', 'src/cli/main.ts', ...args], {
    reject: false,
    ...(env ? { env } : {}),
  });

/**
 * Plans a campaign from the pilot's folder, plays it, and checks its cost and tokens against
 * the plan. Returns the forecast and the played campaign's account.
 */
export async function expectPlanHolds(
  pilot: AdapterCampaign,
  planned: PlannedCampaign,
): Promise<{ forecast: Forecast; account: NonNullable<BenchmarkFile['account']> }> {
  const { ws } = pilot;
  const select = ['--only', planned.only.join(','), '--runs', String(planned.runs)];
  const jobs = ['--jobs', String(planned.jobs)];
  const plan = [ws.evalSetFile, '--from', ws.outDir, ...select, ...jobs];
  const said = await cli(['plan', ...plan, '--json']);
  expect(said.exitCode, said.stderr).to.equal(0);
  const forecast = JSON.parse(said.stdout) as Forecast;
  expect(forecast.runs).to.equal(planned.only.length * planned.runs);
  // The pilot's runs differ, so the plan states an error, and one that is not zero.
  expect(forecast.no_error).to.equal(undefined);
  expect(forecast.cost_usd.error).to.be.greaterThan(0);
  expect(forecast.tokens.error).to.be.greaterThan(0);
  const text = await cli(['plan', ...plan]);
  expect(text.stdout).to.match(/ ± [\d.]+ USD at list prices/u);

  const out = path.join(ws.root, 'planned');
  const run = await cli(['run', ws.evalSetFile, '--out', out, ...select, ...jobs], planned.env);
  expect(run.exitCode, run.stderr).to.equal(0);
  const bench = await readJson<BenchmarkFile>(path.join(out, 'benchmark.json'));
  const account = bench.account!;
  const [agent] = account.agent;
  expect(agent!.runs).to.equal(forecast.runs);
  const t = agent!.tokens;
  const tokens = t.input + t.output + t.cache_read + t.cache_write;
  const within = (actual: number, e: Forecast['tokens'], what: string) =>
    expect(
      Math.abs(actual - e.expected),
      `${what}: ${actual} against ${JSON.stringify(e)}`,
    ).to.be.at.most(e.error! + 1e-9);
  within(agent!.cost_usd, forecast.cost_usd, 'cost (USD)');
  within(tokens, forecast.tokens, 'tokens');
  return { forecast, account };
}
