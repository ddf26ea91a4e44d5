/**
 * Campaigns against a loaded upstream: R runs x T turns of a command-like agent calling its
 * run's model gateway (one gateway per run, as in a campaign), --jobs J at once, against the
 * upstream simulator set to a per-minute request limit with bursts of 529. The agents retry as
 * Claude Code does (retry-after, else backoff; 10 attempts). Containers and the agent binary
 * are left out on purpose: on 2 cores their start-up would dominate, and what is measured is
 * the gateways' sharing of the upstream. Time is compressed: the "minute" is --window ms.
 *
 * Three campaigns in the same run:
 *   alone    each gateway forwards at once (no shared limiter): the agents meet the limit alone;
 *   shared   every gateway takes its turn at one limiter per upstream (evalrig's default);
 *   budget   shared, with --max-cost at half the full cost, then resumed with the full budget.
 *
 * Goals: shared: 0 runs failed, in flight never above the limit, wall time within 1.15x of the
 * floor the limit sets, the tokens counted equal to the tokens served; budget: spending stops
 * at or below the budget, the resume finishes with the totals of an uninterrupted campaign.
 *
 *   node --import tsx scripts/bench/upstream-load.ts [runs=200] [turns=2] [jobs=16] [rpm=60] [window=6000] [burst529=0.01] [shared]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CampaignBudget } from '../../src/campaign/budget.js';
import { RunMeter } from '../../src/campaign/run-meter.js';
import { priceCall } from '../../src/campaign/agent.js';
import { openRunGateway, UpstreamLimiter } from '../../src/gateway/index.js';
import { startUpstreamSimulator, type UpstreamTimeline } from '../../src/model-stand-in/index.js';

const arg = (i: number, d: number): number => Number(process.argv[2 + i] ?? d);
const [RUNS, TURNS, JOBS, RPM, WINDOW] = [
  arg(0, 200),
  arg(1, 2),
  arg(2, 16),
  arg(3, 60),
  arg(4, 6000),
] as const;
const ASK = JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [] });

function post(socketPath: string): Promise<{ status: number; retryAfter: string | undefined }> {
  return new Promise((resolve) => {
    const req = request({ socketPath, path: '/v1/messages', method: 'POST' }, (res) => {
      res.resume();
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string }),
      );
    });
    req.on('error', () => resolve({ status: 0, retryAfter: undefined }));
    req.setHeader('content-type', 'application/json');
    req.end(ASK);
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One call as Claude Code makes it: retried on 429/5xx, 10 attempts. Returns the status. */
async function agentCall(socketPath: string): Promise<number> {
  for (let attempt = 1; ; attempt++) {
    const r = await post(socketPath);
    const retry = r.status === 429 || r.status >= 500 || r.status === 0;
    if (!retry || attempt === 10) return r.status;
    const told = Number(r.retryAfter);
    await sleep(Number.isFinite(told) ? told * 1000 : Math.min(32_000, 500 * 2 ** attempt));
  }
}

interface Outcome {
  readonly status: 'completed' | 'failed' | 'budget_cut';
  readonly tokens: number;
  readonly costUsd: number;
}

/** A run: its own gateway (shared limiter or none), T turns of one call each. */
async function playRun(
  dir: string,
  n: number,
  url: string,
  limiter: UpstreamLimiter | undefined,
  budget: CampaignBudget,
): Promise<Outcome> {
  const meter = new RunMeter({}, budget, priceCall);
  const g = await openRunGateway({
    source: { url, apiKey: 'sk-bench' },
    logPath: path.join(dir, `run-${n}.jsonl`),
    ...(limiter ? { limiter } : {}),
    admit: () => meter.refusal(),
    onCall: (c) => meter.onCall(c),
  });
  // Admitted whole, as a campaign's run is (src/campaign/run/turns.ts).
  const spending = budget.startRun(TURNS);
  try {
    for (let t = 0; t < TURNS; t++) {
      const turn = spending?.startTurn();
      if (!turn) return { status: 'budget_cut', tokens: meter.tokens, costUsd: meter.costUsd };
      const before = meter.costUsd;
      const status = await agentCall(g.socketPath);
      turn.end(meter.costUsd - before);
      if (status === 403)
        return { status: 'budget_cut', tokens: meter.tokens, costUsd: meter.costUsd };
      if (status !== 200) return { status: 'failed', tokens: meter.tokens, costUsd: meter.costUsd };
    }
    return { status: 'completed', tokens: meter.tokens, costUsd: meter.costUsd };
  } finally {
    spending?.end();
    await g.close();
  }
}

/** Plays runs `keys` J at a time; returns each run's outcome by key. */
async function campaign(
  keys: readonly number[],
  url: string,
  limiter: UpstreamLimiter | undefined,
  budget: CampaignBudget,
): Promise<Map<number, Outcome>> {
  const dir = await mkdtemp(path.join(tmpdir(), 'evalrig-load-'));
  const out = new Map<number, Outcome>();
  const queue = [...keys];
  const worker = async () => {
    for (let k = queue.shift(); k !== undefined; k = queue.shift()) {
      out.set(k, await playRun(dir, k, url, limiter, budget));
    }
  };
  await Promise.all(Array.from({ length: JOBS }, worker));
  await rm(dir, { recursive: true, force: true });
  return out;
}

