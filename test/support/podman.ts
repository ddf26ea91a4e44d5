/**
 * The Podman services scripts/podman.sh starts for the tests (npm test runs
 * it): rootful as root, rootless as the throwaway user evalrig-podman, each
 * on a socket of its own. EVALRIG_PODMAN_HOST and EVALRIG_PODMAN_ROOTLESS_HOST
 * name others.
 */
import { pingDocker } from '../../src/runtime/index.js';
import { connectEngine, engineAddress } from '../../src/sandbox/index.js';

export interface PodmanService {
  /** rootful or rootless. */
  readonly name: string;
  /** unix:///…/podman.sock: what --engine is given. */
  readonly host: string;
  readonly rootless: boolean;
}

export const PODMAN_SERVICES: readonly PodmanService[] = [
  {
    name: 'rootful',
    host: process.env.EVALRIG_PODMAN_HOST ?? 'unix:///run/evalrig-podman/podman.sock',
    rootless: false,
  },
  {
    name: 'rootless',
    host:
      process.env.EVALRIG_PODMAN_ROOTLESS_HOST ?? 'unix:///run/evalrig-podman-rootless/podman.sock',
    rootless: true,
  },
];

/** A `before` hook's check: the service answers, or the test fails saying how to start it. */
export async function requirePodman(service: PodmanService): Promise<void> {
  try {
    await pingDocker(connectEngine(engineAddress(service.host)), 5000);
  } catch (error) {
    throw new Error(
      `no Podman (${service.name}) answers at ${service.host}: run scripts/podman.sh as root (npm test does)`,
      { cause: error },
    );
  }
}
