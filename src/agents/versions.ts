/**
 * Each adapter's pinned version (the one the conformance suite proved) and the newest its
 * package has, as npm itself answers (npm's own registry setting; nothing here names one).
 * Agents move weekly: `evalrig doctor` says how far each pin is behind.
 */
import { execa } from 'execa';
import { AGENT_KINDS, ADAPTER_KINDS, type AdapterKind } from '../config/agent-kinds.js';
import { CLAUDE_CODE_VERIFIED_VERSION } from './claude-code/launch.js';
import { CLINE_VERIFIED_VERSION } from './cline/launch.js';
import { CODEX_VERIFIED_VERSION } from './codex/launch.js';
import { COPILOT_CLI_VERIFIED_VERSION } from './copilot-cli/launch.js';
import { FACTORY_DROID_VERIFIED_VERSION } from './factory-droid/launch.js';
import { GEMINI_CLI_VERIFIED_VERSION } from './gemini-cli/launch.js';
import { KILO_CODE_VERIFIED_VERSION } from './kilo-code/launch.js';
import { OPENCODE_VERIFIED_VERSION } from './opencode/launch.js';
import { QWEN_CODE_VERIFIED_VERSION } from './qwen-code/launch.js';

/** The version each adapter was proven with: what an eval set should name. */
export const PINNED_VERSIONS: Readonly<Record<AdapterKind, string>> = {
  'claude-code': CLAUDE_CODE_VERIFIED_VERSION,
  cline: CLINE_VERIFIED_VERSION,
  codex: CODEX_VERIFIED_VERSION,
  'copilot-cli': COPILOT_CLI_VERIFIED_VERSION,
  'factory-droid': FACTORY_DROID_VERIFIED_VERSION,
  'gemini-cli': GEMINI_CLI_VERIFIED_VERSION,
  'kilo-code': KILO_CODE_VERIFIED_VERSION,
  opencode: OPENCODE_VERIFIED_VERSION,
  'qwen-code': QWEN_CODE_VERIFIED_VERSION,
};

export interface AgentVersions {
  readonly kind: AdapterKind;
  readonly package: string;
  readonly pinned: string;
  /** The package's newest version, or null when npm did not answer (`unreachable` says why). */
  readonly newest: string | null;
  readonly unreachable?: string;
}

const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/u;

/** The newest version npm knows of a package, or why it could not say (within `timeoutMs`). */
async function newestOf(
  pkg: string,
  timeoutMs: number,
): Promise<{ newest: string | null; unreachable?: string }> {
  const r = await execa(
    'npm',
    ['view', pkg, 'version', '--fetch-retries=0', `--fetch-timeout=${timeoutMs}`],
    { reject: false, timeout: timeoutMs + 2000, env: { npm_config_update_notifier: 'false' } },
  );
  const out = r.stdout.trim();
  if (r.exitCode === 0 && SEMVER.test(out)) return { newest: out };
  const why = (r.stderr.split('\n').find((l) => /error/iu.test(l)) ?? r.shortMessage ?? 'no answer')
    .replace(/^npm error\s*/u, '')
    .slice(0, 160);
  return { newest: null, unreachable: why || 'no answer' };
}

/** Every adapter's pinned and newest version, asked one package at a time. */
export async function agentVersions(timeoutMs = 8000): Promise<AgentVersions[]> {
  const out: AgentVersions[] = [];
  for (const kind of ADAPTER_KINDS) {
    const pkg = AGENT_KINDS[kind].package;
    out.push({
      kind,
      package: pkg,
      pinned: PINNED_VERSIONS[kind],
      ...(await newestOf(pkg, timeoutMs)),
    });
  }
  return out;
}

/** One adapter's line, as `evalrig doctor` prints it. */
export function formatAgentVersions(v: AgentVersions): string {
  const newest =
    v.newest === null
      ? `newest: not known (npm did not answer: ${v.unreachable})`
      : v.newest === v.pinned
        ? 'the newest'
        : `newest ${v.newest}: not yet proven by the conformance suite`;
  return `  ${v.kind} (${v.package}): pinned ${v.pinned}, ${newest}`;
}
