import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import type { DockerClient } from './connection.js';
import { LABELS } from './container.js';

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
 * It is plain JavaScript run with `node -e`, with Node's own http and https
 * clients only: it needs no module resolution and no loader, whatever ran the
 * orchestrator (dist, or the sources through a loader in tests). An engine
 * behind TLS is reached with the files the orchestrator read (given by path
 * in argv, never the key itself: argv is world-readable in /proc), which the
 * reaper reads once at its start, so a file removed later does not matter.
 * An ssh:// engine is dialled as evalrig dials it (ssh2, loaded by its
 * absolute path; keys from the agent at SSH_AUTH_SOCK, the host's key one of
 * those known_hosts listed), once the orchestrator is gone.
 */
const REAPER_SOURCE = String.raw`
'use strict';
const cfg = JSON.parse(process.argv[1]);
for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(s, () => {});
const client = require(cfg.https ? 'node:https' : 'node:http');
// An ssh:// engine: one ssh connection (made once the orchestrator is gone),
// each HTTP call a channel running the engine's docker system dial-stdio.
let ssh;
function sshConnection() {
  if (!ssh) {
    ssh = new Promise((resolve, reject) => {
      const { Client } = require(cfg.ssh.module);
      const keys = cfg.ssh.hostKeys.map((k) => Buffer.from(k, 'base64'));
      const c = new Client();
      c.on('ready', () => resolve(c));
      c.on('error', (e) => { ssh = undefined; reject(e); });
      c.on('close', () => { ssh = undefined; });
      c.connect({
        host: cfg.ssh.host, port: cfg.ssh.port, username: cfg.ssh.username,
        agent: cfg.ssh.agent, readyTimeout: 5000,
        hostVerifier: (key) => keys.some((k) => k.equals(key)),
      });
    });
  }
  return ssh;
}
function dial(options, done) {
  sshConnection().then((c) => {
    const opened = (e, channel) => {
      if (e) return done(e);
      for (const m of ['setKeepAlive', 'setNoDelay', 'setTimeout', 'ref', 'unref']) channel[m] = () => channel;
      done(null, channel);
    };
    if (cfg.ssh.socket) c.openssh_forwardOutStreamLocal(cfg.ssh.socket, opened);
    else c.exec('docker system dial-stdio', opened);
  }, done);
}
const tls = {};
if (cfg.tls) {
  // Read now: the orchestrator (or its user) may remove them once it has ended.
  for (const k of ['ca', 'cert', 'key']) {
    try {
      tls[k] = require('node:fs').readFileSync(cfg.tls[k]);
    } catch {}
  }
}
const base = cfg.ssh
  ? { host: 'ssh-engine', createConnection: dial }
  : cfg.socketPath
    ? { socketPath: cfg.socketPath }
    : { host: cfg.host, port: cfg.port, ...tls, agent: false };
function call(method, path) {
  return new Promise((resolve, reject) => {
    const req = client.request({ ...base, method, path }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    // Bounded here, not by the socket's timeout (an ssh channel has none).
    const timer = setTimeout(() => req.destroy(new Error('timeout')), 5000);
    req.on('close', () => clearTimeout(timer));
    req.on('error', reject);
    req.end();
  });
}
async function sweepOnce() {
  const filters = encodeURIComponent(JSON.stringify({ label: cfg.labels }));
  const listed = await call('GET', '/containers/json?all=true&filters=' + filters);
  if (listed.status !== 200) throw new Error('list: ' + listed.status);
  const found = JSON.parse(listed.body);
  const ids = found.map((c) => c.Id);
  // The holders of network namespaces last: Podman keeps one while a container shares it.
  const holder = (c) => Boolean(c.Labels && c.Labels[cfg.placeLabel] !== undefined);
  for (const round of [found.filter((c) => !holder(c)), found.filter(holder)]) {
    await Promise.all(round.map((c) => call('DELETE', '/containers/' + c.Id + '?force=true&v=true')));
  }
  // The runs' private networks (services): removable once their containers are gone.
  const nets = await call('GET', '/networks?filters=' + filters);
  const netIds = nets.status === 200 ? JSON.parse(nets.body).map((n) => n.Id) : [];
  await Promise.all(netIds.map((id) => call('DELETE', '/networks/' + id)));
  return ids.length + netIds.length;
}
// The runs' disk quotas: lazily unmounted, so a container still holding one does not stop it.
// Swept again on every round: a mount command the orchestrator started before it
// died can land after the first sweep. Only this orchestrator's (by the mount's
// source): a campaign resumed in the same folder meanwhile keeps its own.
function unmountQuotas() {
  if (!cfg.mounts) return 0;
  try {
    const fs = require('node:fs');
    const prefix = cfg.mounts.replace(/\/*$/, '/');
    const mine = (line) => !cfg.mountsOwner ||
      ((line.split(' - ')[1] || '').split(' ')[1] || '').endsWith('.' + cfg.mountsOwner);
    const targets = fs.readFileSync('/proc/self/mountinfo', 'utf8').split('\n')
      .filter(mine)
      .map((line) => (line.split(' ')[4] || '').replace(/\\040/g, ' '))
      .filter((t) => t.startsWith(prefix))
      .sort((a, b) => b.length - a.length);
    for (const t of targets) require('node:child_process').spawnSync('umount', ['-l', t], { timeout: 10000 });
    return targets.length;
  } catch {
    return 0;
  }
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let started = false;
async function reap() {
  if (started) return;
  started = true;
  if (cfg.scratch) {
    try {
      require('node:fs').rmSync(cfg.scratch, { recursive: true, force: true });
    } catch {}
  }
  const deadline = Date.now() + cfg.sweepMs;
  let quiet = 0;
  while (Date.now() < deadline && quiet < 3) {
    const unmounted = unmountQuotas();
    try {
      quiet = (await sweepOnce()) + unmounted === 0 ? quiet + 1 : 0;
    } catch {
      quiet = 0;
    }
    if (quiet < 3) await sleep(1000);
  }
  process.exit(0);
}
process.stdin.on('data', () => {});
process.stdin.on('end', reap);
process.stdin.on('close', reap);
process.stdin.on('error', reap);
process.stdin.resume();
`;

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
  const config = {
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
    socketPath: endpoint.socketPath,
    host: endpoint.host,
    port: endpoint.port,
    https: endpoint.protocol === 'https',
    tls: client.endpoint?.tlsFiles,
    labels: [`${LABELS.managed}=true`, ...Object.entries(labels).map(([k, v]) => `${k}=${v}`)],
    placeLabel: LABELS.place,
    sweepMs: options.sweepMs ?? 60_000,
    scratch: options.scratch,
    mounts: options.mounts,
    mountsOwner: options.mountsOwner,
  };
  const child = spawn(process.execPath, ['-e', REAPER_SOURCE, JSON.stringify(config)], {
    detached: true,
    stdio: ['pipe', 'ignore', 'ignore'],
    // No NODE_OPTIONS: whatever loader the orchestrator runs under is not the reaper's.
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  });
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
