/**
 * An sshd of a test's own, in front of a Docker engine, so that
 * `ssh://root@127.0.0.1:PORT` can be tested as the Docker CLI uses it: the
 * client runs `docker system dial-stdio` over ssh, and that command (the
 * Docker CLI on the "remote" side) pipes its stdin/stdout to the engine named
 * by its DOCKER_HOST.
 *
 * It listens on a free loopback port with a host key of its own, takes one
 * key (held by an ssh-agent of its own: SSH_AUTH_SOCK) for root, and that key
 * is forced to nothing but `docker system dial-stdio` against the engine's
 * socket (`restrict`: no pty, no agent or X11 forwarding), or to a forwarding
 * of a socket (`ssh://root@127.0.0.1:PORT/path/docker.sock`, Podman's way:
 * `port-forwarding` given back for that). Nothing of the machine's ssh
 * set-up is read or changed (its own sshd_config, keys and authorized_keys
 * under its folder); only the privilege-separation folder /run/sshd, which
 * sshd insists on, is made when missing.
 *
 * Needs root and `/usr/sbin/sshd` (package openssh-server), `ssh-keygen`,
 * `ssh-agent`, `ssh-add` and `docker` on the PATH: {@link sshAvailable} says.
 *
 * @example
 * const gate = await startSshGateway(engine.host);
 * // evalrig run … --engine gate.address   with SSH_AUTH_SOCK=gate.agentSocket
 * await gate.stop();
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { freePort } from './second-engine.js';

const SSHD = '/usr/sbin/sshd';

export interface SshGateway {
  /** ssh://root@127.0.0.1:PORT */
  readonly address: string;
  /** The ssh-agent holding the one authorized key: what SSH_AUTH_SOCK is set to. */
  readonly agentSocket: string;
  /** Its known_hosts line: `[127.0.0.1]:PORT ssh-ed25519 AAAA…`. */
  readonly knownHostsLine: string;
  stop(): Promise<void>;
}

/** Whether this machine can run the gateway (root, sshd, the ssh tools, the docker CLI). */
export async function sshAvailable(): Promise<boolean> {
  if (process.getuid?.() !== 0 || !existsSync(SSHD)) return false;
  for (const tool of ['ssh-keygen', 'ssh-agent', 'ssh-add', 'docker']) {
    const found = await execa('sh', ['-c', `command -v ${tool}`], { reject: false });
    if (found.exitCode !== 0) return false;
  }
  return true;
}

async function waitUntil(check: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`ssh gateway: ${what} within ${ms} ms`);
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

function ended(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts the gateway in front of the engine at `dockerHost` (unix://…). */
export async function startSshGateway(dockerHost: string): Promise<SshGateway> {
  const root = await mkdtemp(path.join(tmpdir(), 'evalrig-ssh-'));
  const at = (f: string): string => path.join(root, f);
  const port = await freePort();
  await execa('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', at('host_key')]);
  await execa('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', at('client_key')]);
  const clientKey = (await readFile(at('client_key.pub'), 'utf8')).trim();
  // Whatever the client asks to run, this key runs the dial-stdio of one engine.
  const forced = `DOCKER_HOST=${dockerHost} exec docker system dial-stdio`;
  await writeFile(
    at('authorized_keys'),
    `restrict,port-forwarding,command="${forced}" ${clientKey}\n`,
    {
      mode: 0o600,
    },
  );
  await writeFile(
    at('sshd_config'),
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${at('host_key')}`,
      `PidFile ${at('sshd.pid')}`,
      `AuthorizedKeysFile ${at('authorized_keys')}`,
      // The folder is under /tmp (world-writable): its modes are the test's, not a user's.
      'StrictModes no',
      'UsePAM no',
      'PermitRootLogin prohibit-password',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'AllowUsers root',
      'Subsystem sftp internal-sftp',
      '',
    ].join('\n'),
  );
  await mkdir('/run/sshd', { recursive: true, mode: 0o755 });
  const log = openSync(at('sshd.log'), 'a');
  // Debian's bash reads ~/.bashrc for a command run by sshd, and this machine's root's runs
  // tools (pyenv) that cost every session 0.3 s: the gateway's own mount namespace hides it,
  // so that what is timed is ssh and the engine, not the host's shell set-up.
  const hideRc = 'for f in "$HOME/.bashrc"; do [ -f "$f" ] && mount --bind /dev/null "$f"; done';
  const sshd = spawn(
    'unshare',
    ['-m', '--propagation', 'private', 'sh', '-c', `${hideRc}; exec "$@"`, 'sh', SSHD].concat([
      '-D',
      '-e',
      '-f',
      at('sshd_config'),
    ]),
    { stdio: ['ignore', log, log] },
  );
  closeSync(log);
  const agentSocket = at('agent.sock');
  const agent = spawn('ssh-agent', ['-D', '-a', agentSocket], { stdio: 'ignore' });
  const stop = async (): Promise<void> => {
    for (const child of [sshd, agent]) {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await ended(child);
    }
    await rm(root, { recursive: true, force: true });
  };
  try {
    await waitUntil(() => listening(port), 10_000, 'sshd did not listen');
    await waitUntil(async () => existsSync(agentSocket), 10_000, 'ssh-agent did not start');
    await execa('ssh-add', ['-q', at('client_key')], { env: { SSH_AUTH_SOCK: agentSocket } });
  } catch (error) {
    const said = await readFile(at('sshd.log'), 'utf8').catch(() => '');
    await stop();
    throw new Error(`${(error as Error).message}\n${said}`, { cause: error });
  }
  return {
    address: `ssh://root@127.0.0.1:${port}`,
    agentSocket,
    knownHostsLine: `[127.0.0.1]:${port} ${(await readFile(at('host_key.pub'), 'utf8')).trim().split(/\s+/u).slice(0, 2).join(' ')}`,
    stop,
  };
}
