#!/usr/bin/env bash
# The report test opens report.html in a real headless Chromium (Debian's,
# driven by playwright-core). Installs it when missing; idempotent.
set -euo pipefail
[ -x /usr/bin/chromium ] && exit 0
if [ "$(id -u)" -ne 0 ] || [ ! -f /etc/debian_version ]; then
  echo "chromium: /usr/bin/chromium is missing; install Debian's chromium (or your system's) for the report test" >&2
  exit 1
fi
echo "chromium: installing Debian's chromium" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium >/dev/null
