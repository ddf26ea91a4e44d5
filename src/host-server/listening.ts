import { lstat, unlink } from 'node:fs/promises';
import type { AddressInfo, Server, Socket } from 'node:net';

/**
 * A host server once listening: where it listens, and one close. Close stops accepting, ends
 * every open connection at once (a container's client never holds the host's close up),
 * waits for the server to close and removes its socket file. It may be called any number of
 * times, from any path, and does its work once.
 */
export class ListeningServer {
  /** The Unix socket's path, or null on TCP. */
  readonly socketPath: string | null;
  /** The TCP host and port, or null on a Unix socket. */
  readonly host: string | null;
  readonly port: number | null;
  /** `http://127.0.0.1:PORT` on TCP, `http://localhost` on a Unix socket (for HTTP clients). */
  readonly url: string;
  private closing: Promise<void> | null = null;

  constructor(
    private readonly server: Server,
    /** Names the server (`model gateway`). */
    readonly what: string,
    address: { socketPath: string } | AddressInfo,
    /** Its open connections, tracked since before it was bound ({@link trackConnections}). */
    private readonly open: ReadonlySet<Socket>,
  ) {
    const tcp = 'port' in address ? address : null;
    this.socketPath = tcp ? null : (address as { socketPath: string }).socketPath;
    this.host = tcp?.address ?? null;
    this.port = tcp?.port ?? null;
    this.url = tcp ? `http://${tcp.address}:${tcp.port}` : 'http://localhost';
  }

  /** The connections open now. */
  get connections(): number {
    return this.open.size;
  }

  /** Stops the server, ends its connections, removes its socket; once, however often called. */
  close(): Promise<void> {
    this.closing ??= this.shut();
    return this.closing;
  }

  private async shut(): Promise<void> {
    // The callback comes once the last connection is gone (or at once, with an error, when
    // the server was not listening: nothing to wait for then).
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const s of this.open) s.destroy();
    await closed;
    if (this.socketPath !== null) await removeSocket(this.socketPath);
  }
}

/** The server's open connections, kept up to date from now on (call it before binding). */
export function trackConnections(server: Server): ReadonlySet<Socket> {
  const open = new Set<Socket>();
  server.on('connection', (s: Socket) => {
    open.add(s);
    s.once('close', () => open.delete(s));
  });
  return open;
}

/**
 * Node (libuv) removes a server's socket file as it closes; this makes sure of it, and never
 * removes anything but a socket.
 */
async function removeSocket(socketPath: string): Promise<void> {
  const st = await lstat(socketPath).catch(() => undefined);
  if (st?.isSocket()) await unlink(socketPath).catch(() => undefined);
}
