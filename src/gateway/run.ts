import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EvalrigError } from '../errors/index.js';
import { startModelStandIn, type ModelScript, type ModelStandIn } from '../model-stand-in/index.js';
import { startModelGateway } from './server.js';
import type { GatewayUpstream, ModelGateway, ModelGatewayOptions } from './types.js';

/** Where a run's model calls go: the model stand-in playing a script, or the real upstream. */
export type ModelSource = { readonly script: ModelScript } | GatewayUpstream;

/** A run's gateway: its socket folder (to mount read-only), and what serves it. */
export interface RunGateway {
  /** The folder of mode 0711 that holds `model.sock`; mount it read-only. */
  readonly hostDir: string;
  readonly socketPath: string;
  readonly gateway: ModelGateway;
  /** The run's own stand-in (each run plays the script from its start), or null. */
  readonly standIn: ModelStandIn | null;
  /** Closes the gateway and the stand-in, flushes the log and removes the socket folder. */
  close(): Promise<void>;
}

/** A Unix socket's path is limited to 107 bytes on Linux; ours stay well under. */
/** The name of a run gateway's socket in its folder (what a sandbox shares of it). */
export const GATEWAY_SOCKET_NAME = 'model.sock';
const MAX_SOCKET_PATH = 100;

/**
 * Opens one run's model gateway: a fresh socket folder of mode 0711 under `socketRoot`
 * (default the system's temporary folder: a run folder's path can pass the socket path limit),
 * the gateway on `model.sock` in it, logging to `logPath` (the run's model-calls.jsonl, and
 * with `record` the rest of its flight record), and, for a script, the run's own model
 * stand-in on a loopback port as its upstream.
 */
export async function openRunGateway(
  options: {
    readonly source: ModelSource;
    readonly logPath: string;
    readonly socketRoot?: string;
  } & Pick<
    ModelGatewayOptions,
    | 'paths'
    | 'idleTimeoutMs'
    | 'record'
    | 'needles'
    | 'prompts'
    | 'budget'
    | 'caps'
    | 'maxBodyMemory'
    | 'limiter'
    | 'admit'
    | 'onCall'
  >,
): Promise<RunGateway> {
  const hostDir = await mkdtemp(path.join(options.socketRoot ?? tmpdir(), 'evalrig-model-'));
  await chmod(hostDir, 0o711); // the container's user may reach the socket, not list the folder
  const socketPath = path.join(hostDir, GATEWAY_SOCKET_NAME);
  if (Buffer.byteLength(socketPath) > MAX_SOCKET_PATH) {
    await rm(hostDir, { recursive: true, force: true });
    throw new EvalrigError(
      `model gateway: the socket path ${socketPath} is longer than ${MAX_SOCKET_PATH} bytes; give a shorter socket folder`,
    );
  }
  let standIn: ModelStandIn | null = null;
  try {
    const source = options.source;
    if ('script' in source) {
      standIn = await startModelStandIn({ script: source.script, listen: { port: 0 } });
    }
    const { source: _source, socketRoot: _root, ...rest } = options;
    const gateway = await startModelGateway({
      ...rest,
      socketPath,
      upstream: standIn ? { url: standIn.url } : (source as GatewayUpstream),
    });
    const opened = standIn;
    return {
      hostDir,
      socketPath,
      gateway,
      standIn: opened,
      close: async () => {
        await gateway.close();
        await opened?.close();
        await rm(hostDir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    await standIn?.close();
    await rm(hostDir, { recursive: true, force: true });
    throw e;
  }
}
