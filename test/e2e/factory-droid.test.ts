/**
 * Factory Droid, the REAL binary in the test image through `evalrig run`: the toy project's
 * pull-request workflow over two turns (the second forking the first's session) against a
 * "real" upstream at a URL whose key the gateway adds on the host, and a model that refuses
 * (400) failing the run in phase `agent`. Its own file, beside more-agents.test.ts: its model
 * stages, commits and pushes in calls of their own (Droid Shield refuses a commit or a push it
 * cannot scan), so its figures are not the toy workflow's, and its later turn is a fork.
 */
import { expect } from 'chai';
import path from 'node:path';
import { FACTORY_DROID_VERIFIED_VERSION } from '../../src/agents/index.js';
import { flightFiles } from '../../src/campaign-folder/index.js';
import { readFlight } from '../../src/flight/index.js';
import type { ModelCall } from '../../src/gateway/index.js';
import { loadModelScript, type ModelScript } from '../../src/model-stand-in/index.js';
import {
  adapterCampaign,
  expectAgentRecorded,
  expectNominalCompleted,
  expectPullRequestMeasured,
} from '../support/adapter-campaign.js';
import { readJsonLines } from '../support/campaign.js';
import { E2E_KEY, E2E_KEY_ENV, everythingWritten } from '../support/witness-evals.js';

const VERSION = process.env.EVALRIG_FACTORY_DROID_VERSION ?? FACTORY_DROID_VERIFIED_VERSION;
const API = '/v1/chat/completions';
const REFUSED: ModelScript = {
  responses: [{ error: { status: 400, message: 'the stand-in refuses this request' } }],
};

describe('e2e: a factory-droid campaign plays the real binary against the model stand-in', function () {
  this.timeout(600_000);
  const campaign = adapterCampaign({
    agent: { type: 'factory-droid', version: VERSION, model_name: 'kimi-k2.6' },
    shell: { name: 'Execute', field: 'command' },
    script: () => loadModelScript('examples/factory-droid/model/session.json'),
    upstream: { keyEnv: E2E_KEY_ENV, key: E2E_KEY },
    jobs: 2,
    refused: REFUSED,
    resources: { memory: '1g', cpus: 1, pids: 256 },
  });
  const sessionOf = async (n: number) => {
    const file = path.join(campaign.runDir('nominal'), `turns/turn-0${n}.jsonl`);
    const lines = await readJsonLines<Record<string, unknown>>(file);
    return lines.find((l) => l.type === 'system')?.session_id;
  };

  it('completes two turns, the second forking the session of the first; the pull request measured', async () => {
    await expectNominalCompleted(campaign);
    const [one, two] = [await sessionOf(1), await sessionOf(2)];
    expect(one).to.be.a('string');
    expect(two).to.be.a('string').and.not.equal(one);
    // The fork's first request carries the first turn whole: its prompt and its last answer.
    const flight = await readFlight(flightFiles(campaign.runDir('nominal')));
    const fifth = JSON.stringify(flight.request(flight.calls.find((c) => c.seq === 5)!));
    expect(fifth)
      .to.contain('Plan multiply.')
      .and.contain('The plan is in a draft pull request, awaiting your approval.')
      .and.contain('The plan is approved: carry it out.');
    const [planning, execution] = await expectPullRequestMeasured(campaign);
    // Every command ran: Droid Shield refused none (each commit and push in a call of its own).
    for (const stop of [planning, execution]) expect(stop.agent!.tool_calls.refused).to.equal(0);
  });

  it('takes its figures from the gateway: eight calls on its API path, requests, tool calls, tokens', async () => {
    const file = path.join(campaign.runDir('nominal'), 'model-calls.jsonl');
    const calls = await readJsonLines<ModelCall>(file);
    expect(calls.map((c) => [c.method, c.path, c.status, c.model])).to.deep.equal(
      Array(8).fill(['POST', API, 200, 'kimi-k2.6']),
    );
    const [planning, execution] = await campaign.stopsOf('nominal');
    expect(planning!.agent).to.deep.include({
      final_message: 'The plan is in a draft pull request, awaiting your approval.',
      model_requests: 4,
      error: null,
      complete: true,
    });
    expect(planning!.agent!.tokens).to.deep.equal({
      input: 12_600,
      output: 122,
      cache_read: 1000,
      cache_write: 0,
    });
    expect(planning!.agent!.tool_calls).to.deep.include({ total: 3, failed: 0 });
    expect(execution!.agent).to.deep.include({
      final_message: 'multiply is done and the description refreshed.',
      model_requests: 4,
    });
    expect(execution!.agent!.tokens).to.include({ input: 14_600, output: 74 });
    for (const stop of [planning, execution]) {
      expect(stop!.agent!.cost_usd).to.be.greaterThan(0);
      expect(stop!.agent!.claim?.disagreements).to.deep.equal([]);
    }
    const { agent } = await campaign.record('nominal');
    expect(agent!.totals).to.deep.include({ tool_calls: 6, model_requests: 8 });
    await expectAgentRecorded(campaign, {
      package: '@factory/cli-linux-x64',
      version: VERSION,
      model: 'kimi-k2.6',
    });
  });

  it('fails a run whose model answers 400, in the phase agent', async () => {
    const record = await campaign.record('refused');
    expect(record).to.include({ status: 'failed', phase: 'agent' });
    // Checked with 0.225.2: an `error` line with the API's words, no completion, exit 1.
    expect(record.error, record.error).to.match(
      /^turn 1: the agent exited 1 \(400 the stand-in refuses this request/u,
    );
    const file = path.join(campaign.runDir('refused'), 'model-calls.jsonl');
    const calls = await readJsonLines<ModelCall>(file);
    expect(calls.map((x) => [x.path, x.status])).to.deep.equal([[API, 400]]);
  });

  it('the key, added on the host for the nominal run, is in nothing the campaign wrote', async () => {
    const all = await everythingWritten(campaign.ws.outDir);
    expect(all).to.include('Plan multiply.');
    expect(all).to.not.contain(E2E_KEY);
  });
});
