#!/usr/bin/env bash
# What the tests and the main job need before they start: a Docker engine that
# answers and the local base image (and, with --tests, Chromium for the report
# test, OpenSSH and Podman's API services for the engine tests, and the real
# agents' packages for the agent tests). Idempotent and quick
# when all are there.
# EVALRIG_NO_SETUP=1 skips it (to see how the tests fail with no engine).
set -euo pipefail
[ "${EVALRIG_NO_SETUP:-}" = 1 ] && exit 0
here=$(cd "$(dirname "$0")" && pwd)
bash "$here/docker-engine.sh" 2>/dev/null || bash "$here/docker-engine.sh"
if [ -z "${EVALRIG_BASE_IMAGE:-}" ] || [ "${EVALRIG_BASE_IMAGE}" = evalrig-base:bookworm ]; then
  bash "$here/base-image.sh" 2>/dev/null || bash "$here/base-image.sh"
fi
if [ "${1:-}" = --tests ]; then
  bash "$here/chromium.sh"
  bash "$here/sshd.sh"
  bash "$here/podman.sh"
  bash "$here/agents.sh" >/dev/null
fi
