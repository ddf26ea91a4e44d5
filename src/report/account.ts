import { readFile } from 'node:fs/promises';
import { PRICE_TABLE_VERSION, priceServerTools, priceTokens } from '../agents/index.js';
import type { DeepReadonly, GradingFile, RunLimitName, RunRecord } from '../artifacts/index.js';
import type * as Benchmark from '../artifacts/schemas/benchmark.js';
import { flightFiles, type ReplayedRun } from '../campaign-folder/index.js';

/**
 * The campaign's account in benchmark.json: what its agents and its judge cost (tokens and USD
 * at the price table's list prices), its wall time and the time spent in model calls. Every
 * figure is the host's: the agents' from the runs' witnessed totals, model time from the
 * gateways' logs, the judge's from its calls kept in grading.json.
 */
export type CampaignAccount = NonNullable<DeepReadonly<Benchmark.BenchmarkFile>['account']>;

/** An agent's tokens over a condition's runs. */
export type AccountTokens = CampaignAccount['agent'][number]['tokens'];

interface ConditionSums {
  runs: number;
  requests: number;
  tokens: { input: number; output: number; cache_read: number; cache_write: number };
  cost: number;
  unpriced: number;
  notPlayed: number;
}

/** Running sums of the account as the report streams the runs. */
export class AccountAccumulator {
  private readonly byCondition = new Map<string, ConditionSums>();
  private readonly judge = { calls: 0, input: 0, output: 0, cost: 0, unpriced: 0 };
  private first = Infinity;
  private last = -Infinity;
  private modelMs = 0;
  private queuedMs = 0;
  private readonly serverTools = { webSearch: 0, webFetch: 0 };
  private readonly limits: Partial<Record<RunLimitName, number>> = {};
  private reused = 0;
  private readonly replayed = { runs: 0, requests: 0, cost: 0 };

  /**
   * Adds a run's figures (and reads its gateway log's latencies). A run copied from an earlier
   * campaign is only counted: what it cost, and when it played, are that campaign's.
   */
  async add(runDir: string, record: RunRecord): Promise<void> {
    if (record.reused_from) {
      this.reused++;
      return;
    }
    this.first = Math.min(this.first, Date.parse(record.started_at));
    this.last = Math.max(this.last, Date.parse(record.finished_at));
    if (record.limit) this.limits[record.limit] = (this.limits[record.limit] ?? 0) + 1;
    let c = this.byCondition.get(record.condition);
    if (!c) {
      c = { runs: 0, requests: 0, tokens: zeroTokens(), cost: 0, unpriced: 0, notPlayed: 0 };
      this.byCondition.set(record.condition, c);
    }
    c.runs++;
    const totals = record.agent?.totals;
    // Kept from playing by the budget: no call was made, so there is nothing to price.
    if (record.limit === 'campaign_cost' && !(totals && totals.model_requests > 0)) {
      if (record.turns_completed === 0) c.notPlayed++;
      return;
    }
    if (!totals) return;
    c.requests += totals.model_requests;
    for (const k of ['input', 'output', 'cache_read', 'cache_write'] as const) {
      c.tokens[k] += totals.tokens[k];
    }
    if (totals.cost_usd === null) c.unpriced++;
    else c.cost += totals.cost_usd;
    await this.addLatencies(runDir);
  }

  private async addLatencies(runDir: string): Promise<void> {
    const text = await readFile(flightFiles(runDir).calls, 'utf8').catch(() => '');
    for (const line of text.split('\n')) {
      if (line === '') continue;
      try {
        const call = JSON.parse(line) as {
          latencyMs?: unknown;
          queuedMs?: unknown;
          serverTools?: { webSearch?: unknown; webFetch?: unknown };
        };
        const latency = typeof call.latencyMs === 'number' ? call.latencyMs : 0;
        const queued = typeof call.queuedMs === 'number' ? call.queuedMs : 0;
        this.modelMs += Math.max(0, latency - queued);
        this.queuedMs += queued;
        const tools = call.serverTools;
        if (typeof tools?.webSearch === 'number') this.serverTools.webSearch += tools.webSearch;
        if (typeof tools?.webFetch === 'number') this.serverTools.webFetch += tools.webFetch;
      } catch {
        // A torn last line (a run cut mid-write) adds nothing.
      }
    }
  }

  /**
   * Adds what runs played over spent in their earlier plays (their calls set aside under
   * replaced/): counted in the total, said apart.
   */
  addReplayed(runs: readonly ReplayedRun[]): void {
    for (const run of runs) {
      const calls = run.calls.filter((c) => c.outcome !== 'refused');
      if (calls.length === 0) continue;
      this.replayed.runs++;
      this.replayed.requests += calls.length;
      for (const call of calls) this.replayed.cost += priceLogged(call) ?? 0;
    }
  }

  /** Adds the judge's calls of one grading. */
  addGrading(g: GradingFile): void {
    for (const call of g.calls) {
      const input = call.input_tokens ?? 0;
      const output = call.output_tokens ?? 0;
      this.judge.calls++;
      this.judge.input += input;
      this.judge.output += output;
      const cost = priceTokens(g.judge.model, { input, output, cacheRead: 0 });
      if (cost === null) this.judge.unpriced++;
      else this.judge.cost += cost;
    }
  }

