/**
 * The pull-request workflow of the toy project played by the REAL Claude Code binary in the
 * test image, through `evalrig run`: its model calls go through the run's gateway to the
 * model stand-in playing the eval's model script, so the agent makes real tool calls (branch,
 * commit, push, gh pr create --draft, then gh pr edit after --resume) and every measure comes
 * from what it did. What every adapter's campaign must show is in
 * test/support/adapter-campaign.ts; what is Claude Code's own is here.
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CLAUDE_CODE_VERIFIED_VERSION } from '../../src/agents/index.js';
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
import { requireDocker } from '../support/docker.js';
import { expectJudgeSeesWitness, expectViewerShowsSession } from '../support/viewer.js';
import { evalrigRun, makeToyWorkspace, type ToyWorkspace } from '../support/toy.js';
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
  AFTER_REFUSAL,
  bothEvals,
  callsOf,
  expectClaudeApiError,
  shapeEvals,
  THOUGHT,
  transcript,
} from '../support/shape-evals.js';

const VERSION = process.env.EVALRIG_CLAUDE_CODE_VERSION ?? CLAUDE_CODE_VERIFIED_VERSION;
const AGENT = { package: '@anthropic-ai/claude-code', version: VERSION };
/** Claude Code's model runs a command line through its `Bash` tool. */
const SHELL = { name: 'Bash', field: 'command' };

