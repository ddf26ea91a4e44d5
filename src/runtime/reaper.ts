import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { EvalrigError } from '../errors/index.js';
import type { ReaperConfig, ReaperKubernetes } from './reaper/config.js';
import { projectRoot } from './root.js';
import type { Socket } from 'node:net';
import type { DockerClient } from './connection.js';
import { LABELS } from '../seam/index.js';

/**
 * The reaper: a small detached process, one per orchestrator, that removes
 * the orchestrator's containers and networks (by label) once the orchestrator is gone,
 * however it ended, SIGKILL included. It is testcontainers' Ryuk without a
 * container: a Ryuk container would need the Docker socket mounted and an
 * image pulled; a process needs neither.
 *
 * It holds the read end of a pipe whose write end only the orchestrator
 * holds, so the kernel closes it when the orchestrator dies and the reaper
 * reads EOF: no polling of pids (which the system reuses). It runs in its own
 * session (detached), so the SIGINT a terminal sends to its process group
 * does not reach it, and ignores SIGINT, SIGTERM and SIGHUP anyway. On EOF it
 * lists and removes the containers carrying the labels, and keeps doing so
 * until three listings a second apart find none (a creation that was in
 * flight at the engine when the orchestrator died lands within them), or
 * until `sweepMs` has passed (an engine that does not answer); then it exits.
 *
 * It is a program of its own (./reaper/main.ts, bundled by `npm run build` into
 * dist/reaper/reaper.cjs) run with Node and no loader, whatever ran the orchestrator (dist, or
 * the sources through a loader in tests). An engine behind TLS is reached with the files the
 * orchestrator read (given by path in argv, never the key itself: argv is world-readable in
 * /proc), which the reaper reads once at its start, so a file removed later does not matter.
 * An ssh:// engine is dialled as evalrig dials it (ssh2, loaded by its absolute path; keys from
 * the agent at SSH_AUTH_SOCK, the host's key one of those known_hosts listed), once the
 * orchestrator is gone. A cluster's reaper (startClusterReaper) deletes the session's Jobs,
 * pods and anchor by label through the cluster's API, its client in a bundle of its own beside
 * the program (dist/reaper/kubernetes-api.cjs), loaded only for a cluster.
 */

/** The bundled program: refused loudly when missing, since a run without its reaper could leak containers. */
function reaperProgram(): string {
  const program = path.join(projectRoot(), 'dist', 'reaper', 'reaper.cjs');
  if (!existsSync(program))
    throw new EvalrigError(`the reaper's program ${program} is missing: run npm run build`);
  return program;
}

/** A running reaper; `release` is the orchestrator's normal end (the reaper then sweeps and exits). */
export interface Reaper {
  readonly pid: number | undefined;
  release(): void;
}

export interface ReaperOptions {
  /** How long the reaper keeps trying after the orchestrator ended (default 60 s). */
  readonly sweepMs?: number;
  /** The orchestrator's scratch folder (runtime/scratch.ts), removed with the containers. */
  readonly scratch?: string;
  /** A folder under which every mount (the runs' disk quotas) is unmounted. */
  readonly mounts?: string;
  /** Only the mounts under `mounts` whose source ends with `.<owner>` (all when absent). */
  readonly mountsOwner?: string;
}

/**
 * Starts the reaper of this process's containers carrying `labels` (evalrig's
 * managed label is implied). Start it before the first container is created.
 *
 * @example
 * const reaper = startReaper(client, { [LABELS.session]: session });
 * try { ... } finally { reaper.release(); }
 */
export function startReaper(
  client: DockerClient,
  labels: Readonly<Record<string, string>>,
  options: ReaperOptions = {},
): Reaper {
  const endpoint = client.endpoint?.options ?? { socketPath: '/var/run/docker.sock' };
  const ssh = client.endpoint?.ssh;
  const config: ReaperConfig = {
    ...(ssh
      ? {
          ssh: {
            host: ssh.host,
            port: ssh.port,
            username: ssh.username,
            agent: ssh.agent,
            hostKeys: ssh.hostKeys.map((k) => k.toString('base64')),
            socket: ssh.socket,
            module: createRequire(import.meta.url).resolve('ssh2'),
          },
        }
      : {}),
    // Which end the reaper dials: ssh when given, else the socket, else TCP (engine.ts).
    ...(ssh ? {} : { socketPath: endpoint.socketPath, host: endpoint.host, port: endpoint.port }),
    https: endpoint.protocol === 'https',
    tls: client.endpoint?.tlsFiles,
    labels: [`${LABELS.managed}=true`, ...Object.entries(labels).map(([k, v]) => `${k}=${v}`)],
    placeLabel: LABELS.place,
    sweepMs: options.sweepMs ?? 60_000,
    scratch: options.scratch,
    mounts: options.mounts,
    mountsOwner: options.mountsOwner,
  };
  return spawnReaper(config, { PATH: process.env.PATH ?? '/usr/bin:/bin' });
}

/** Where a cluster's reaper finds it: as ./reaper/config.ts's `kubernetes` section. */
export type ClusterReaperTarget = ReaperKubernetes;

/**
 * Starts the reaper of this process's objects on a cluster (Jobs, their pods, the session's
 * anchor) carrying `labels` (`key=value`, label-safe already: as the objects carry them).
 * Started at the provider's open, released at its close, as an engine's.
 */
export function startClusterReaper(
  cluster: ClusterReaperTarget,
  labels: readonly string[],
  options: Pick<ReaperOptions, 'sweepMs' | 'scratch'> = {},
): Reaper {
  const config: ReaperConfig = {
    kubernetes: cluster,
    https: true,
    labels,
    placeLabel: LABELS.place,
    sweepMs: options.sweepMs ?? 60_000,
    scratch: options.scratch,
  };
  // What the default kubeconfig lookup reads, when the address names no file.
  const lookup = ['HOME', 'KUBECONFIG', 'KUBERNETES_SERVICE_HOST', 'KUBERNETES_SERVICE_PORT'];
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin' };
  for (const key of cluster.kubeconfig ? [] : lookup) {
    const value = process.env[key];
    if (value !== undefined) env[key] = value;
  }
  return spawnReaper(config, env);
}

/** The program started on `config`, detached, with only `env` (no loader of the orchestrator's). */
function spawnReaper(config: ReaperConfig, env: Readonly<Record<string, string>>): Reaper {
  const program = reaperProgram();
  const logFile = process.env.EVALRIG_REAPER_LOG;
  const log = logFile ? openSync(logFile, 'a', 0o600) : undefined;
  const child = spawn(process.execPath, [program, JSON.stringify(config)], {
    detached: true,
    // Its errors go nowhere, unless EVALRIG_REAPER_LOG names a file to append them to.
    stdio: ['pipe', 'ignore', log ?? 'ignore'],
    // No NODE_OPTIONS: whatever loader the orchestrator runs under is not the reaper's.
    env,
  });
  if (log !== undefined) closeSync(log); // the child holds its own
  child.on('error', () => undefined);
  const pipe = child.stdin as unknown as Socket;
  pipe.on('error', () => undefined);
  // Neither the child nor the pipe keeps the orchestrator alive.
  child.unref();
  pipe.unref();
  return {
    pid: child.pid,
    release: () => {
      pipe.destroy();
    },
  };
}
