/**
 * A second Docker engine, started by a test and only for it: its own
 * data-root, exec-root, pidfile and unix socket, a bridge interface of its own
 * with no address and no iptables, so it never touches the engine the other
 * tests (and other people) use. (`--bridge none` would not do: a dockerd
 * started with it deletes the host's `docker0`, the first engine's bridge.) Tests
 * kill it (SIGKILL), freeze it (SIGSTOP) and bring it back to see what evalrig
 * does when its engine fails mid-campaign.
 *
 * Needs root and `dockerd` on the PATH. One engine per test process: its
 * folder (under os.tmpdir()) holds the base image loaded once from the first
 * engine (`docker save | docker -H <second> load`), so every test of the
 * process reuses it; `stop()` ends the engine and its containerd and removes
 * the folder.
 *
 * @example
 * const engine = await startSecondEngine();
 * const client = engine.client();           // a DockerClient on the second engine
 * await engine.loadImage('evalrig-base:bookworm');
 * engine.freeze(); ... engine.thaw();
 * await engine.kill(); await engine.restart();
 * await engine.stop();
 *
 * // Or on a loopback TLS port, client verified, as `dockerd --tlsverify`:
 * const tls = await startSecondEngine({ tls: true });
 * // DOCKER_HOST=tls.tcpHost DOCKER_TLS_VERIFY=1 DOCKER_CERT_PATH=tls.certPath
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import {
  chmod,
  copyFile,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  rm,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { connectDocker, pingDocker, type DockerClient } from '../../src/runtime/index.js';

export interface SecondEngine {
  /** unix:///…/docker.sock: what DOCKER_HOST is set to for a CLI run against it. */
  readonly host: string;
  /**
   * tcp://127.0.0.1:PORT when started with `{ tcp: true }`: the same engine on a
   * loopback TCP port (no TLS: loopback only, and only while the test runs).
   */
  readonly tcpHost?: string;
  /**
   * With `{ tls: true }`: the client's folder (ca.pem, cert.pem, key.pem), what
   * DOCKER_CERT_PATH is set to; `tcpHost` then speaks TLS only and verifies the
   * client's certificate (`--tlsverify`).
   */
  readonly certPath?: string;
  readonly root: string;
  /** The dockerd process id (changes on restart). */
  pid(): number;
  /** A fresh client on this engine (a fresh one: a lost engine's state is per client). */
  client(): DockerClient;
  /** Loads an image of the first engine into this one, once per process. */
  loadImage(tag: string): Promise<void>;
  /** Thaws, or restarts a killed engine: afterwards it answers. */
  ready(): Promise<void>;
  /** SIGSTOP: the engine stops answering, its socket stays. */
  freeze(): void;
  /** SIGCONT. */
  thaw(): void;
  /** SIGKILL, and waits until the process is gone. */
  kill(): Promise<void>;
  /** Starts dockerd again on the same folders and waits until it answers. */
  restart(): Promise<void>;
  /** Ends the engine and its containerd, and removes its folder. */
  stop(): Promise<void>;
}

const READY_MS = 60_000;

async function waitUntil(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`second engine: ${what} within ${ms} ms`);
}

function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}

/** Every process's id, parent and command line, read from /proc (no procps needed). */
async function processes(): Promise<Array<{ pid: number; ppid: number; cmd: string }>> {
  const found: Array<{ pid: number; ppid: number; cmd: string }> = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/u.test(name)) continue;
    try {
      const cmd = (await readFile(`/proc/${name}/cmdline`, 'utf8')).replace(/\0/gu, ' ');
      const stat = await readFile(`/proc/${name}/stat`, 'utf8');
      // The fields after the command name (in parentheses): state, then the parent's pid.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      found.push({ pid: Number(name), ppid, cmd });
    } catch {
      // Ended meanwhile.
    }
  }
  return found;
}

let shared: Promise<SecondEngine> | undefined;

export interface SecondEngineOptions {
  /** Also listen on a free loopback TCP port (see {@link SecondEngine.tcpHost}). */
  readonly tcp?: boolean;
  /**
   * Listen on a loopback TCP port with TLS, both sides verified, as
   * `dockerd --tlsverify` does: a CA, a server certificate for 127.0.0.1 and a
   * client certificate are made in the engine's folder (see {@link makeCertificates}).
   */
  readonly tls?: boolean;
  /**
   * Containers on one of its networks reach each other (a run and its
   * services). The host's FORWARD chain, which the first engine set to DROP,
   * also filters what crosses a bridge (bridge-nf-call-iptables), and this
   * engine writes no rule of its own (`--iptables=false`): its networks take
   * their subnets from {@link SECOND_ENGINE_POOL}, and one rule, removed by
   * `stop()`, accepts the traffic that stays on one bridge within it, as the
   * remote machine's own dockerd would (its ICC rule). Nothing routed is
   * accepted: the host and other bridges stay out of reach.
   */
  readonly bridged?: boolean;
}

