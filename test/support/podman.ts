/**
 * The Podman services scripts/podman.sh starts for the tests (npm test runs
 * it): rootful as root, rootless as the throwaway user evalrig-podman, each
 * on a socket of its own. EVALRIG_PODMAN_HOST and EVALRIG_PODMAN_ROOTLESS_HOST
 * name others.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
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

/** A Podman service of a test's own. */
export interface OwnPodman {
  /** unix:///…/podman.sock */
  readonly host: string;
  stop(): Promise<void>;
}

/**
 * A rootful Podman service that refuses every container evalrig asks for, as
 * one on a host without catatonit does ("container-init binary not found"):
 * run in a mount namespace of its own where /usr/libexec/podman is an empty
 * tmpfs. It shares the rootful service's storage (its images), and never gets
 * as far as creating a container.
 */
export async function startPodmanWithoutInit(): Promise<OwnPodman> {
  const dir = await mkdtemp(path.join(tmpdir(), 'evalrig-podman-noinit-'));
  const socket = path.join(dir, 'podman.sock');
  const child = spawn(
    'unshare',
    [
      '-m',
      '--propagation',
      'private',
      'sh',
      '-c',
      'mount -t tmpfs tmpfs /usr/libexec/podman && exec podman system service --time=0 "unix://$1"',
      'sh',
      socket,
    ],
    { stdio: 'ignore' },
  );
  const host = `unix://${socket}`;
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      const ended = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await ended;
    }
    await rm(dir, { recursive: true, force: true });
  };
  const client = connectEngine(engineAddress(host));
  const end = Date.now() + 30_000;
  for (;;) {
    const up = await pingDocker(client, 1000).then(
      () => true,
      () => false,
    );
    if (up) return { host, stop };
    if (Date.now() > end || child.exitCode !== null) {
      await stop();
      throw new Error(`the Podman service without init did not answer at ${host}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
