/**
 * The real Claude Code binary through a limited campaign: three runs at --jobs 3 call the
 * upstream simulator (a loaded Messages API: a low per-minute limit, a 529 burst from the first
 * request, 5 s per answer) through their gateways, which share one limiter holding one call in
 * flight. The runs queue behind the burst and behind each other; the queue is theirs, not
 * their turns': a turn whose wall time passes its time-out by less than its queued time ends.
 */
import { expect } from 'chai';
import path from 'node:path';
import type { RunRecord, StopRecord } from '../../src/artifacts/index.js';
import type { ModelCall } from '../../src/gateway/index.js';
import { startUpstreamSimulator, type UpstreamSimulator } from '../../src/model-stand-in/index.js';
import { readJson, readJsonLines } from '../support/campaign.js';
import { requireDocker } from '../support/docker.js';
import { evalrigRun, makeToyWorkspace, type CliRun, type ToyWorkspace } from '../support/toy.js';
import { claudeCodeKeyedTo, E2E_KEY, E2E_KEY_ENV } from '../support/witness-evals.js';

const RUNS = ['a', 'b', 'c'];
/** Each run makes one call (Claude Code 2.1.332 on a text answer): five leave room. */
const RPM = 5;
const LATENCY_MS = 5000;
const BURST_MS = 4000;
/**
 * Above what a turn costs itself (start-up, its own retry sleeps, one 5 s answer: 9-10 s at
 * load 9 on 2 cores), below that plus what the last run in line queues (23 s in all there).
 */
const TURN_TIMEOUT_S = 18;
/** Claude Code retries a refused call 10 times: a run needing more would fail. */
const CLAUDE_CODE_RETRIES = 10;

interface Played {
  readonly record: RunRecord;
  readonly stop: StopRecord;
  readonly calls: ModelCall[];
  readonly turnMs: number;
}

describe('e2e: the real Claude Code through a limited campaign (upstream simulator)', function () {
  this.timeout(600_000);
  let sim: UpstreamSimulator;
  let ws: ToyWorkspace;
  let run: CliRun;
  const played = new Map<string, Played>();

  before(requireDocker);
  before(async () => {
    sim = await startUpstreamSimulator({
      requestsPerMinute: RPM,
      latencyMs: { min: LATENCY_MS, max: LATENCY_MS },
      burst529: { chance: 0, ms: BURST_MS, atRequest: 1 },
    });
    ws = await makeToyWorkspace({
      scripts: {},
      set: {
        agent: claudeCodeKeyedTo(sim.url),
        rate_limits: { max_in_flight: 1, requests_per_minute: RPM },
        turn_timeout: TURN_TIMEOUT_S,
        evals: RUNS.map((id) => ({ id, prompt: 'Say done.' })),
      },
    });
    run = await evalrigRun(ws, { [E2E_KEY_ENV]: E2E_KEY }, ['--jobs', String(RUNS.length)]);
    for (const id of RUNS) {
      const dir = path.join(ws.outDir, 'runs', id, 'default/run-01');
      const record = await readJson<RunRecord>(path.join(dir, 'run.json'));
      const [stop] = await Promise.all(
        record.stops.map((s) => readJson<StopRecord>(path.join(dir, s))),
      );
      const calls = await readJsonLines<ModelCall>(path.join(dir, 'model-calls.jsonl'));
      const turnMs = record.phases?.find((p) => p.name === 'turn 1')?.ms ?? 0;
      played.set(id, { record, stop: stop!, calls, turnMs });
    }
  });
  after(async () => {
    await sim?.close();
    await ws?.cleanup();
  });

  it('no run fails or times out for the throttling', () => {
    expect(run.exitCode, run.stderr).to.equal(0);
    for (const [id, p] of played) {
      expect(p.record, `${id}: ${run.stderr}`).to.include({ status: 'completed' });
      expect(p.calls.at(-1)).to.include({ status: 200, outcome: 'complete' });
    }
  });

  it('the upstream never saw more than the limits: one call in flight, five in its window, no 429', () => {
    expect(sim.served()).to.deep.include({
      requests: RUNS.length,
      throttled: 0,
      peakInFlight: 1,
    });
    expect(sim.served().peakInWindow).to.be.at.most(RPM);
    expect(sim.served().overloaded).to.be.greaterThan(0);
  });

  it("records each turn's queued time, and does not charge it to the turn's time-out", () => {
    for (const [id, p] of played) {
      // One call at a time per run: the turn's queued time is its calls'.
      const summed = p.calls.reduce((n, c) => n + (c.queuedMs ?? 0), 0);
      expect(p.stop.agent!.queued_ms, id).to.be.closeTo(summed, 50);
    }
    // The runs waited behind the burst and behind each other's 5 s answers.
    const last = [...played.values()].sort((x, y) => y.turnMs - x.turnMs)[0]!;
    expect(last.stop.agent!.queued_ms).to.be.greaterThan(LATENCY_MS);
    // Its turn took longer than its time-out, by less than the time it queued: not cut.
    expect(last.turnMs).to.be.greaterThan(TURN_TIMEOUT_S * 1000);
    expect(last.turnMs - last.stop.agent!.queued_ms!).to.be.below(TURN_TIMEOUT_S * 1000);
  });

  it('the agents retried on their own only the refusals the limiter let through (the host counts them)', () => {
    let refused = 0;
    for (const [id, p] of played) {
      const own = p.calls.filter((c) => c.status === 529).length;
      refused += own;
      expect(p.stop.agent!.api_retries, id).to.equal(own);
      expect(own, id).to.be.below(CLAUDE_CODE_RETRIES / 2);
    }
    // What the hosts recorded is what the upstream refused: no call went around the gateway.
    expect(refused).to.equal(sim.served().overloaded);
    // The calls in flight when the burst began, then one probe at a time.
    expect(refused).to.be.at.most(RUNS.length + Math.ceil(Math.log2(BURST_MS / 250)));
  });
});
