import Docker from 'dockerode';
import { EvalrigError } from '../errors/index.js';
import type { CreationGate } from './gate.js';
import { EngineHealth, PING_BOUND_MS, bounded } from './engine.js';
import { EngineProfile } from './profile.js';

const DEFAULT_SOCKET = '/var/run/docker.sock';

/** The paths of an engine's TLS files (DOCKER_CERT_PATH's, or a Docker context's). */
export interface TlsFiles {
  readonly ca: string;
  readonly cert: string;
  readonly key: string;
}

/** Where an ssh engine is, and what proves it is the one (never a secret: keys stay in the agent). */
export interface SshTarget {
  readonly host: string;
  readonly port: number;
  readonly username: string;
  /** SSH_AUTH_SOCK: the agent holding the user's keys. */
  readonly agent?: string;
  /** The host keys known_hosts accepts for it (raw blobs, as the server sends them). */
  readonly hostKeys: readonly Buffer[];
  /**
   * The engine's socket on that host (`ssh://user@host/run/podman/podman.sock`,
   * Podman's spelling): reached by ssh's own socket forwarding, no remote
   * command. Unset: the Docker CLI's `docker system dial-stdio`.
   */
  readonly socket?: string;
}

/** Where the Docker engine is expected, and how dockerode reaches it. */
export interface DockerEndpoint {
  /** Human-readable address, as DOCKER_HOST would spell it. */
  readonly where: string;
  readonly options: Docker.DockerOptions;
  /** Where `options`' TLS material was read from: the reaper reads it there itself. */
  readonly tlsFiles?: TlsFiles;
  /** An ssh:// engine (its `docker system dial-stdio`): the reaper dials it the same way. */
  readonly ssh?: SshTarget;
}

/**
 * Why an engine that is there would not talk, when TLS or ssh is the reason:
 * plain HTTP sent to a TLS port, a server certificate the given CA did not
 * sign (or for another host), a client certificate the engine refused; an ssh
 * host key known_hosts does not list, keys the ssh server refused. Undefined
 * for anything else.
 */
export function engineRefusal(cause: unknown): string | undefined {
  const e = cause as
    { statusCode?: number; message?: string; code?: string; reason?: string } | undefined;
  if (e?.statusCode === 400 && /HTTP request to an HTTPS server/u.test(e.message ?? '')) {
    return 'it speaks TLS and was spoken to in plain HTTP: set DOCKER_TLS_VERIFY=1 and DOCKER_CERT_PATH (ca.pem, cert.pem, key.pem), or name a Docker context holding its TLS files';
  }
  const message = e?.message ?? '';
  if (message.startsWith('Host denied')) {
    return 'its ssh host key is not the one known_hosts lists for it (a changed host, or someone in between): check ~/.ssh/known_hosts';
  }
  if (/All configured authentication methods failed/u.test(message)) {
    return "its ssh server accepted none of evalrig's keys (those of SSH_AUTH_SOCK's agent)";
  }
  const code = e?.code ?? '';
  // Node's verification of the server's certificate (codes of OpenSSL's X509_V_ERR_* and Node's own).
  if (
    /CERT|SIGNATURE|ISSUER|ERR_TLS_CERT_ALTNAME_INVALID/u.test(code) &&
    !code.startsWith('ERR_SSL_')
  ) {
    return `its TLS certificate is not trusted (${e?.message ?? code}): check the ca.pem evalrig was given (DOCKER_CERT_PATH, or the context's TLS files)`;
  }
  // An alert from the engine: it did not accept evalrig's client certificate.
  if (/^ERR_SSL_.*ALERT/u.test(code)) {
    // OpenSSL's message spans lines; its `reason` is the alert's name.
    return `it refused evalrig's TLS client certificate (${e?.reason ?? code}): check cert.pem and key.pem (DOCKER_CERT_PATH, or the context's TLS files)`;
  }
  return undefined;
}

/** No engine answered at the endpoint (nothing listening, refused, too slow, or TLS or ssh in the way). */
export class NoDockerEngineError extends EvalrigError {
  readonly where: string;
  constructor(where: string, cause?: unknown) {
    const why = engineRefusal(cause);
    super(
      why
        ? `the Docker engine at ${where} does not answer evalrig: ${why}`
        : `no Docker engine answers at ${where}: run scripts/docker-engine.sh or set DOCKER_HOST`,
      { cause },
    );
    this.where = where;
  }
}

/**
 * Resolves the endpoint from DOCKER_HOST (unix://, tcp://, http://) or the
 * default socket.
 *
 * @example
 * dockerEndpoint({ DOCKER_HOST: 'unix:///tmp/d.sock' }).options // { socketPath: '/tmp/d.sock' }
 */
export function dockerEndpoint(env: NodeJS.ProcessEnv = process.env): DockerEndpoint {
  const host = env.DOCKER_HOST?.trim();
  if (!host) return { where: `unix://${DEFAULT_SOCKET}`, options: { socketPath: DEFAULT_SOCKET } };
  if (host.startsWith('unix://')) {
    return { where: host, options: { socketPath: host.slice('unix://'.length) } };
  }
  if (host.startsWith('/')) return { where: `unix://${host}`, options: { socketPath: host } };
  let url: URL;
  try {
    url = new URL(host.replace(/^tcp:/, 'http:'));
  } catch {
    throw new EvalrigError(
      `DOCKER_HOST="${host}" is not an address evalrig understands (unix:// or tcp://)`,
    );
  }
  const protocol = url.protocol === 'https:' ? 'https' : 'http';
  const port = url.port || (protocol === 'https' ? '2376' : '2375');
  return { where: host, options: { host: url.hostname, port, protocol } };
}

/** A dockerode client and the address it talks to. */
export interface DockerClient {
  readonly docker: Docker;
  readonly where: string;
  /** How dockerode reaches the engine (the reaper process reaches it the same way). */
  readonly endpoint?: DockerEndpoint;
  /** Whether the engine was lost; every bounded call of runtime/ consults it. */
  readonly health?: EngineHealth;
  /** Closed by a signal's clean-up: no container is created after it. */
  readonly gate?: CreationGate;
  /** Labels every container created through this client carries. */
  readonly labels?: Readonly<Record<string, string>>;
  /** What the engine does differently (Podman), once learned: how its containers are asked for. */
  readonly profile?: EngineProfile;
}

/** Creates the project's Docker client. Nothing is contacted until first use. */
export function connectDocker(env: NodeJS.ProcessEnv = process.env): DockerClient {
  const endpoint = dockerEndpoint(env);
  return {
    docker: new Docker(endpoint.options),
    where: endpoint.where,
    endpoint,
    health: new EngineHealth(),
    profile: new EngineProfile(),
  };
}

/**
 * Checks that the engine answers, within `timeoutMs`. Fails with a
 * NoDockerEngineError (no hang) when it does not.
 */
export async function pingDocker(client: DockerClient, timeoutMs = PING_BOUND_MS): Promise<void> {
  try {
    // Not through client.health: an engine absent at start is not one lost mid-campaign.
    await bounded({ where: client.where }, 'a ping', () => client.docker.ping(), timeoutMs);
  } catch (error) {
    throw new NoDockerEngineError(client.where, error);
  }
}
