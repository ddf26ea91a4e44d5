/**
 * The pull-request workflow of the toy project played by the REAL Codex binary in the test
 * image, through `evalrig run`: its model calls go through the relay in the container and the
 * run's gateway to the model stand-in (the Responses API) playing the eval's model script, so
 * the agent runs real commands (branch, commit, push, gh pr create --draft, then gh pr edit
 * after `exec resume`) and every measure comes from what it did. What every adapter's campaign
 * must show is in test/support/adapter-campaign.ts; what is Codex's own is here.
 */
import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { CODEX_VERIFIED_VERSION, priceTokens } from '../../src/agents/index.js';
import type { ConditionsFile, RunRecord, StopRecord } from '../../src/artifacts/index.js';
import { relayBundle } from '../../src/campaign/agent.js';
import type { ModelCall } from '../../src/gateway/index.js';
import {
  adapterCampaign,
  expectAgentRecorded,
  expectComparesWithItself,
  expectModelCallsAnswered,
  expectNominalCompleted,
  expectNominalTurnsParsed,
  expectPullRequestMeasured,
  pullRequestScript,
} from '../support/adapter-campaign.js';
import { readJson, readJsonLines } from '../support/campaign.js';
import { expectPlanHolds } from '../support/plan-pilot.js';
import { requireDocker } from '../support/docker.js';
import { expectJudgeSeesWitness, expectViewerShowsSession } from '../support/viewer.js';
import {
  E2E_KEY,
  E2E_KEY_ENV,
  expectCutWitnessed,
  expectForgeryWitnessed,
  expectHonestAgrees,
  expectKeyNeverWritten,
  KEYED_SCRIPT,
  witnessEvals,
} from '../support/witness-evals.js';
import {
  AFTER_401,
  AFTER_ERROR_EVENT,
  bothEvals,
  callsOf,
  REASONED_FINAL,
  shapeEvals,
  THOUGHT,
  transcript,
} from '../support/shape-evals.js';
import {
  TOY_PROBES,
  evalrigRun,
  makeToyWorkspace,
  type CliRun,
  type ToyWorkspace,
} from '../support/toy.js';

const VERSION = process.env.EVALRIG_CODEX_VERSION ?? CODEX_VERIFIED_VERSION;
const MODEL = 'gpt-5.1-codex';
const AGENT = { package: '@openai/codex', version: VERSION, model: MODEL };
/** Codex's model runs a command line through its `exec_command` tool. */
const SHELL = { name: 'exec_command', field: 'cmd' };
/** A probe: how many mounts the run's container has under /opt/evalrig (binary, relay). */
const MOUNTS_PROBE = "grep -c ' /opt/evalrig' /proc/mounts || true";

