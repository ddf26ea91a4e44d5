/**
 * Cline, the REAL binary in the test image through `evalrig run`: the toy project's
 * pull-request workflow over two turns (the second loading the session of the first, through
 * its ACP mode) against a "real" upstream at a URL whose key the gateway adds on the host, and
 * a model that refuses (400) failing the run in phase `agent`. Its own file: its shell tool
 * takes a list of commands, so it plays its example's script.
 */
import { expect } from 'chai';
import path from 'node:path';
import { CLINE_VERIFIED_VERSION } from '../../src/agents/index.js';
import { flightFiles } from '../../src/campaign-folder/index.js';
import { readFlight } from '../../src/flight/index.js';
import { loadModelScript, type ModelScript } from '../../src/model-stand-in/index.js';
import {
  adapterCampaign,
  expectAgentRecorded,
  expectModelCallsAnswered,
  expectNominalCompleted,
  expectNominalTurnsParsed,
  expectPullRequestMeasured,
} from '../support/adapter-campaign.js';
import { readJsonLines } from '../support/campaign.js';
import { E2E_KEY, E2E_KEY_ENV, everythingWritten } from '../support/witness-evals.js';

const VERSION = process.env.EVALRIG_CLINE_VERSION ?? CLINE_VERIFIED_VERSION;
const REFUSED: ModelScript = {
  responses: [{ error: { status: 400, message: 'the stand-in refuses this request' } }],
};

describe('e2e: a cline campaign plays the real binary against the model stand-in', function () {
  this.timeout(600_000);
  const campaign = adapterCampaign({
    agent: { type: 'cline', version: VERSION, model_name: 'claude-sonnet-4-6' },
    shell: { name: 'run_commands', field: 'commands' },
    script: () => loadModelScript('examples/cline/model/session.json'),
    upstream: { keyEnv: E2E_KEY_ENV, key: E2E_KEY },
    jobs: 2,
    refused: REFUSED,
    resources: { memory: '1g', cpus: 1, pids: 256 },
  });
  const sessionOf = async (n: number) => {
    const file = path.join(campaign.runDir('nominal'), `turns/turn-0${n}.jsonl`);
    const lines = await readJsonLines<Record<string, unknown>>(file);
    return lines.find((l) => l.type === 'session')?.sessionId;
  };

  it('completes two turns in one session, the second carrying the first; the pull request measured', async () => {
    await expectNominalCompleted(campaign);
    const [one, two] = [await sessionOf(1), await sessionOf(2)];
    expect(one).to.be.a('string');
    expect(two).to.equal(one);
    const flight = await readFlight(flightFiles(campaign.runDir('nominal')));
    const third = JSON.stringify(flight.request(flight.calls.find((c) => c.seq === 3)!));
    expect(third)
      .to.contain('Plan multiply.')
      .and.contain('The plan is in a draft pull request, awaiting your approval.')
      .and.contain('The plan is approved: carry it out.');
    await expectPullRequestMeasured(campaign);
  });

  it('takes its figures from the gateway, its claim agreeing: four calls, requests, tool calls, tokens', async () => {
    await expectModelCallsAnswered(campaign, '/v1/chat/completions');
    const [planning, execution] = await expectNominalTurnsParsed(campaign);
    for (const stop of [planning, execution]) {
      expect(stop.agent!.cost_usd).to.be.greaterThan(0);
      expect(stop.agent!.claim?.disagreements).to.deep.equal([]);
    }
    await expectAgentRecorded(campaign, {
      package: '@cline/cli-linux-x64',
      version: VERSION,
      model: 'claude-sonnet-4-6',
    });
  });

  it('fails a run whose model answers 400, in the phase agent', async () => {
    const record = await campaign.record('refused');
    expect(record).to.include({ status: 'failed', phase: 'agent' });
    expect(record.error, record.error).to.match(
      /^turn 1: the agent exited 1 \(.*the stand-in refuses this request/u,
    );
  });

  it('the key, added on the host for the nominal run, is in nothing the campaign wrote', async () => {
    const all = await everythingWritten(campaign.ws.outDir);
    expect(all).to.include('Plan multiply.');
    expect(all).to.not.contain(E2E_KEY);
  });
});
