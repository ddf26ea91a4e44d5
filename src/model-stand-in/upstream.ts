import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listen } from '../host-server/index.js';
import { apiError, apiMessage, sseFrames } from './anthropic.js';
import type { ScriptMessage } from './script.js';
import { seededUniform as seeded } from '../seeded/index.js';

/**
 * An upstream simulator: the model stand-in as a loaded real Messages API, for load tests and
 * a first real campaign's dry run. Every request gets the same answer (`answer`), unless the
 * simulator's limits say otherwise: per-minute requests and tokens answered 429 with
 * `retry-after` and Anthropic's rate-limit headers, bursts of 529 (overloaded), latency drawn
 * from a range, and streams that stall mid-way; all drawn from `seed`, so a run repeats.
 *
 * ```ts
 * const sim = await startUpstreamSimulator({ requestsPerMinute: 60, burst529: { chance: 0.02, ms: 2000 } });
 * // agent.model: { url: sim.url, key_env: 'SIM_KEY' } … then:
 * sim.served(); // { requests, tokens, throttled, overloaded, peakInFlight }
 * await sim.close();
 * ```
 */
export interface UpstreamSimulatorOptions {
  readonly requestsPerMinute?: number;
  readonly tokensPerMinute?: number;
  /** Requests at once past which a 429 answers (Anthropic limits concurrency too). */
  readonly maxInFlight?: number;
  /**
   * Each request starts a burst of 529s with this chance, lasting `ms` (no retry-after in it);
   * `atRequest` (1-based) starts one at that request whatever the dice say (a test's burst).
   * A refused request is not counted in the per-minute window, and the rate-limit headers of
   * the refusal say so (its `remaining` is what it was before).
   */
  readonly burst529?: { readonly chance: number; readonly ms: number; readonly atRequest?: number };
  /** Time to the first byte, drawn uniformly from [min, max] ms. */
  readonly latencyMs?: { readonly min: number; readonly max: number };
  /** A stream stalls after its first event for `ms`, with this chance. */
  readonly stall?: { readonly chance: number; readonly ms: number };
  /** The answer to every request (default: a short text, 1000 tokens in, 50 out). */
  readonly answer?: ScriptMessage;
  readonly seed?: number;
  /** The window the per-minute limits count in (default 60 000 ms; a load test shrinks time). */
  readonly windowMs?: number;
}

/** What the simulator served: the truth a campaign's figures are checked against. */
export interface UpstreamServed {
  /** Answered 200. */
  readonly requests: number;
  /** Tokens billed in those answers (input, output, cache reads and writes). */
  readonly tokens: number;
  /** Answered 429 (a limit), 529 (a burst). */
  readonly throttled: number;
  readonly overloaded: number;
  readonly peakInFlight: number;
  /** The API keys the requests carried (x-api-key): what reached the upstream. */
  readonly keys: readonly string[];
  /** Most requests in any one window (`windowMs`) that it counted (answered 200). */
  readonly peakInWindow: number;
}

/** When requests arrived and bursts ran (performance.now() ms), for a load test's profile. */
export interface UpstreamTimeline {
  readonly arrivals: readonly { readonly at: number; readonly status: number }[];
  readonly bursts: readonly { readonly from: number; readonly until: number }[];
}

export interface UpstreamSimulator {
  readonly url: string;
  served(): UpstreamServed;
  /** The first {@link TIMELINE_CAP} arrivals and bursts. */
  timeline(): UpstreamTimeline;
  close(): Promise<void>;
}

const MINUTE_MS = 60_000;
export const TIMELINE_CAP = 100_000;
const DEFAULT_ANSWER: ScriptMessage = {
  content: [{ text: 'done' }],
  usage: { input_tokens: 1000, output_tokens: 50 },
};

