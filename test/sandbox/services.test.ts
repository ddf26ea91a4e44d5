import { expect } from 'chai';
import type { DockerClient } from '../../src/runtime/index.js';
import { LABELS } from '../../src/runtime/index.js';
import { LocalDockerProvider, servicesRefusalOf } from '../../src/sandbox/index.js';
import { BASE_IMAGE, TEST_CAMPAIGN, requireDocker, testDocker } from '../support/docker.js';
import { servicesConformance } from './services-conformance.js';

describe('sandbox: services beside a run', function () {
  before(requireDocker);

  servicesConformance('local Docker', () => {
    const client = testDocker();
    return Promise.resolve({
      provider: new LocalDockerProvider(client),
      client,
      image: BASE_IMAGE,
      labels: { [LABELS.campaign]: `${TEST_CAMPAIGN}-services` },
    });
  });

  it('Podman: rootful with CNI runs services; netavark and rootless refuse them in one line', () => {
    const podman = (profile: object) =>
      ({ profile: { kind: 'podman', ...profile } }) as unknown as DockerClient;
    expect(servicesRefusalOf(podman({ networkBackend: 'cni', rootless: false }))).to.equal(
      undefined,
    );
    for (const refused of [
      podman({ networkBackend: 'netavark' }),
      podman({}),
      podman({ networkBackend: 'cni', rootless: true }),
    ]) {
      const why = servicesRefusalOf(refused);
      expect(why).to.be.a('string').and.match(/host/u);
      expect(why).to.not.include('\n');
    }
    expect(servicesRefusalOf({} as DockerClient)).to.equal(undefined);
  });
});
