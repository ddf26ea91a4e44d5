#!/usr/bin/env bash
# Podman's Docker-compatible API, rootful and rootless, for the tests that run
# evalrig on Podman (test/sandbox/podman.test.ts). Idempotent: does nothing for
# a service that already answers.
#
# - Installs Debian's podman, catatonit (Podman's init, which evalrig asks for)
#   and uidmap (rootless user namespaces) when podman is missing.
# - Rootful: `podman system service` as root on unix:///run/evalrig-podman/podman.sock.
#   Its default_ulimits are left as Debian ships them, so that evalrig's own
#   adaptation (lower ulimits where root may not raise them) is what is tested.
# - Rootless: the same as the throwaway system user evalrig-podman (its own
#   subuid/subgid range, overlay storage under its home) on
#   unix:///run/evalrig-podman-rootless/podman.sock (its runtime folder the usual
#   /run/user/UID, which Podman remembers in its database).
#
# Neither touches the Docker engine: own sockets, own storage, network none.
# Stop them with:
#   kill "$(cat /run/evalrig-podman/podman.pid)" "$(cat /run/evalrig-podman-rootless/podman.pid)"
set -euo pipefail

ROOTFUL_DIR=/run/evalrig-podman
ROOTLESS_DIR=/run/evalrig-podman-rootless
ROOTLESS_USER=evalrig-podman
ROOTLESS_HOME=/var/lib/evalrig-podman
WAIT_SECONDS="${EVALRIG_PODMAN_WAIT:-60}"

say() { printf 'podman: %s\n' "$*" >&2; }

answers() {
  timeout 10 podman --url "unix://$1" version >/dev/null 2>&1
}

if [ "$(id -u)" -ne 0 ] || [ ! -f /etc/debian_version ]; then
  command -v podman >/dev/null && answers "$ROOTFUL_DIR/podman.sock" &&
    answers "$ROOTLESS_DIR/podman.sock" && exit 0
  say "the Podman services for the tests are started as root on Debian only; run this script as root"
  exit 1
fi

if ! command -v podman >/dev/null || ! [ -x /usr/libexec/podman/catatonit ] ||
  ! command -v newuidmap >/dev/null; then
  say "installing Debian's podman, catatonit and uidmap"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends podman catatonit uidmap >/dev/null
fi

# start <dir> <log> <command...>: the service in the background, its pid in <dir>/podman.pid.
start() {
  local dir=$1 log=$2
  shift 2
  if [ -f "$dir/podman.pid" ] && kill -0 "$(cat "$dir/podman.pid")" 2>/dev/null; then
    say "the service of $dir (pid $(cat "$dir/podman.pid")) does not answer yet; waiting"
  else
    rm -f "$dir/podman.sock"
    # setsid: the service must outlive the shell (and the CI step) that started it.
    setsid "$@" --time=0 "unix://$dir/podman.sock" >>"$log" 2>&1 </dev/null &
    echo $! >"$dir/podman.pid"
  fi
  local deadline=$((SECONDS + WAIT_SECONDS))
  until answers "$dir/podman.sock"; do
    if ! kill -0 "$(cat "$dir/podman.pid")" 2>/dev/null; then
      say "the service of $dir ended; last lines of $log:"
      tail -n 20 "$log" >&2 || true
      exit 1
    fi
    if [ "$SECONDS" -ge "$deadline" ]; then
      say "no answer on $dir/podman.sock within ${WAIT_SECONDS}s; last lines of $log:"
      tail -n 20 "$log" >&2 || true
      exit 1
    fi
    sleep 0.5
  done
  say "Podman answers at unix://$dir/podman.sock"
}

# Rootful.
if ! answers "$ROOTFUL_DIR/podman.sock"; then
  mkdir -p "$ROOTFUL_DIR"
  start "$ROOTFUL_DIR" /var/log/evalrig-podman.log podman system service
fi

# Rootless: a user of its own with a subordinate id range nobody else's overlaps.
if ! answers "$ROOTLESS_DIR/podman.sock"; then
  if ! id "$ROOTLESS_USER" >/dev/null 2>&1; then
    useradd --system --create-home --home-dir "$ROOTLESS_HOME" --shell /usr/sbin/nologin \
      "$ROOTLESS_USER"
  fi
  for file in /etc/subuid /etc/subgid; do
    touch "$file"
    if ! grep -q "^$ROOTLESS_USER:" "$file"; then
      next=$(awk -F: 'BEGIN { m = 100000 } { e = $2 + $3; if (e > m) m = e } END { print m }' "$file")
      echo "$ROOTLESS_USER:$next:65536" >>"$file"
    fi
  done
  # Overlay in the user's namespace (kernel 5.13+), not vfs's full copy of every layer per container.
  conf="$ROOTLESS_HOME/.config/containers"
  mkdir -p "$conf"
  [ -f "$conf/storage.conf" ] || printf '[storage]\ndriver = "overlay"\n' >"$conf/storage.conf"
  chown -R "$ROOTLESS_USER:" "$ROOTLESS_HOME/.config"
  runtime=/run/user/$(id -u "$ROOTLESS_USER")
  for dir in "$ROOTLESS_DIR" "$runtime"; do
    mkdir -p "$dir"
    chown "$ROOTLESS_USER:" "$dir"
    chmod 700 "$dir"
  done
  touch /var/log/evalrig-podman-rootless.log
  chown "$ROOTLESS_USER:" /var/log/evalrig-podman-rootless.log
  cd "$ROOTLESS_HOME"
  start "$ROOTLESS_DIR" /var/log/evalrig-podman-rootless.log \
    runuser -u "$ROOTLESS_USER" -- env HOME="$ROOTLESS_HOME" XDG_RUNTIME_DIR="$runtime" \
    podman system service
fi