/** The address pool of a `bridged` second engine's networks. */
export const SECOND_ENGINE_POOL = '10.213.0.0/16';

/** The one FORWARD rule of a `bridged` engine (inserted, then deleted, as these arguments). */
const BRIDGED_RULE = ['FORWARD', '-s', SECOND_ENGINE_POOL, '-d', SECOND_ENGINE_POOL].concat([
  '-m',
  'physdev',
  '--physdev-is-bridged',
  '-m',
  'comment',
  '--comment',
  'evalrig second engine: within one bridge',
  '-j',
  'ACCEPT',
]);

/** The files {@link makeCertificates} writes: a client's folder and the server's files. */
export interface Certificates {
  /** ca.pem, cert.pem, key.pem: a DOCKER_CERT_PATH. */
  readonly client: string;
  readonly ca: string;
  readonly serverCert: string;
  readonly serverKey: string;
}

/**
 * A fresh CA (EC P-256 keys: milliseconds, not the seconds of RSA), a server
 * certificate for IP 127.0.0.1 and a client certificate, written under `dir`
 * with `openssl`. Two calls make two CAs that do not trust each other.
 */
export async function makeCertificates(dir: string): Promise<Certificates> {
  const client = path.join(dir, 'client');
  await mkdir(client, { recursive: true });
  const at = (f: string): string => path.join(dir, f);
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  const openssl = (args: string[]) => execa('openssl', args, { cwd: dir });
  await openssl(
    ['req', '-x509', '-new', ...ec, '-keyout', 'ca-key.pem', '-out', 'ca.pem'].concat([
      '-days',
      '2',
      '-subj',
      '/CN=evalrig test CA',
    ]),
  );
  const sign = async (name: string, subject: string, ext: string): Promise<void> => {
    await writeFile(at(`${name}.ext`), ext);
    await openssl(
      ['req', '-new', ...ec, '-keyout', `${name}-key.pem`, '-out', `${name}.csr`].concat([
        '-subj',
        subject,
      ]),
    );
    await openssl(
      ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca-key.pem'].concat([
        '-CAcreateserial',
        '-days',
        '2',
        '-out',
        `${name}-cert.pem`,
        '-extfile',
        `${name}.ext`,
      ]),
    );
  };
  await sign(
    'server',
    '/CN=127.0.0.1',
    'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n',
  );
  await sign('client', '/CN=evalrig test client', 'extendedKeyUsage=clientAuth\n');
  await copyFile(at('ca.pem'), path.join(client, 'ca.pem'));
  await copyFile(at('client-cert.pem'), path.join(client, 'cert.pem'));
  await copyFile(at('client-key.pem'), path.join(client, 'key.pem'));
  await chmod(path.join(client, 'key.pem'), 0o600);
  return {
    client,
    ca: at('ca.pem'),
    serverCert: at('server-cert.pem'),
    serverKey: at('server-key.pem'),
  };
}

/** A loopback TCP port nothing listens on now. */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/**
 * The second engine of this test process (started on first call; the options
 * of that call decide how it listens until it is stopped).
 */
export function startSecondEngine(options: SecondEngineOptions = {}): Promise<SecondEngine> {
  shared ??= launch(options);
  return shared;
}

