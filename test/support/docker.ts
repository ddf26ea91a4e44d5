import { connectDocker, type DockerClient } from '../../src/runtime/index.js';

/** The base image the tests run containers of (built by scripts/base-image.sh). */
export const BASE_IMAGE = process.env.EVALRIG_BASE_IMAGE ?? 'evalrig-base:bookworm';

/** The Docker client of the tests: the same one the product uses. */
export function testDocker(): DockerClient {
  return connectDocker();
}

/** A label value unique to this test process, so parallel suites never clash. */
export const TEST_CAMPAIGN = `test-${process.pid}-${Date.now().toString(36)}`;