describe('e2e: a claude-code campaign plays the real binary against the model stand-in', function () {
  this.timeout(600_000);
  const campaign = adapterCampaign({
    agent: { type: 'claude-code', version: VERSION },
    shell: SHELL,
    extra: bothEvals(witnessEvals('claude-code', SHELL), shapeEvals('claude-code', SHELL)),
    // A subscription's OAuth token here (Codex's e2e plays an API key): the host adds it.
    upstream: { script: KEYED_SCRIPT, keyEnv: E2E_KEY_ENV, key: E2E_KEY, oauth: true },
  });

  it('completes the nominal run over two turns, the second resuming the first', async () => {
    await expectNominalCompleted(campaign);
  });

  it('keeps each turn whole as turns/turn-NN.jsonl and parses it into its stop', async () => {
    const [planning] = await expectNominalTurnsParsed(campaign);
    expect(planning.agent!.cost_usd).to.be.a('number').and.greaterThan(0);
    const file = path.join(campaign.runDir('nominal'), 'turns/turn-02.jsonl');
    const transcript = await readFile(file, 'utf8');
    const last = JSON.parse(transcript.trim().split('\n').pop()!) as { type: string };
    expect(last.type).to.equal('result');

    // run.json: the agent that played.
    const record = await campaign.record('nominal');
    expect(record.agent).to.deep.include(AGENT);
    expect(record.agent!.binary_sha256).to.match(/^[0-9a-f]{64}$/u);
  });

  it('measures the pull request from what the agent did through the gh stand-in', async () => {
    await expectPullRequestMeasured(campaign);
  });

  it('logs only POST /v1/messages calls through the gateway, each answered 200', async () => {
    await expectModelCallsAnswered(campaign, '/v1/messages');
  });

  it('fails a run whose agent reports an error and exits non-zero, in the phase agent', async () => {
    const record = await campaign.record('refused');
    expect(record).to.include({ status: 'failed', phase: 'agent' });
    expect(record.error).to.match(/^turn 1: the agent exited [1-9]/u);
    const [stop] = await campaign.stopsOf('refused');
    expect(stop!.agent!.error).to.be.a('string');
  });

  it('records the agent in conditions.json and BASELINE.md', async () => {
    await expectAgentRecorded(campaign, AGENT);
  });

  it('compares with itself through evalrig compare: nothing differs, the agent recorded whole', async () => {
    const compare = await expectComparesWithItself(campaign);
    expect(compare.provenance.a.agent).to.deep.include(AGENT);
  });

  it('reports what the gateway witnessed; an honest stream agrees with it', async () => {
    await expectHonestAgrees(campaign);
  });

  it('forged stream lines (before its own, and from a process that outlives the call and the turn) change no figure and no final message, and mark the run tampered', async () => {
    await expectForgeryWitnessed(campaign, 'claude-code');
  });

  it("a stream the upstream ends with an overloaded error event: logged as cut with its type and message_start's usage; the retry counted", async () => {
    await expectCutWitnessed(campaign, {
      outcome: 'cut',
      reason: 'overloaded_error',
      tokens: { input: 500, output: 1, cacheRead: 0, cacheWrite: 0 },
    });
    // Claude Code's own tokens count both calls; its own cost only the second: the host's
    // figures price the tokens it counts.
    const [stop] = await campaign.stopsOf('cut');
    const a = stop!.agent!;
    expect(a.tokens).to.deep.include({ input: 1020, output: 13 });
    expect(a.cost_usd).to.be.greaterThan(a.claim!.cost_usd!);
  });

  it('thinking, redacted thinking and pings: sent back as they came; a server tool paused with pause_turn ends the turn as an error of the agent', async () => {
    const record = await campaign.record('shape-thinking');
    // Checked with 2.1.332: no call to go on after pause_turn; the turn ends with
    // "error_during_execution" (its last block a server_tool_use), exit 1.
    expect(record, campaign.run.stderr).to.include({ status: 'failed', phase: 'agent' });
    expect(record.error).to.equal('turn 1: the agent exited 1 (the agent reported an error)');
    const { flight, rows } = await callsOf(campaign, 'shape-thinking');
    expect(rows).to.deep.equal([
      [200, 'complete', 'tool_use'],
      [200, 'complete', 'pause_turn'],
    ]);
    // The stated rate limits were learnt, and held nothing back.
    expect(flight.calls.every((c) => (c.queuedMs ?? 0) === 0)).to.equal(true);
    // The server's tool is no tool call of the agent's; the thinking went back with its signature.
    expect(flight.calls[1]!.toolCalls).to.deep.equal([]);
    const sent = JSON.stringify(flight.request(flight.calls[1]!));
    expect(sent).to.contain(`"thinking":"${THOUGHT}"`).and.contain('"signature":"');
    expect(sent).to.contain('"type":"redacted_thinking"');
    const stream = await transcript(campaign, 'shape-thinking');
    expect(stream).to.contain(THOUGHT).and.contain('stop_reason=pause_turn');
    const [stop] = await campaign.stopsOf('shape-thinking');
    const a = stop!.agent!;
    expect(a).to.deep.include({ model_requests: 2, final_message: 'Writing the file.' });
    expect(a.tool_calls.total).to.equal(1);
    expect(a.tokens).to.deep.equal({ input: 1700, output: 40, cache_read: 0, cache_write: 0 });
    // The web search is billed apart (10 USD per 1,000): the host reads it from the usage the
    // gateway relayed and prices it as the agent does, so the two costs agree.
    expect(flight.calls[1]!.serverTools).to.deep.equal({ webSearch: 1, webFetch: 0 });
    expect(a.cost_usd!).to.be.closeTo(a.claim!.cost_usd!, 1e-9);
  });

  it("401, 403 and 413 with their documented types: not retried; each fails its run in phase agent with the API's words", async () => {
    await expectClaudeApiError(
      campaign,
      'shape-401',
      401,
      'authentication_error',
      /^turn 1: the agent exited 1 \(Invalid API key/u,
    );
    await expectClaudeApiError(
      campaign,
      'shape-403',
      403,
      'permission_error',
      /API Error: 403 Your API key does not have permission to use the specified resource\.\)$/u,
    );
    await expectClaudeApiError(
      campaign,
      'shape-413',
      413,
      'request_too_large',
      /^turn 1: the agent exited 1 \(Request too large \(max 32MB\)/u,
    );
  });

  it('a 404 not_found_error, then a refusal: the agent retries the 404 (unlike 401, 403, 413); after the refusal it asks once more and ends the turn on that answer', async () => {
    // Checked with 2.1.332: after a refusal the binary makes one more call (its messages
    // rebuilt) and takes that answer as the turn's final message; the run completes.
    const record = await campaign.record('shape-refusal');
    expect(record, campaign.run.stderr).to.include({ status: 'completed' });
    const { rows } = await callsOf(campaign, 'shape-refusal');
    expect(rows).to.deep.equal([
      [404, 'error', 'not_found_error'],
      [200, 'complete', 'refusal'],
      [200, 'complete', 'end_turn'],
    ]);
    const [stop] = await campaign.stopsOf('shape-refusal');
    expect(stop!.agent).to.deep.include({ final_message: AFTER_REFUSAL, api_retries: 1 });
    expect(stop!.agent!.tokens).to.include({ input: 620, output: 11 });
  });

  it('a real upstream with an OAuth token added on the host: the token is in nothing the campaign wrote', async () => {
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
});

describe('e2e: a claude-code agent that does not answer in the image', function () {
  before(requireDocker);
  this.timeout(300_000);
  let ws: ToyWorkspace | undefined;
  after(() => ws?.cleanup());

  it('refuses the campaign at its preflight, saying what the binary answered; nothing is played', async () => {
    ws = await makeToyWorkspace({
      scripts: {},
      files: { 'model/nominal.json': `${JSON.stringify(pullRequestScript(SHELL))}\n` },
      set: {
        agent: { type: 'claude-code', version: VERSION, model: { script: 'model/nominal.json' } },
        evals: [{ id: 'nominal', prompt: 'Plan multiply.' }],
      },
    });
    // A cache whose "installed" binary answers another version, as a wrong build would.
    const cache = path.join(ws.root, 'agents');
    const bin = path.join(cache, `@anthropic-ai/claude-code@${VERSION}`, 'node_modules', '.bin');
    await mkdir(bin, { recursive: true });
    await writeFile(path.join(bin, 'claude'), '#!/bin/sh\necho "0.0.1 (Claude Code)"\n');
    await chmod(path.join(bin, 'claude'), 0o755);
    const run = await evalrigRun(ws, { EVALRIG_AGENTS_DIR: cache });
    expect(run.exitCode).to.not.equal(0);
    expect(run.stderr)
      .to.include(`@anthropic-ai/claude-code@${VERSION}`)
      .and.to.include('does not answer its version')
      .and.to.include('0.0.1 (Claude Code)');
    expect(run.stderr).to.not.match(/^\s+at /mu);
    expect(existsSync(path.join(ws.outDir, 'runs'))).to.equal(false);
    expect(existsSync(path.join(ws.outDir, 'conditions.json'))).to.equal(false);
  });
});
