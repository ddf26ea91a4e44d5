#!/usr/bin/env bash
# The ssh engine test starts an sshd of its own on a loopback port (test/support/ssh-gateway.ts):
# it needs OpenSSH's server and client binaries. Installs them when missing, without starting
# the system's ssh service (nothing listens on port 22 because of this script); idempotent.
set -euo pipefail
[ -x /usr/sbin/sshd ] && command -v ssh-keygen >/dev/null && command -v ssh-agent >/dev/null && exit 0
if [ "$(id -u)" -ne 0 ] || [ ! -f /etc/debian_version ]; then
  echo "sshd: /usr/sbin/sshd is missing; install OpenSSH's server for the ssh engine test" >&2
  exit 1
fi
echo "sshd: installing Debian's openssh-server (its service is not started)" >&2
export DEBIAN_FRONTEND=noninteractive
policy=/usr/sbin/policy-rc.d
had_policy=
[ -e "$policy" ] && had_policy=1
if [ -z "$had_policy" ]; then
  printf '#!/bin/sh\nexit 101\n' >"$policy"
  chmod 755 "$policy"
  trap 'rm -f "$policy"' EXIT
fi
apt-get update -qq
apt-get install -y -qq --no-install-recommends openssh-server openssh-client >/dev/null