  /** The server tools' requests and fees (in the agents' cost already), when any was made. */
  private serverToolsAccount(): Pick<CampaignAccount, 'server_tools'> {
    const t = this.serverTools;
    if (t.webSearch === 0 && t.webFetch === 0) return {};
    return {
      server_tools: {
        web_search_requests: t.webSearch,
        web_fetch_requests: t.webFetch,
        cost_usd: priceServerTools(t),
      },
    };
  }

  account(): CampaignAccount {
    const agent = [...this.byCondition].map(([condition, c]) => ({
      condition,
      runs: c.runs,
      model_requests: c.requests,
      tokens: c.tokens,
      cost_usd: round(c.cost),
      unpriced_runs: c.unpriced,
      ...(c.notPlayed > 0 ? { not_played: c.notPlayed } : {}),
    }));
    const r = this.replayed;
    const replayed =
      r.runs > 0
        ? { replayed: { runs: r.runs, model_requests: r.requests, cost_usd: round(r.cost) } }
        : {};
    const agentCost = agent.reduce((n, a) => n + a.cost_usd, 0);
    const j = this.judge;
    return {
      ...(this.reused > 0 ? { reused_runs: this.reused } : {}),
      price_table: PRICE_TABLE_VERSION,
      prices: 'list',
      agent,
      judge: {
        calls: j.calls,
        tokens: { input: j.input, output: j.output },
        cost_usd: round(j.cost),
        unpriced_calls: j.unpriced,
      },
      total_cost_usd: round(agentCost + j.cost + r.cost),
      ...replayed,
      wall_time_s: Number.isFinite(this.first) ? round((this.last - this.first) / 1000, 1) : 0,
      model_time_s: round(this.modelMs / 1000, 1),
      queued_time_s: round(this.queuedMs / 1000, 1),
      ...this.serverToolsAccount(),
      limit_reached: { ...this.limits },
    };
  }
}

/** A logged call's cost at list prices (null: a model the price table does not know). */
function priceLogged(call: ReplayedRun['calls'][number]): number | null {
  if (call.model === null) return null;
  const t = call.tokens;
  const priced = priceTokens(call.model, {
    input: t.input ?? 0,
    output: t.output ?? 0,
    cacheRead: t.cacheRead ?? 0,
    cacheWrite: t.cacheWrite ?? 0,
  });
  return priced === null ? null : priced + priceServerTools(call.serverTools);
}

function zeroTokens(): ConditionSums['tokens'] {
  return { input: 0, output: 0, cache_read: 0, cache_write: 0 };
}

function round(n: number, places = 6): number {
  const f = 10 ** places;
  return Math.round(n * f) / f;
}

/** What a condition's account line says of its runs apart: those not played, those not priced. */
function runNotes(c: CampaignAccount['agent'][number]): string {
  const notes = [
    c.not_played ? `${c.not_played} not played` : '',
    c.unpriced_runs ? `${c.unpriced_runs} unpriced` : '',
  ].filter((n) => n !== '');
  return notes.length > 0 ? ` (${notes.join(', ')})` : '';
}

/** The account in a few lines: for the report's first screen and the CLI's summary. */
export function accountLines(a: CampaignAccount): string[] {
  const usd = (n: number) => `${n.toFixed(2)} USD`;
  const tokens = (t: AccountTokens) => t.input + t.output + t.cache_read + t.cache_write;
  const lines = a.agent.map(
    (c) =>
      `agent, ${c.condition}: ${tokens(c.tokens).toLocaleString('en-US')} tokens, ${usd(c.cost_usd)} over ${c.runs} run(s)${runNotes(c)}`,
  );
  if (a.replayed) {
    lines.push(
      `replayed: ${usd(a.replayed.cost_usd)} spent again on ${a.replayed.runs} replayed run${a.replayed.runs === 1 ? '' : 's'} (what their earlier plays, cut or failed, cost; in the total)`,
    );
  }
  if (a.judge.calls > 0) {
    const t = a.judge.tokens.input + a.judge.tokens.output;
    lines.push(
      `judge: ${t.toLocaleString('en-US')} tokens, ${usd(a.judge.cost_usd)} over ${a.judge.calls} call(s)`,
    );
  }
  const tools = a.server_tools;
  if (tools) {
    lines.push(
      `of which server tools: ${tools.web_search_requests} web search(es), ${tools.web_fetch_requests} web fetch(es), ${usd(tools.cost_usd)}`,
    );
  }
  lines.push(
    `total: ${usd(a.total_cost_usd)} at list prices (price table ${a.price_table}); wall time ${a.wall_time_s} s, model time ${a.model_time_s} s, queued behind rate limits ${a.queued_time_s} s`,
  );
  if (a.reused_runs)
    lines.push(
      `reused: ${a.reused_runs} run(s) copied from earlier campaigns, their cost and time not counted here`,
    );
  const limits = Object.entries(a.limit_reached);
  if (limits.length > 0) {
    lines.push(`runs that reached a limit: ${limits.map(([k, n]) => `${k} ${n}`).join(', ')}`);
  }
  return lines;
}
