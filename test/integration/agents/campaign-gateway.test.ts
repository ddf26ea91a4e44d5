/**
 * A claude-code run's model gateway lives exactly as long as the run: a preparation that fails
 * after the gateway opened closes it (a sandbox that cannot start: the run recorded failed in
 * phase start), and so does a prepared run that is discarded.
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { AGENT_ADAPTERS, agentFiles, type AgentInstall } from '../../../src/agents/index.js';
import type { RunRecord } from '../../../src/artifacts/index.js';
import { planRuns } from '../../../src/campaign/index.js';
import { campaignAgent } from '../../../src/campaign/agent.js';
import {
  discardPreparedRun,
  playRun,
  prepareRun,
  type CampaignContext,
} from '../../../src/campaign/run-one.js';
import { loadEvalSet } from '../../../src/config/index.js';
import { ensureTestImage } from '../../../src/image/index.js';
import { LABELS, removeContainers } from '../../../src/runtime/index.js';
import { LocalDockerProvider, type Sandbox } from '../../../src/sandbox/index.js';
import { requireDocker, TEST_CAMPAIGN, testDocker } from '../../support/docker.js';
import { makeToyWorkspace, type ToyWorkspace } from '../../support/toy.js';

const SCRIPT = { responses: [{ content: [{ text: 'Hello.' }] }] };

describe('campaign: a claude-code run closes its model gateway whatever happens', function () {
  this.timeout(300_000);
  const client = testDocker();
  const campaign = `${TEST_CAMPAIGN}-campaign-gateway`;
  let ws: ToyWorkspace | undefined;

  before(requireDocker);
  after(async () => {
    await removeContainers(client, { [LABELS.campaign]: campaign });
    await ws?.cleanup();
  });

  const context = async (binary: string): Promise<CampaignContext> => {
    ws = await makeToyWorkspace({
      scripts: {},
      files: { 'model/s.json': JSON.stringify(SCRIPT) },
      set: {
        codebase: undefined,
        agent: { type: 'claude-code', version: '2.1.332', model: { script: 'model/s.json' } },
        evals: [{ id: 'hello', prompt: 'Say hello.', files: ['model/s.json'] }],
      },
    });
    const evalSet = await loadEvalSet(ws.evalSetFile);
    const image = await ensureTestImage(client, {});
    const install: AgentInstall = {
      package: '@anthropic-ai/claude-code',
      version: '2.1.332',
      dir: path.dirname(binary),
      binary,
      sha256: '0'.repeat(64),
    };
    const adapter = AGENT_ADAPTERS['claude-code'];
    const agent = campaignAgent({
      adapter,
      install,
      files: agentFiles(adapter, install, undefined),
      sourceFor: () => ({ script: SCRIPT }),
    });
    return {
      campaign,
      outDir: ws.outDir,
      evalSet,
      sandboxes: new LocalDockerProvider(client),
      image: { tag: image.tag, id: image.id },
      codebases: new Map(),
      stopAtHandOver: false,
      keepWorkspaces: false,
      maxOutputBytes: 1024 * 1024,
      maxPatchBytes: 1024 * 1024,
      live: new Set<Sandbox>(),
      removals: [],
      agents: new Map(evalSet.conditions.map((c) => [c.name, agent])),
    };
  };

  it('a sandbox that cannot start after the gateway opened closes it; the run is failed in start', async () => {
    // A binary path the engine refuses to mount: the container cannot be created, after the
    // gateway opened (a refused specification: nothing is made on the host).
    const ctx = await context('/nonexistent-evalrig:bad/claude');
    const [planned] = planRuns(ctx.evalSet, {});
    const prepared = await prepareRun(ctx, planned!);
    expect(prepared.error).to.match(/nonexistent-evalrig/u);
    expect(prepared.gateway, 'the gateway was opened before the failure').to.not.equal(undefined);
    expect(existsSync(prepared.gateway!.hostDir)).to.equal(true);
    const outcome = await playRun(ctx, prepared);
    await Promise.all(ctx.removals);
    expect(outcome.record).to.include({ status: 'failed', phase: 'start' });
    expect(existsSync(prepared.gateway!.hostDir)).to.equal(false);
    const record = outcome.record as RunRecord;
    expect(record.agent?.totals.model_requests).to.equal(0);
  });

  it('a prepared run that is discarded closes its gateway', async () => {
    await ws?.cleanup();
    // Any readable file stands for the binary: the run is never played.
    const ctx = await context('/bin/true');
    const [planned] = planRuns(ctx.evalSet, {});
    const prepared = await prepareRun(ctx, planned!);
    expect(prepared.error).to.equal(undefined);
    expect(existsSync(prepared.gateway!.hostDir)).to.equal(true);
    await discardPreparedRun(ctx, prepared);
    expect(existsSync(prepared.gateway!.hostDir)).to.equal(false);
  });
});