describe('e2e: a codex campaign plays the real binary against the model stand-in', function () {
  this.timeout(600_000);
  const campaign = adapterCampaign({
    agent: { type: 'codex', version: VERSION },
    shell: SHELL,
    probes: { mounts: MOUNTS_PROBE },
    extra: bothEvals(witnessEvals('codex', SHELL), shapeEvals('codex', SHELL)),
    upstream: { script: KEYED_SCRIPT, keyEnv: E2E_KEY_ENV, key: E2E_KEY },
  });

  it('completes the nominal run over two turns, the second resuming the thread of the first', async () => {
    await expectNominalCompleted(campaign);
    const thread = async (n: number) => {
      const file = path.join(campaign.runDir('nominal'), `turns/turn-0${n}.jsonl`);
      const lines = await readJsonLines<{ type: string; thread_id?: string }>(file);
      return lines.find((l) => l.type === 'thread.started')?.thread_id;
    };
    expect(await thread(1)).to.be.a('string');
    expect(await thread(2)).to.equal(await thread(1));
  });

  it('parses each turn into its stop: final message, tool calls, tokens and the price-table cost', async () => {
    // Codex's stream does not count the model requests: the run's gateway does.
    const [planning] = await expectNominalTurnsParsed(campaign);
    const tokens = { input: 6200, output: 102, cacheRead: 1000 };
    expect(planning.agent!.cost_usd).to.equal(priceTokens(MODEL, tokens));
    const record = await campaign.record('nominal');
    expect(record.agent).to.deep.include({ ...AGENT, install: 'mount' });
  });

  it('measures the pull request from what the agent did through the gh stand-in', async () => {
    const [planning] = await expectPullRequestMeasured(campaign);
    expect(planning.probes.mounts!.stdout).to.equal('2\n'); // the binary and the relay
  });

  it('logs only POST /v1/responses calls through the gateway, each answered 200', async () => {
    await expectModelCallsAnswered(campaign, '/v1/responses');
  });

  it('fails a run whose model answers 400, in the phase agent', async () => {
    const record = await campaign.record('refused');
    expect(record).to.include({ status: 'failed', phase: 'agent', turns_completed: 1 });
    // A 400 answers what the agent sent: the agent's failure, counted against its condition.
    expect(record.failure?.class).to.equal('agent');
    // Checked with 0.171.0: a `turn.failed` line with the API's error, then exit 1; Codex does
    // not retry a 400.
    expect(record.error).to.match(/^turn 1: the agent exited 1 \(.*prompt is too long/u);
    const [stop] = await campaign.stopsOf('refused');
    expect(stop!.agent!.error)
      .to.be.a('string')
      .and.match(/too long/u);
    const file = path.join(campaign.runDir('refused'), 'model-calls.jsonl');
    const calls = await readJsonLines<ModelCall>(file);
    expect(calls.map((c) => [c.path, c.status])).to.deep.equal([['/v1/responses', 400]]);
  });

  it('shows the agent numbers in the report and records the agent in conditions.json and BASELINE.md', async () => {
    const conditions = await expectAgentRecorded(campaign, AGENT);
    // The relay the agent reaches the gateway through is evalrig's own code: recorded like the binary.
    const relay = await readFile(relayBundle());
    expect(conditions.agent!.relay_sha256).to.equal(
      createHash('sha256').update(relay).digest('hex'),
    );
    const { outDir } = campaign.ws;
    const report = await readFile(path.join(outDir, 'report.md'), 'utf8');
    expect(report)
      .to.match(/agent cost \(USD\)/u)
      .and.match(/agent tokens in/u);
    const bench = await readJson<{
      conditions: {
        condition: string;
        agent: Record<string, { n: number; mean: number | null }>;
      }[];
    }>(path.join(outDir, 'benchmark.json'));
    const cost = bench.conditions[0]!.agent.cost_usd!;
    // The run whose model answered 400 failed while the agent had control (the agent's class):
    // it counts against its condition, its witnessed figures with the seven completed runs'.
    expect(cost.n).to.equal(8);
    expect(cost.mean).to.be.greaterThan(0);
  });

  it('compares with itself through evalrig compare: nothing differs, the agent recorded whole', async () => {
    const compare = await expectComparesWithItself(campaign);
    expect(compare.provenance.a.agent).to.deep.include(AGENT);
  });

  it('reports what the gateway witnessed; an honest stream agrees with it', async () => {
    await expectHonestAgrees(campaign);
  });

  it('forged stream lines (before its own, and from a process that outlives the call and the turn) change no figure and no final message, and mark the run tampered', async () => {
    await expectForgeryWitnessed(campaign, 'codex');
  });

  it('a stream the upstream ends with response.failed: logged as failed with its code and no usage; the retry counted', async () => {
    await expectCutWitnessed(campaign, {
      outcome: 'failed',
      reason: 'overloaded_error',
      tokens: { input: null, output: null, cacheRead: null, cacheWrite: null },
    });
  });

  it("a reasoning item with its summary: in the agent's stream, sent back on the next call; the stated rate limits held nothing back", async () => {
    const record = await campaign.record('shape-reasoning');
    expect(record, campaign.run.stderr).to.include({ status: 'completed' });
    const { flight, rows } = await callsOf(campaign, 'shape-reasoning');
    expect(rows).to.deep.equal([
      [200, 'complete', 'completed'],
      [200, 'complete', 'completed'],
    ]);
    expect(flight.calls.every((c) => (c.queuedMs ?? 0) === 0)).to.equal(true);
    const sent = JSON.stringify(flight.request(flight.calls[1]!));
    expect(sent).to.contain('"type":"reasoning"').and.contain(THOUGHT);
    const stream = await transcript(campaign, 'shape-reasoning');
    expect(stream).to.contain(`"type":"reasoning","text":"${THOUGHT}"`);
    const [stop] = await campaign.stopsOf('shape-reasoning');
    expect(stop!.agent).to.deep.include({ final_message: REASONED_FINAL, model_requests: 2 });
    expect(stop!.agent!.tool_calls.total).to.equal(1);
  });

  it('an error event mid-stream then a 529, and two 401s: logged as cut and as errors; the agent retries each and the turn ends well', async () => {
    const ok = [200, 'complete', 'completed'];
    const denied = [401, 'error', 'invalid_request_error'];
    for (const [id, first, final] of [
      [
        'shape-error-event',
        [
          [200, 'cut', 'server_error'],
          [529, 'error', 'server_error'],
        ],
        AFTER_ERROR_EVENT,
      ],
      // Checked with 0.171.0: a 401 is retried like a 5xx (no refresh: an API key).
      ['shape-401', [denied, denied], AFTER_401],
    ] as const) {
      const record = await campaign.record(id);
      expect(record, `${id}: ${campaign.run.stderr}`).to.include({ status: 'completed' });
      const { rows } = await callsOf(campaign, id);
      expect(rows, id).to.deep.equal([...first, ok]);
      const [stop] = await campaign.stopsOf(id);
      expect(stop!.agent, id).to.deep.include({ final_message: final, api_retries: first.length });
    }
  });

  it('a real upstream with the key added on the host as a bearer token: the key is in nothing the campaign wrote', async () => {
    await expectKeyNeverWritten(campaign);
  });

  it('evalrig view shows every step of the session in order, each tool call with its input and output', async () => {
    await expectViewerShowsSession(campaign.ws.outDir, {
      eval: 'nominal',
      shell: SHELL.name,
      prompt: /Plan multiply\./u,
    });
  });

  it("gives the judge the witnessed steps as the transcript excerpt, not the agent's stream", async () => {
    await expectJudgeSeesWitness(campaign.runDir('nominal'), SHELL.name);
  });

  it('evalrig plan --from this campaign: the nominal eval played twice costs what the plan said, within its stated error', async () => {
    // This campaign is the pilot (one run of each eval); the planned one plays after it.
    await expectPlanHolds(campaign, {
      only: ['nominal'],
      runs: 2,
      jobs: 2,
      env: { [E2E_KEY_ENV]: E2E_KEY },
    });
  });
});

describe('e2e: codex built into an image derived from the run image (agent.install "image")', function () {
  before(requireDocker);
  this.timeout(600_000);
  let ws: ToyWorkspace;
  let run: CliRun;
  const runDir = () => path.join(ws.outDir, 'runs', 'planning', 'default/run-01');

  before(async () => {
    ws = await makeToyWorkspace({
      scripts: {},
      files: { 'model/nominal.json': `${JSON.stringify(pullRequestScript(SHELL), null, 2)}\n` },
      set: {
        agent: {
          type: 'codex',
          version: VERSION,
          install: 'image',
          model: { script: 'model/nominal.json' },
        },
        // What the run's container has mounted under /opt/evalrig (the binary, the relay).
        probes: { ...TOY_PROBES, mounts: MOUNTS_PROBE },
        evals: [{ id: 'planning', prompt: 'Plan multiply.' }],
      },
    });
    run = await evalrigRun(ws);
  });
  after(async () => {
    // The derived image this campaign built (hundreds of MB); one it found is left.
    const built = /built agent image (evalrig-agent:[0-9a-f]{12})/u.exec(run?.stderr ?? '');
    if (built) await execa('docker', ['rmi', built[1]!], { reject: false });
    await ws?.cleanup();
  });

  it('plays a real turn from the derived image: the pull request measured from what it did', async () => {
    const record = await readJson<RunRecord>(path.join(runDir(), 'run.json'));
    expect(record, run.stderr).to.include({ status: 'completed', turns_completed: 1 });
    const stop = await readJson<StopRecord>(path.join(runDir(), 'stops/stop-01.json'));
    expect(stop.kind).to.equal('awaiting-approval');
    expect(stop.pull).to.include({ draft: true, described: true, number: 1 });
    expect(stop.probes.mounts!.stdout).to.equal('0\n'); // nothing of the agent is mounted
    const calls = await readJsonLines<ModelCall>(path.join(runDir(), 'model-calls.jsonl'));
    expect(calls.map((c) => [c.path, c.status])).to.deep.equal([
      ['/v1/responses', 200],
      ['/v1/responses', 200],
    ]);
  });

  it('records the derived image and the run image it comes from in conditions.json, run.json and BASELINE.md', async () => {
    const conditions = await readJson<ConditionsFile>(path.join(ws.outDir, 'conditions.json'));
    expect(conditions.agent).to.deep.include({ install: 'image' });
    const [derived] = conditions.agent!.images!;
    expect(derived!.tag).to.match(/^evalrig-agent:[0-9a-f]{12}$/u);
    expect(derived!.base).to.equal(conditions.image.tag);
    const record = await readJson<RunRecord>(path.join(runDir(), 'run.json'));
    expect(record.agent!.images).to.deep.equal([derived]);
    const baseline = await readFile(path.join(ws.outDir, 'BASELINE.md'), 'utf8');
    expect(baseline).to.include(
      `| agent image (from ${derived!.base}) | ${derived!.tag} ${derived!.id} |`,
    );
  });
});
