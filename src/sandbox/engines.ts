/**
 * Docker engines named on the command line (`--engine`, repeatable), spelled
 * as the Docker CLI spells them:
 *
 * - `unix:///path/docker.sock` (or a bare absolute path);
 * - `tcp://host:port`: TLS when `DOCKER_TLS_VERIFY` is set, with `ca.pem`,
 *   `cert.pem` and `key.pem` from `DOCKER_CERT_PATH` (default `~/.docker`);
 *   the default port is 2376 with TLS, 2375 without;
 * - `ssh://user@host[:port]`: the engine's `docker system dial-stdio` over
 *   one ssh connection kept open, its channels multiplexed (ssh-transport.ts),
 *   keys from `SSH_AUTH_SOCK`'s agent, the host's key checked against
 *   known_hosts as ssh does (known-hosts.ts); `ssh://user@host[:port]/path.sock`
 *   (Podman's spelling) reaches the socket at that path by ssh's own socket
 *   forwarding instead, no command run over there;
 * - any other word: a Docker context of that name, read from
 *   `$DOCKER_CONFIG/contexts` (default `~/.docker/contexts`), its TLS files included.
 *
 * The local engine (the default socket) shares the host's disk; any other is
 * driven as remote (nothing mounted) unless it is also named by
 * `--engine-mounts`, which says its engine sees the host's paths (a second
 * dockerd on the same machine, say).
 *
 * @example
 * engineAddress('tcp://10.0.0.5:2376', { DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: '/certs' })
 * // { name: 'tcp://10.0.0.5:2376', options: { protocol: 'https', host: '10.0.0.5', port: '2376', ca, cert, key } }
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import Docker from 'dockerode';
import { InputError } from '../errors/index.js';
import { knownHostKeys, knownHostsFiles } from './known-hosts.js';
import { schemeOf } from './scheme.js';
import { SshAgent } from './ssh-transport.js';
import {
  EngineHealth,
  EngineProfile,
  type DockerClient,
  type DockerEndpoint,
  type SshTarget,
  type TlsFiles,
} from '../runtime/index.js';

/** Sockets where a Docker engine of this machine listens by default. */
const LOCAL_SOCKETS = new Set(['/var/run/docker.sock', '/run/docker.sock']);

export interface EngineAddress {
  /** As given (a context's name, or its address). */
  readonly name: string;
  /** Its address, as DOCKER_HOST would spell it. */
  readonly where: string;
  readonly options: Docker.DockerOptions;
  /** Where its TLS files were read from (the reaper reads them again itself). */
  readonly tlsFiles?: TlsFiles;
  /** The engine of this machine's default socket: its containers can mount host folders. */
  readonly local: boolean;
  /** An ssh:// engine: where, and the host keys that prove it. */
  readonly ssh?: SshTarget;
}

interface Tls {
  readonly ca: Buffer;
  readonly cert: Buffer;
  readonly key: Buffer;
  readonly files: TlsFiles;
}

function tlsFilesIn(dir: string): TlsFiles {
  return {
    ca: path.join(dir, 'ca.pem'),
    cert: path.join(dir, 'cert.pem'),
    key: path.join(dir, 'key.pem'),
  };
}

function readTls(dir: string, flag: string): Tls {
  const files = tlsFilesIn(dir);
  const read = (file: string): Buffer => {
    try {
      return readFileSync(file);
    } catch (error) {
      throw new InputError(
        `${flag}: TLS is asked for but ${file} cannot be read (${(error as NodeJS.ErrnoException).code ?? error})`,
      );
    }
  };
  return { ca: read(files.ca), cert: read(files.cert), key: read(files.key), files };
}

function dockerConfigDir(env: NodeJS.ProcessEnv, home: string): string {
  return env.DOCKER_CONFIG?.trim() || path.join(home, '.docker');
}