async function launch(options: SecondEngineOptions): Promise<SecondEngine> {
  const root = await mkdtemp(path.join(tmpdir(), 'evalrig-second-engine-'));
  const dataRoot = path.join(root, 'data');
  const execRoot = path.join(root, 'exec');
  const pidfile = path.join(root, 'dockerd.pid');
  const socket = path.join(root, 'docker.sock');
  const host = `unix://${socket}`;
  const tcpHost = options.tcp || options.tls ? `tcp://127.0.0.1:${await freePort()}` : undefined;
  const certs = options.tls ? await makeCertificates(path.join(root, 'tls')) : undefined;
  const tlsFlags = certs
    ? ['--tlsverify', '--tlscacert', certs.ca, '--tlscert', certs.serverCert].concat([
        '--tlskey',
        certs.serverKey,
      ])
    : [];
  await mkdir(dataRoot, { recursive: true });
  await mkdir(execRoot, { recursive: true });
  const loaded = new Map<string, Promise<void>>();
  let child: ChildProcess | undefined;
  const bridge = `evalrig-b${process.pid % 100000}`;
  await execa('ip', ['link', 'add', bridge, 'type', 'bridge'], { reject: false });

  const start = async (): Promise<void> => {
    const log = openSync(path.join(root, 'dockerd.log'), 'a');
    child = spawn(
      'dockerd',
      [
        '--data-root',
        dataRoot,
        '--exec-root',
        execRoot,
        '--pidfile',
        pidfile,
        '-H',
        host,
        ...(tcpHost ? ['-H', tcpHost, ...tlsFlags] : []),
        '--bridge',
        bridge,
        '--iptables=false',
        '--ip-masq=false',
        '--ip-forward=false',
        ...(options.bridged
          ? ['--default-address-pool', `base=${SECOND_ENGINE_POOL},size=24`]
          : []),
      ],
      { stdio: ['ignore', log, log], detached: true },
    );
    closeSync(log);
    child.unref();
    const client = connectDocker({ DOCKER_HOST: host });
    await waitUntil(
      () =>
        pingDocker(client, 1000).then(
          () => true,
          () => false,
        ),
      READY_MS,
      'no answer',
    );
  };
  if (options.bridged) await execa('iptables', ['-I', ...BRIDGED_RULE]);
  await start();

  const pid = (): number => child?.pid ?? 0;
  const endContainerd = async (): Promise<void> => {
    const file = path.join(execRoot, 'containerd', 'containerd.pid');
    if (!existsSync(file)) return;
    const cp = Number((await readFile(file, 'utf8')).trim());
    if (cp > 0 && !gone(cp)) {
      await waitUntil(async () => gone(cp), 5_000, 'containerd did not end').catch(() =>
        process.kill(cp, 'SIGKILL'),
      );
      await waitUntil(async () => gone(cp), 5_000, 'containerd did not end on SIGKILL');
    }
    await rm(file, { force: true });
  };
  const engine: SecondEngine = {
    host,
    tcpHost,
    certPath: certs?.client,
    root,
    pid,
    client: () => connectDocker({ DOCKER_HOST: host }),
    loadImage(tag) {
      let p = loaded.get(tag);
      if (!p) {
        p = (async () => {
          await execa('bash', [
            '-c',
            'set -o pipefail; docker save "$1" | docker -H "$2" load -q',
            'load',
            tag,
            host,
          ]);
        })();
        loaded.set(tag, p);
      }
      return p;
    },
    async ready() {
      if (gone(pid())) await start();
      else process.kill(pid(), 'SIGCONT');
    },
    freeze: () => process.kill(pid(), 'SIGSTOP'),
    thaw: () => {
      if (!gone(pid())) process.kill(pid(), 'SIGCONT');
    },
    async kill() {
      const p = pid();
      process.kill(p, 'SIGKILL');
      await waitUntil(async () => gone(p), 10_000, `pid ${p} still there after SIGKILL`);
      await rm(pidfile, { force: true });
      // Its containerd ends on its own a moment later; a restart before then
      // would wait on a containerd that is going away.
      await endContainerd();
    },
    restart: start,
    async stop() {
      const p = pid();
      if (!gone(p)) {
        process.kill(p, 'SIGCONT');
        process.kill(p, 'SIGTERM');
        await waitUntil(async () => gone(p), 30_000, `pid ${p} did not end on SIGTERM`).catch(() =>
          process.kill(p, 'SIGKILL'),
        );
      }
      await endContainerd();
      await execa('ip', ['link', 'del', bridge], { reject: false });
      if (options.bridged) await execa('iptables', ['-D', ...BRIDGED_RULE], { reject: false });
      // Containers of a killed engine keep running under their shims: end them
      // (only this engine's: their command line names its folder).
      const procs = await processes();
      const shims = procs.filter((p) => p.cmd.includes('containerd-shim') && p.cmd.includes(root));
      for (const shim of shims) {
        for (const c of procs.filter((p) => p.ppid === shim.pid)) process.kill(c.pid, 'SIGKILL');
        if (!gone(shim.pid)) process.kill(shim.pid, 'SIGKILL');
      }
      // Whatever is still mounted under the folder (a container's rootfs) goes first.
      const mounts = (await readFile('/proc/self/mounts', 'utf8'))
        .split('\n')
        .map((l) => l.split(' ')[1] ?? '')
        .filter((m) => m.startsWith(root))
        .sort((a, b) => b.length - a.length);
      for (const m of mounts) await execa('umount', ['-l', m], { reject: false });
      await rm(root, { recursive: true, force: true });
      shared = undefined;
    },
  };
  return engine;
}
