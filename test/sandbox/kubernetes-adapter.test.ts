/**
 * A real agent's campaign on the Kubernetes test cluster: Claude Code's binary
 * (the agents cache's) copied into the pod by the keeper, read-only for the
 * agent, its model calls through the model gateway's socket and its gh calls
 * through the gh recorder's, both carried by the tunnel over exec. The model
 * is the stand-in playing the toy's pull-request workflow.
 */
import { expect } from 'chai';
import { CLAUDE_CODE_VERIFIED_VERSION } from '../../src/agents/index.js';
import {
  adapterCampaign,
  expectModelCallsAnswered,
  expectNominalCompleted,
  expectPullRequestMeasured,
} from '../support/adapter-campaign.js';
import { requireCluster, type K8sCluster } from '../support/k8s.js';

describe('a real agent on the Kubernetes cluster', function () {
  this.timeout(600_000);
  let env: K8sCluster | undefined;
  before(async function () {
    env = await requireCluster(this);
  });
  const campaign = adapterCampaign({
    agent: { type: 'claude-code', version: CLAUDE_CODE_VERIFIED_VERSION },
    shell: { name: 'Bash', field: 'command' },
    args: () => ['--engine', env!.kubeconfig, '--image-registry', env!.registry],
  });

  it('completes the pull-request workflow, every model call answered through the tunnel', async () => {
    expect(campaign.run.exitCode, campaign.run.stderr).to.be.oneOf([0, 1]);
    await expectNominalCompleted(campaign);
    await expectModelCallsAnswered(campaign, '/v1/messages');
    await expectPullRequestMeasured(campaign);
    const record = await campaign.record('nominal');
    expect(record.engine).to.deep.include({ kind: 'kubernetes' });
  });
});
