#!/usr/bin/env bash
# Installs the agents' packages into evalrig's cache, once per exact version, with npm itself:
#   ~/.cache/evalrig/agents/<package>@<version>/node_modules/...
# Usage: scripts/agents.sh [claude-code-version] [codex-version]   (defaults: pinned below)
# CI calls it before the agent tests; a second call with the same version does nothing.
set -euo pipefail

CLAUDE_CODE_VERSION="${1:-${EVALRIG_CLAUDE_CODE_VERSION:-2.1.332}}"
CODEX_VERSION="${2:-${EVALRIG_CODEX_VERSION:-0.171.0}}"
CACHE="${EVALRIG_AGENTS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/evalrig/agents}"

install_one() {
  local pkg="$1" version="$2" bin="$3"
  local dir="$CACHE/$pkg@$version"
  if [[ -x "$dir/node_modules/.bin/$bin" ]]; then
    echo "agents: $pkg@$version already in $dir"
    return
  fi
  # Installed beside the final folder, then renamed: a half-done install is never taken for one.
  local tmp="$dir.partial-$$"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  echo '{"private":true}' >"$tmp/package.json"
  npm install --prefix "$tmp" --no-audit --no-fund --no-save --omit=dev "$pkg@$version"
  "$tmp/node_modules/.bin/$bin" --version
  rm -rf "$dir"
  mv "$tmp" "$dir"
  echo "agents: $pkg@$version installed in $dir"
}

install_one @anthropic-ai/claude-code "$CLAUDE_CODE_VERSION" claude
# Codex's .bin link is a Node launcher; runs mount the static binary of its platform package.
install_one @openai/codex "$CODEX_VERSION" codex
