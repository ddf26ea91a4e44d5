import { connectDocker, pingDocker, type DockerClient } from '../../src/runtime/index.js';

/** The base image the tests run containers of (built by scripts/base-image.sh). */
export const BASE_IMAGE = process.env.EVALRIG_BASE_IMAGE ?? 'evalrig-base:bookworm';

/** The Docker client of the tests: the same one the product uses. */
export function testDocker(): DockerClient {
  return connectDocker();
}

/** A label value unique to this test process, so parallel suites never clash. */
export const TEST_CAMPAIGN = `test-${process.pid}-${Date.now().toString(36)}`;

let engine: Promise<void> | undefined;

/**
 * A `before` hook for suites that need Docker: fails at once with the clear
 * message when no engine answers, instead of letting each test wait on a
 * container that never comes. The ping is done once per test process.
 */
export function requireDocker(): Promise<void> {
  engine ??= pingDocker(testDocker());
  return engine;
}
