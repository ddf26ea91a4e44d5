/**
 * What a run's pod is given once it runs: the folders copied in (a read-only
 * one by the keeper, whose mount the agent only reads), the files (the
 * agent's binary: the keeper's, readable by the agent), the working directory
 * when no folder made it, and the socket tunnel with its program.
 */
import { readFile, stat } from 'node:fs/promises';
import { SandboxError } from '../errors.js';
import type { Owner, SandboxSpec } from '../types.js';
import { readableMode, TUNNEL_PATH } from './pod-layout.js';
import type { KubernetesSandbox } from './sandbox.js';

export interface PodFill {
  readonly agent: Owner;
  readonly keeper: Owner;
  readonly routes: ReadonlyMap<string, string>;
  /** The spec's working directory, when it is below the container's. */
  readonly workingDir?: string;
  /** The bundled tunnel program on the host. */
  readonly tunnelProgram: string;
}

export async function fillPod(
  sandbox: KubernetesSandbox,
  spec: SandboxSpec,
  fill: PodFill,
): Promise<void> {
  for (const f of spec.folders ?? [])
    await sandbox.copyIn(f.host, f.container, f.readOnly ? fill.keeper : fill.agent);
  for (const f of spec.files ?? []) {
    const mode = readableMode((await stat(f.host)).mode);
    const content = await readFile(f.host);
    await sandbox.writeFiles([{ path: f.container, content, mode, owner: fill.keeper }]);
  }
  // Made by the agent when no folder copied in made it: the runtime would make it root's.
  if (fill.workingDir) await sandbox.exec(['mkdir', '-p', fill.workingDir], { workingDir: '/' });
  if (fill.routes.size === 0) return;
  const program = await readFile(fill.tunnelProgram).catch((error: unknown) => {
    throw new SandboxError(
      sandbox.engine,
      'start',
      `the tunnel program ${fill.tunnelProgram} is missing (run npm run build)`,
      { cause: error },
    );
  });
  await sandbox.writeFiles([
    { path: TUNNEL_PATH, content: program, mode: 0o644, owner: fill.keeper },
  ]);
  await sandbox.openTunnel(fill.routes, TUNNEL_PATH);
}