function parseAddress(
  name: string,
  host: string,
  tls: Tls | undefined,
  env: NodeJS.ProcessEnv,
  home: string,
): EngineAddress {
  const flag = `--engine ${JSON.stringify(name)}`;
  if (host.startsWith('/') || host.startsWith('unix://')) {
    const socketPath = host.startsWith('/') ? host : host.slice('unix://'.length);
    if (!socketPath.startsWith('/'))
      throw new InputError(`${flag}: a unix socket path must be absolute`);
    return {
      name,
      where: `unix://${socketPath}`,
      options: { socketPath },
      local: LOCAL_SOCKETS.has(socketPath),
    };
  }
  let url: URL;
  try {
    url = new URL(host);
  } catch {
    throw new InputError(
      `${flag}: not an engine address (unix://, tcp://, ssh://) nor a Docker context name`,
    );
  }
  if (url.protocol === 'tcp:' || url.protocol === 'http:' || url.protocol === 'https:') {
    const secure = tls !== undefined || url.protocol === 'https:';
    const port = url.port || (secure ? '2376' : '2375');
    const options: Docker.DockerOptions = {
      protocol: secure ? 'https' : 'http',
      host: url.hostname,
      port,
      ...(tls ? { ca: tls.ca, cert: tls.cert, key: tls.key } : {}),
    };
    return { name, where: host, options, local: false, ...(tls ? { tlsFiles: tls.files } : {}) };
  }
  if (url.protocol === 'ssh:') {
    if (!url.username)
      throw new InputError(`${flag}: an ssh:// engine names its user (ssh://user@host)`);
    const agent = env.SSH_AUTH_SOCK;
    const port = url.port || '22';
    // As the CLI's ssh: the host's key must be one known_hosts lists (dockerode would take any).
    const known = knownHostKeys(url.hostname, Number(port), knownHostsFiles(home));
    if (known.keys.length === 0) {
      throw new InputError(
        `${flag}: no ssh host key is known for ${known.name} (~/.ssh/known_hosts, /etc/ssh/ssh_known_hosts): add its key there, as ssh would ask you to`,
      );
    }
    const username = decodeURIComponent(url.username);
    const options = {
      protocol: 'ssh',
      host: url.hostname,
      port,
      username,
      sshOptions: {
        ...(agent ? { agent } : {}),
        hostVerifier: (key: Buffer) => known.accepts(key),
      },
    } as Docker.DockerOptions;
    const socket = decodeURIComponent(url.pathname);
    const ssh: SshTarget = {
      host: url.hostname,
      port: Number(port),
      username,
      ...(agent ? { agent } : {}),
      hostKeys: known.keys.filter((k) => known.accepts(k)),
      ...(socket !== '' && socket !== '/' ? { socket } : {}),
    };
    return { name, where: host, options, local: false, ssh };
  }
  throw new InputError(
    `${flag}: ${url.protocol}// engines are not supported (unix://, tcp://, ssh://)`,
  );
}

/** A Docker context's endpoint, as the Docker CLI stores it. */
function contextAddress(name: string, env: NodeJS.ProcessEnv, home: string): EngineAddress {
  const flag = `--engine ${JSON.stringify(name)}`;
  const id = createHash('sha256').update(name).digest('hex');
  const contexts = path.join(dockerConfigDir(env, home), 'contexts');
  let meta: unknown;
  try {
    meta = JSON.parse(readFileSync(path.join(contexts, 'meta', id, 'meta.json'), 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(
      code === 'ENOENT'
        ? `${flag}: no Docker context of that name in ${contexts} (nor an address: unix://, tcp://, ssh://)`
        : `${flag}: the context's meta.json cannot be read (${code ?? (error as Error).message})`,
    );
  }
  const endpoint = (
    meta as { Endpoints?: { docker?: { Host?: unknown; SkipTLSVerify?: unknown } } }
  ).Endpoints?.docker;
  if (typeof endpoint?.Host !== 'string' || endpoint.Host === '') {
    throw new InputError(`${flag}: the context has no docker endpoint Host`);
  }
  const files = tlsFilesIn(path.join(contexts, 'tls', id, 'docker'));
  let tls: Tls | undefined;
  try {
    tls = {
      ca: readFileSync(files.ca),
      cert: readFileSync(files.cert),
      key: readFileSync(files.key),
      files,
    };
  } catch {
    tls = undefined;
  }
  return { ...parseAddress(name, endpoint.Host, tls, env, home), name };
}

/** Resolves one `--engine` value (see the module's header). */
export function engineAddress(
  spec: string,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): EngineAddress {
  const value = spec.trim();
  if (value === '') throw new InputError('--engine: an empty engine name');
  // A cluster's address: nothing of Docker's is read; only its provider knows what it means.
  if (schemeOf(value) === 'k8s') return { name: value, where: value, options: {}, local: false };
  if (/^[a-z]+:\/\//u.test(value) || value.startsWith('/')) {
    const tlsWanted = /^tcp:\/\//u.test(value) && (env.DOCKER_TLS_VERIFY ?? '') !== '';
    const certs = env.DOCKER_CERT_PATH?.trim() || dockerConfigDir(env, home);
    const tls = tlsWanted ? readTls(certs, `--engine ${JSON.stringify(value)}`) : undefined;
    return parseAddress(value, value, tls, env, home);
  }
  return contextAddress(value, env, home);
}

/**
 * A client on the engine, with its own health (an engine lost is lost for its
 * own runs only). An ssh:// engine is spoken to over one kept-open ssh
 * connection (ssh-transport.ts); its endpoint tells the reaper how to reach it.
 */
export function connectEngine(address: EngineAddress): DockerClient {
  // A cluster's address has no Docker options: dockerode would fall back to the local socket.
  if (schemeOf(address.where) === 'k8s')
    throw new InputError(`--engine ${JSON.stringify(address.name)}: no Docker engine to speak to`);
  const o: Docker.DockerOptions = address.ssh
    ? ({
        protocol: 'http',
        host: 'ssh-engine',
        port: 80,
        agent: new SshAgent(address.ssh),
      } as Docker.DockerOptions)
    : address.options;
  const endpoint: DockerEndpoint = {
    where: address.where,
    options: o,
    ...(address.tlsFiles ? { tlsFiles: address.tlsFiles } : {}),
    ...(address.ssh ? { ssh: address.ssh } : {}),
  };
  return {
    docker: new Docker(o),
    where: address.name,
    health: new EngineHealth(),
    profile: new EngineProfile(),
    endpoint,
  };
}
