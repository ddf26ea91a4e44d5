import { CreationGate, LABELS } from '../../src/runtime/index.js';
import { LocalDockerProvider } from '../../src/sandbox/index.js';
import { BASE_IMAGE, TEST_CAMPAIGN, requireDocker, testDocker } from '../support/docker.js';
import { sandboxConformance } from './conformance.js';

describe('sandbox/LocalDockerProvider', function () {
  before(requireDocker);

  sandboxConformance('local Docker (bind mounts)', () =>
    Promise.resolve({
      provider: new LocalDockerProvider(testDocker()),
      image: BASE_IMAGE,
      labels: { [LABELS.campaign]: `${TEST_CAMPAIGN}-sandbox` },
      another: (labels) =>
        new LocalDockerProvider({ ...testDocker(), labels, gate: new CreationGate() }),
    }),
  );
});
