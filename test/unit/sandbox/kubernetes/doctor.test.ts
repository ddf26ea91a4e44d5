import { expect } from 'chai';
import { buildJob, strippedHardening } from '../../../../src/sandbox/kubernetes/index.js';
import { INPUT } from './job-input.js';

describe('sandbox/kubernetes/doctor: strippedHardening', () => {
  const job = () => buildJob(INPUT);

  it('finds nothing lost in the Job evalrig sends', () => {
    expect(strippedHardening(job())).to.deep.equal([]);
  });

  it('names each line an admission step removed', () => {
    const stored = job();
    const pod = stored.spec!.template.spec!;
    delete pod.automountServiceAccountToken;
    pod.containers[0]!.securityContext!.readOnlyRootFilesystem = false;
    pod.containers[0]!.securityContext!.capabilities = { drop: ['ALL'], add: ['NET_RAW'] };
    expect(strippedHardening(stored)).to.deep.equal([
      'no service-account token',
      'read-only root',
      'no capabilities',
    ]);
  });
});
