#!/usr/bin/env bash
# Build the local base image (node + git + bash) for hosts with no container
# registry: debootstrap a minimal Debian bookworm from Debian's packages, then
# `docker import` it. Skips when the image already exists.
#
#   EVALRIG_BASE_IMAGE   tag to build (default evalrig-base:bookworm)
#   EVALRIG_DEBIAN_MIRROR  Debian mirror (default: the host's own apt source)
set -euo pipefail

IMAGE="${EVALRIG_BASE_IMAGE:-evalrig-base:bookworm}"
SUITE=bookworm
say() { printf 'base-image: %s\n' "$*" >&2; }

if docker image inspect "$IMAGE" >/dev/null 2>&1; then
  say "$IMAGE exists; nothing to do"
  exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
  say "building $IMAGE needs root (debootstrap); run as root, or set EVALRIG_BASE_IMAGE to an image with node >= 18, git and bash"
  exit 1
fi

mirror="${EVALRIG_DEBIAN_MIRROR:-}"
if [ -z "$mirror" ]; then
  # Use the mirror the host already reaches, whatever it is.
  mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.sources /etc/apt/sources.list.d/*.list 2>/dev/null \
    | awk '/security/ { next }
           /^URIs:/ { print $2; exit }
           /^deb / { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z]+:\/\//) { print $i; exit } }' || true)
fi
if [ -z "$mirror" ]; then
  say "cannot find a Debian mirror in /etc/apt; set EVALRIG_DEBIAN_MIRROR"
  exit 1
fi

if ! command -v debootstrap >/dev/null 2>&1; then
  say "installing debootstrap"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
fi

root=$(mktemp -d /var/tmp/evalrig-base.XXXXXX)
cleanup() { rm -rf "$root"; }
trap cleanup EXIT

say "debootstrap $SUITE from $mirror into $root (about a minute)"
debootstrap --variant=minbase --include=git,nodejs,ca-certificates "$SUITE" "$root" "$mirror" \
  >"$root.log" 2>&1 || { tail -n 30 "$root.log" >&2; rm -f "$root.log"; exit 1; }
rm -f "$root.log"

# Slim the image: package caches and docs are not needed at run time.
rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/* \
  "$root"/usr/share/doc/* "$root"/usr/share/man/* "$root"/usr/share/locale/*

say "importing $IMAGE"
tar -C "$root" -c . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["bash"]' \
  - "$IMAGE" >/dev/null

docker run --rm --network none "$IMAGE" sh -c 'node --version && git --version' >&2
say "$IMAGE built"