interface SimState {
  readonly o: UpstreamSimulatorOptions;
  readonly random: () => number;
  readonly answer: ScriptMessage;
  readonly answerTokens: number;
  starts: number[];
  billed: { at: number; tokens: number }[];
  burstUntil: number;
  inFlight: number;
  /** Requests that arrived, refused or not (the 1-based count `atRequest` is matched against). */
  arrived: number;
  served: {
    requests: number;
    tokens: number;
    throttled: number;
    overloaded: number;
    peak: number;
    peakInWindow: number;
  };
  readonly keys: Set<string>;
  readonly timeline: {
    arrivals: { at: number; status: number }[];
    bursts: { from: number; until: number }[];
  };
}

export async function startUpstreamSimulator(
  options: UpstreamSimulatorOptions = {},
): Promise<UpstreamSimulator> {
  const answer = options.answer ?? DEFAULT_ANSWER;
  const u = answer.usage ?? {};
  const s: SimState = {
    o: options,
    random: seeded(options.seed ?? 1),
    answer,
    answerTokens:
      (u.input_tokens ?? 0) +
      (u.output_tokens ?? 0) +
      (u.cache_read_input_tokens ?? 0) +
      (u.cache_creation_input_tokens ?? 0),
    starts: [],
    billed: [],
    burstUntil: 0,
    inFlight: 0,
    arrived: 0,
    served: { requests: 0, tokens: 0, throttled: 0, overloaded: 0, peak: 0, peakInWindow: 0 },
    keys: new Set(),
    timeline: { arrivals: [], bursts: [] },
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    req.on('data', (c: Buffer) => {
      bytes += c.length;
      if (bytes <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () => {
      const body = readRequest(Buffer.concat(chunks).toString('utf8'));
      void handle(s, req, res, body).catch(() => res.destroy());
    });
  });
  const listening = await listen(server, { what: 'upstream simulator', where: { port: 0 } });
  return {
    url: listening.url,
    served: () => {
      const v = s.served;
      return {
        requests: v.requests,
        tokens: v.tokens,
        throttled: v.throttled,
        overloaded: v.overloaded,
        peakInFlight: v.peak,
        keys: [...s.keys],
        peakInWindow: v.peakInWindow,
      };
    },
    timeline: () => ({
      arrivals: [...s.timeline.arrivals],
      bursts: [...s.timeline.bursts],
    }),
    close: () => listening.close(),
  };
}

/** The limits' headers, as Anthropic sends them on every answer. */
function limitHeaders(s: SimState, now: number): Record<string, string> {
  const h: Record<string, string> = {};
  const reset = (since: number | undefined) =>
    new Date(
      Date.now() + Math.max(0, (since ?? now) + (s.o.windowMs ?? MINUTE_MS) - now),
    ).toISOString();
  if (s.o.requestsPerMinute !== undefined) {
    h['anthropic-ratelimit-requests-limit'] = String(s.o.requestsPerMinute);
    h['anthropic-ratelimit-requests-remaining'] = String(
      Math.max(0, s.o.requestsPerMinute - s.starts.length),
    );
    h['anthropic-ratelimit-requests-reset'] = reset(s.starts[0]);
  }
  if (s.o.tokensPerMinute !== undefined) {
    const used = s.billed.reduce((n, b) => n + b.tokens, 0);
    h['anthropic-ratelimit-tokens-limit'] = String(s.o.tokensPerMinute);
    h['anthropic-ratelimit-tokens-remaining'] = String(Math.max(0, s.o.tokensPerMinute - used));
    h['anthropic-ratelimit-tokens-reset'] = reset(s.billed[0]?.at);
  }
  return h;
}

/** Why the request is refused now (a 429 or 529 and its wait in seconds), or null. */
function refusal(s: SimState, now: number): { status: 429 | 529; wait?: number } | null {
  s.starts = s.starts.filter((t) => t > now - (s.o.windowMs ?? MINUTE_MS));
  s.billed = s.billed.filter((b) => b.at > now - (s.o.windowMs ?? MINUTE_MS));
  if (s.burstUntil > now) return { status: 529 };
  const b = s.o.burst529;
  // The dice are thrown for every request (a scripted burst keeps the seeded sequence).
  if (b && (s.random() < b.chance || b.atRequest === s.arrived)) {
    s.burstUntil = now + b.ms;
    if (s.timeline.bursts.length < TIMELINE_CAP) {
      s.timeline.bursts.push({ from: now, until: s.burstUntil });
    }
    return { status: 529 };
  }
  const waitFor = (since: number) =>
    Math.max(1, Math.ceil((since + (s.o.windowMs ?? MINUTE_MS) - now) / 1000));
  const rpm = s.o.requestsPerMinute;
  if (rpm !== undefined && s.starts.length >= rpm) {
    return { status: 429, wait: waitFor(s.starts[s.starts.length - rpm]!) };
  }
  const tpm = s.o.tokensPerMinute;
  const used = s.billed.reduce((n, b) => n + b.tokens, 0);
  if (tpm !== undefined && used >= tpm) return { status: 429, wait: waitFor(s.billed[0]!.at) };
  if (s.o.maxInFlight !== undefined && s.inFlight >= s.o.maxInFlight)
    return { status: 429, wait: 1 };
  return null;
}

const MAX_BODY = 32 * 1024 * 1024;

/** What the simulator reads of a request: the model it names and whether it asks a stream. */
interface SimRequest {
  readonly model: string;
  readonly stream: boolean;
}

function readRequest(text: string): SimRequest {
  try {
    const v = JSON.parse(text) as { model?: unknown; stream?: unknown };
    return {
      model: typeof v.model === 'string' ? v.model.slice(0, 100) : 'claude-sonnet-4-5',
      stream: v.stream === true,
    };
  } catch {
    return { model: 'claude-sonnet-4-5', stream: false };
  }
}

async function handle(
  s: SimState,
  req: IncomingMessage,
  res: ServerResponse,
  body: SimRequest,
): Promise<void> {
  const key = req.headers['x-api-key'];
  if (typeof key === 'string') s.keys.add(key);
  const now = performance.now();
  s.arrived++;
  const no = refusal(s, now);
  if (s.timeline.arrivals.length < TIMELINE_CAP) {
    s.timeline.arrivals.push({ at: now, status: no?.status ?? 200 });
  }
  if (no) {
    const e = apiError({
      status: no.status,
      ...(no.wait === undefined ? {} : { retry_after: no.wait }),
    });
    if (no.status === 429) s.served.throttled++;
    else s.served.overloaded++;
    res.writeHead(e.status, { ...e.headers, ...limitHeaders(s, now) });
    res.end(e.body);
    return;
  }
  s.starts.push(now);
  s.served.peakInWindow = Math.max(s.served.peakInWindow, s.starts.length);
  s.inFlight++;
  s.served.peak = Math.max(s.served.peak, s.inFlight);
  try {
    await answer(s, body, res, now);
  } finally {
    s.inFlight--;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Plays the answer after its latency, streamed (maybe stalling) when the client asked. */
async function answer(
  s: SimState,
  req: SimRequest,
  res: ServerResponse,
  now: number,
): Promise<void> {
  const lat = s.o.latencyMs;
  if (lat) await sleep(lat.min + s.random() * (lat.max - lat.min));
  const n = s.served.requests + 1;
  const message = apiMessage(s.answer, req.model, n);
  const headers = limitHeaders(s, now);
  s.served.requests++;
  s.served.tokens += s.answerTokens;
  s.billed.push({ at: performance.now(), tokens: s.answerTokens });
  if (!req.stream) {
    res.writeHead(200, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(message));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', ...headers });
  const stall = s.o.stall && s.random() < s.o.stall.chance ? s.o.stall.ms : 0;
  for (const [i, frame] of sseFrames(message).entries()) {
    res.write(frame);
    if (i === 0 && stall > 0) await sleep(stall);
  }
  res.end();
}
