import { chmod } from 'node:fs/promises';
import type { AddressInfo, Server } from 'node:net';
import { EvalrigError } from '../errors/index.js';
import { ListeningServer, trackConnections } from './listening.js';
import { makeSocketRoom } from './room.js';

/** Where a host server listens: a Unix socket, or a TCP port (0: any free one). */
export type ListenAddress =
  { readonly socketPath: string } | { readonly port: number; readonly host?: string };

export interface ListenOptions {
  /** Names the server in every message: `model gateway`, `gh recorder`. */
  readonly what: string;
  readonly where: ListenAddress;
  /**
   * The socket file's mode once listening. 0o666 by default: the container's user
   * (uid 1000) connects through the mounted folder, which the run's folder mode guards.
   */
  readonly socketMode?: number;
  /** An error of the server once listening (an accept that failed); ignored by default. */
  readonly onError?: (error: Error) => void;
}

/** A server that could not listen; `code` is the system's (`EADDRINUSE`, …) when it gave one. */
export class ListenError extends EvalrigError {
  constructor(
    message: string,
    readonly code: string | undefined,
    options: { cause?: unknown } = {},
  ) {
    super(message, options);
  }
}

const LOOPBACK = '127.0.0.1';

/** The longest path a Unix socket address holds on Linux (108 bytes with the final NUL). */
export const MAX_SOCKET_PATH_BYTES = 107;

/**
 * Node cuts a longer path to fit, without a word, and binds a socket at the cut path (which
 * its close then leaves behind): refused before binding.
 */
function checkLength(what: string, socketPath: string): void {
  const bytes = Buffer.byteLength(socketPath);
  if (bytes <= MAX_SOCKET_PATH_BYTES) return;
  throw new ListenError(
    `${what}: the socket path ${socketPath} is ${bytes} bytes, longer than the ${MAX_SOCKET_PATH_BYTES} a Unix socket's address holds`,
    'ENAMETOOLONG',
  );
}

/**
 * Makes a created server listen and returns its handle: its address and one close. A Unix
 * socket's path must fit a socket address; it gets room first (a socket left by an earlier
 * server is removed; a live server's, or anything else, refused) and its mode once bound. Whatever fails on the way (the bind, the mode) closes
 * the server and removes its socket before the error is thrown: nothing is left behind.
 *
 * ```ts
 * const server = createServer(handle);
 * const listening = await listen(server, { what: 'gh recorder', where: { socketPath } });
 * listening.socketPath; // the socket the container connects to
 * await listening.close(); // ends every connection, removes the socket; twice is once
 * ```
 */
export async function listen(server: Server, options: ListenOptions): Promise<ListeningServer> {
  const { what, where } = options;
  const socketPath = 'socketPath' in where ? where.socketPath : null;
  if (socketPath !== null) {
    checkLength(what, socketPath);
    await makeSocketRoom(what, socketPath);
  }
  // Tracked from the first connection on: close ends them all, whatever the server serves.
  const open = trackConnections(server);
  await bind(server, options);
  const listening = new ListeningServer(server, what, address(server, where), open);
  server.on('error', options.onError ?? (() => undefined));
  if (socketPath === null) return listening;
  try {
    await chmod(socketPath, options.socketMode ?? 0o666);
  } catch (e) {
    await listening.close();
    const why = `${what}: cannot set up the socket ${socketPath} (${message(e)})`;
    throw new ListenError(why, code(e), { cause: e });
  }
  return listening;
}

function bind(server: Server, { what, where }: ListenOptions): Promise<void> {
  const shown =
    'socketPath' in where ? where.socketPath : `${where.host ?? LOOPBACK}:${where.port}`;
  return new Promise((resolve, reject) => {
    const failed = (e: Error): void =>
      reject(
        new ListenError(`${what}: cannot listen on ${shown} (${e.message})`, code(e), { cause: e }),
      );
    server.once('error', failed);
    const bound = (): void => {
      server.off('error', failed);
      resolve();
    };
    if ('socketPath' in where) server.listen(where.socketPath, bound);
    else server.listen(where.port, where.host ?? LOOPBACK, bound);
  });
}

/** The bound address: the socket's path, or the host and the port the system gave. */
function address(server: Server, where: ListenAddress): { socketPath: string } | AddressInfo {
  if ('socketPath' in where) return { socketPath: where.socketPath };
  return server.address() as AddressInfo;
}

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const code = (e: unknown): string | undefined => (e as NodeJS.ErrnoException | null)?.code;
