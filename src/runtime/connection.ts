import Docker from 'dockerode';
import { EvalrigError } from '../errors/index.js';

const DEFAULT_SOCKET = '/var/run/docker.sock';

/** Where the Docker engine is expected, and how dockerode reaches it. */
export interface DockerEndpoint {
  /** Human-readable address, as DOCKER_HOST would spell it. */
  readonly where: string;
  readonly options: Docker.DockerOptions;
}

/** No engine answered at the endpoint (nothing listening, refused, or too slow). */
export class NoDockerEngineError extends EvalrigError {
  readonly where: string;
  constructor(where: string, cause?: unknown) {
    super(`no Docker engine answers at ${where}: run scripts/docker-engine.sh or set DOCKER_HOST`, {
      cause,
    });
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
}

/** Creates the project's Docker client. Nothing is contacted until first use. */
export function connectDocker(env: NodeJS.ProcessEnv = process.env): DockerClient {
  const endpoint = dockerEndpoint(env);
  return { docker: new Docker(endpoint.options), where: endpoint.where };
}

/**
 * Checks that the engine answers, within `timeoutMs`. Fails with a
 * NoDockerEngineError (no hang) when it does not.
 */
export async function pingDocker(client: DockerClient, timeoutMs = 5000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([client.docker.ping(), timeout]);
  } catch (error) {
    throw new NoDockerEngineError(client.where, error);
  } finally {
    clearTimeout(timer);
  }
}