const simOptions = {
  requestsPerMinute: RPM,
  windowMs: WINDOW,
  burst529: { chance: arg(5, 0.01), ms: 500 },
  latencyMs: { min: 20, max: 80 },
  seed: 42,
};
const calls = RUNS * TURNS;
const floorS = ((Math.ceil(calls / RPM) - 1) * WINDOW) / 1000;
const all = Array.from({ length: RUNS }, (_, i) => i + 1);
const count = (m: Map<number, Outcome>, s: Outcome['status']) =>
  [...m.values()].filter((o) => o.status === s).length;
const sum = (m: Map<number, Outcome>, f: (o: Outcome) => number) =>
  [...m.values()].reduce((n, o) => n + f(o), 0);

/**
 * Where the bursts' time went, as the simulator saw it: each burst's length, the calls it
 * refused, and the overshoot (from its end to the next call answered 200). A burst that ends
 * with the window full is left out of the overshoot: no call could go then anyway.
 */
function burstProfile(t: UpstreamTimeline) {
  const ok = t.arrivals.filter((a) => a.status === 200).map((a) => a.at);
  const each = t.bursts.map((b) => {
    const next = ok.find((at) => at >= b.until);
    const inWindow = ok.filter((at) => at > b.until - WINDOW && at <= b.until).length;
    return {
      ms: b.until - b.from,
      refused: t.arrivals.filter((a) => a.status === 529 && a.at >= b.from && a.at < b.until)
        .length,
      overshootMs: next === undefined || inWindow >= RPM ? 0 : next - b.until,
      windowFull: inWindow >= RPM,
    };
  });
  const mean = (f: (e: (typeof each)[number]) => number) =>
    each.length === 0 ? 0 : Math.round(each.reduce((n, e) => n + f(e), 0) / each.length);
  return {
    bursts: each.length,
    burst_ms: mean((e) => e.ms),
    refused_per_burst: Math.round((mean((e) => e.refused * 100) / 100) * 10) / 10,
    bursts_ending_in_a_full_window: each.filter((e) => e.windowFull).length,
    overshoot_ms_mean: Math.round(
      each.filter((e) => !e.windowFull).reduce((n, e) => n + e.overshootMs, 0) /
        Math.max(1, each.filter((e) => !e.windowFull).length),
    ),
    overshoot_ms_max: Math.round(Math.max(0, ...each.map((e) => e.overshootMs))),
  };
}

async function play(name: string, shared: boolean, maxCost?: number) {
  const sim = await startUpstreamSimulator(simOptions);
  const limiter = shared
    ? new UpstreamLimiter({ requestsPerMinute: RPM, windowMs: WINDOW })
    : undefined;
  const budget = new CampaignBudget(maxCost);
  const t0 = performance.now();
  const result = await campaign(all, sim.url, limiter, budget);
  const wallS = (performance.now() - t0) / 1000;
  const served = sim.served();
  const profile = burstProfile(sim.timeline());
  await sim.close();
  const line = {
    campaign: name,
    runs: RUNS,
    failed: count(result, 'failed'),
    budget_cut: count(result, 'budget_cut'),
    wall_s: Math.round(wallS * 10) / 10,
    floor_s: floorS,
    wall_over_floor: Math.round((wallS / floorS) * 100) / 100,
    upstream_429: served.throttled,
    upstream_529: served.overloaded,
    upstream_peak_in_window: served.peakInWindow,
    ...profile,
    tokens_served: served.tokens,
    tokens_counted: sum(result, (o) => o.tokens),
    spent_usd: Math.round(budget.spent() * 1e6) / 1e6,
    limiter: limiter?.snapshot(),
  };
  console.log(JSON.stringify(line));
  return { result, budget, served, sim: simOptions };
}

console.log(`${RUNS} runs x ${TURNS} turns, --jobs ${JOBS}, ${RPM} requests per ${WINDOW} ms`);
// `shared` as the 7th argument plays the shared campaign alone (profiling the limiter).
const ONLY_SHARED = process.argv[8] === 'shared';
if (!ONLY_SHARED) await play('alone', false);
const full = await play('shared', true);
if (ONLY_SHARED) process.exit(0);
const half = full.budget.spent() / 2;
const cut = await play(`budget ${half.toFixed(4)} USD`, true, half);
// The resume: the runs the budget cut, played again with the full budget, which is the
// campaign's: what the cut campaign spent counts against it (as `evalrig run` counts the folder's).
const again = all.filter((k) => cut.result.get(k)!.status !== 'completed');
const sim = await startUpstreamSimulator(simOptions);
const budget = new CampaignBudget(full.budget.spent(), { agent: cut.budget.spent(), judge: 0 });
const limiter = new UpstreamLimiter({ requestsPerMinute: RPM, windowMs: WINDOW });
const resumed = await campaign(again, sim.url, limiter, budget);
await sim.close();
const finished = new Map([...cut.result].filter(([, o]) => o.status === 'completed'));
for (const [k, o] of resumed) finished.set(k, o);
console.log(
  JSON.stringify({
    resume: again.length,
    completed_after_resume: count(finished, 'completed'),
    tokens_of_finished_runs: sum(finished, (o) => o.tokens),
    tokens_uninterrupted: sum(full.result, (o) => o.tokens),
    cost_of_finished_runs: Math.round(sum(finished, (o) => o.costUsd) * 1e6) / 1e6,
    cost_uninterrupted: Math.round(sum(full.result, (o) => o.costUsd) * 1e6) / 1e6,
    spent_by_the_cut_campaign: Math.round(cut.budget.spent() * 1e6) / 1e6,
    spent_by_the_campaign: Math.round(budget.campaignSpent() * 1e6) / 1e6,
    budget: half,
  }),
);
