#!/usr/bin/env bash
# Make a Docker engine answer. Idempotent: does nothing when one already does.
#
# On a Debian host as root it installs Debian's docker.io when dockerd is
# missing and starts dockerd in the background. Anywhere else it says what to
# do instead. Stop an engine it started with:
#   kill "$(cat /var/run/evalrig-dockerd.pid)"
set -euo pipefail

STATE_DIR="${EVALRIG_DOCKERD_STATE:-/var/run}"
PID_FILE="$STATE_DIR/evalrig-dockerd.pid"
LOG_FILE="${EVALRIG_DOCKERD_LOG:-/var/log/evalrig-dockerd.log}"
WAIT_SECONDS="${EVALRIG_DOCKERD_WAIT:-60}"

say() { printf 'docker-engine: %s\n' "$*" >&2; }

engine_answers() {
  # `docker info` honours DOCKER_HOST; a short timeout keeps a dead socket from hanging us.
  timeout 10 docker info >/dev/null 2>&1
}

if ! command -v docker >/dev/null 2>&1 && ! command -v dockerd >/dev/null 2>&1; then
  : # neither client nor engine: handled by the install below
elif engine_answers; then
  say "a Docker engine answers at ${DOCKER_HOST:-unix:///var/run/docker.sock}; nothing to do"
  exit 0
fi

if [ -n "${DOCKER_HOST:-}" ] && [ "${DOCKER_HOST}" != "unix:///var/run/docker.sock" ]; then
  say "DOCKER_HOST=$DOCKER_HOST does not answer; start that engine, or unset DOCKER_HOST to let this script start a local one"
  exit 1
fi

if [ "$(id -u)" -ne 0 ]; then
  say "no Docker engine answers and this script can only start one as root."
  say "start Docker yourself (e.g. 'sudo systemctl start docker', Docker Desktop, colima) or set DOCKER_HOST, then retry"
  exit 1
fi

if [ ! -f /etc/debian_version ]; then
  say "no Docker engine answers and this host is not Debian; install and start Docker for your system, or set DOCKER_HOST"
  exit 1
fi

if ! command -v dockerd >/dev/null 2>&1; then
  say "dockerd is missing: installing Debian's docker.io"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  # Keep the docker client already on PATH if there is one; docker.io brings its own too.
  apt-get install -y -qq --no-install-recommends docker.io iptables >/dev/null
fi

# The fault tests give a second engine a bridge interface of its own (ip link).
if ! command -v ip >/dev/null 2>&1; then
  say "ip is missing: installing Debian's iproute2"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends iproute2 >/dev/null
fi

if [ -f "$PID_FILE" ] && kill -0 "$(cat "$PID_FILE")" 2>/dev/null; then
  say "dockerd (pid $(cat "$PID_FILE")) is running but does not answer yet; waiting"
else
  mkdir -p "$(dirname "$LOG_FILE")" "$STATE_DIR"
  say "starting dockerd (log: $LOG_FILE)"
  # setsid: the engine must outlive the shell (and the CI step) that started it.
  setsid dockerd --pidfile "$PID_FILE" >>"$LOG_FILE" 2>&1 < /dev/null &
fi

deadline=$((SECONDS + WAIT_SECONDS))
until engine_answers; do
  if [ "$SECONDS" -ge "$deadline" ]; then
    say "dockerd did not answer within ${WAIT_SECONDS}s; last lines of $LOG_FILE:"
    tail -n 20 "$LOG_FILE" >&2 || true
    exit 1
  fi
  sleep 0.5
done

say "a Docker engine answers (dockerd pid $(cat "$PID_FILE" 2>/dev/null || echo '?'))"
say "stop it with: kill \"\$(cat $PID_FILE)\""
