import type { AdapterKind } from '../config/agent-kinds.js';
import { GATEWAY_SOCKET_NAME } from '../gateway/index.js';
import type { SandboxSpec } from '../sandbox/index.js';
import type { AgentAdapter, AgentFile } from './adapter.js';
import { CLAUDE_CODE_ADAPTER } from './claude-code/adapter.js';
import { CLINE_ADAPTER } from './cline/adapter.js';
import { CODEX_ADAPTER } from './codex/adapter.js';
import { COPILOT_CLI_ADAPTER } from './copilot-cli/adapter.js';
import { FACTORY_DROID_ADAPTER } from './factory-droid/adapter.js';
import { GEMINI_CLI_ADAPTER } from './gemini-cli/adapter.js';
import type { AgentInstall } from './install.js';
import { KILO_CODE_ADAPTER } from './kilo-code/adapter.js';
import { OPENCODE_ADAPTER } from './opencode/adapter.js';
import { QWEN_CODE_ADAPTER } from './qwen-code/adapter.js';
import { NODE_RUNTIME } from './support.js';

/**
 * Every adapter, by its kind: a kind of AGENT_KINDS without its adapter here (or one whose
 * `type` is not its key) does not compile.
 */
export const AGENT_ADAPTERS = {
  'claude-code': CLAUDE_CODE_ADAPTER,
  cline: CLINE_ADAPTER,
  codex: CODEX_ADAPTER,
  'copilot-cli': COPILOT_CLI_ADAPTER,
  'factory-droid': FACTORY_DROID_ADAPTER,
  'gemini-cli': GEMINI_CLI_ADAPTER,
  'kilo-code': KILO_CODE_ADAPTER,
  opencode: OPENCODE_ADAPTER,
  'qwen-code': QWEN_CODE_ADAPTER,
} as const satisfies { readonly [K in AdapterKind]: AgentAdapter<K> };

/** The agents evalrig installs and plays itself (a `command` agent is the eval set's own). */
export type AdapterType = AdapterKind;

/** What a run mounts beside the agent, found on the host: the Node runtime, its settings file, its unpacked folder, its driver. */
export interface AgentSupport {
  readonly driver?: string;
  readonly node?: string;
  readonly settings?: string;
  readonly unpacked?: string;
}

/** The files of `adapter` a run needs in its container: its binary (or package folder), the relay, the Node runtime, settings and unpacked folder if any. */
export function agentFiles(
  adapter: AgentAdapter,
  install: AgentInstall,
  relay: string | undefined,
  support: AgentSupport = {},
): AgentFile[] {
  const host = adapter.packageDir ? adapter.packageDir(install) : install.binary;
  const files: AgentFile[] = [{ host, container: adapter.containerBinary }];
  if (adapter.containerRelay !== undefined) {
    if (relay === undefined) throw new Error(`the ${adapter.type} adapter needs its model relay`);
    files.push({ host: relay, container: adapter.containerRelay });
  }
  if (adapter.runtime === 'node') {
    if (support.node === undefined) throw new Error(`the ${adapter.type} adapter needs Node`);
    files.push({ host: support.node, container: NODE_RUNTIME.container });
  }
  if (adapter.settings) {
    if (support.settings === undefined)
      throw new Error(`the ${adapter.type} adapter needs its settings`);
    files.push({ host: support.settings, container: adapter.settings.container });
  }
  if (adapter.driver) {
    if (support.driver === undefined)
      throw new Error(`the ${adapter.type} adapter needs its driver`);
    files.push({ host: support.driver, container: adapter.driver.container });
  }
  if (adapter.unpacked) {
    if (support.unpacked === undefined)
      throw new Error(`the ${adapter.type} adapter needs its unpacked folder`);
    files.push({ host: support.unpacked, container: adapter.unpacked.container });
  }
  return files;
}

/**
 * What a run's sandbox shares of the agent: its files (none when they are built into its
 * image), and the gateway's folder with its one socket. Mounted read-only where the sandbox
 * mounts host folders, copied in and tunnelled otherwise.
 */
export function adapterShares(
  adapter: AgentAdapter,
  files: readonly AgentFile[],
  gatewayDir: string,
): Required<Pick<SandboxSpec, 'files' | 'sockets'>> {
  return {
    files: files.map((f) => ({ host: f.host, container: f.container })),
    sockets: [{ host: gatewayDir, container: adapter.modelDir, names: [GATEWAY_SOCKET_NAME] }],
  };
}

/** How one agent's tool results read: a refusal of its own, a shell call's exit code. */
export interface ToolResultForms {
  refused(result: string): boolean;
  exitCode(result: string): number | null;
}

/** The tool result forms of the adapter whose package a run recorded; none for a command agent. */
export function toolResultForms(agentPackage: string | undefined): ToolResultForms {
  const adapter: AgentAdapter | undefined = Object.values(AGENT_ADAPTERS).find(
    (a) => a.package === agentPackage,
  );
  return {
    refused: (result) => adapter?.refusals.some((f) => f.test(result)) ?? false,
    exitCode: (result) => adapter?.exitCodeOf?.(result) ?? null,
  };
}
