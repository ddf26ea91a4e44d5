/**
 * Docker's API over ssh as the Docker CLI speaks it: on the remote side
 * `docker system dial-stdio` carries one HTTP connection to the engine's
 * socket over an ssh channel's stdio (or, given the socket's path, as
 * Podman's clients do, the channel is ssh's forwarding of that socket: no
 * process over there). dockerode's own ssh transport makes a
 * new ssh connection (handshake, key exchange, authentication) for every API
 * call. Here ONE ssh connection per engine is kept open, each HTTP connection
 * is a channel on it, and HTTP keep-alive keeps channels for the next calls:
 * an API call costs a channel at most, not a handshake. A server that refuses
 * more sessions on one connection (sshd's MaxSessions, 10 by default) gets a
 * second connection, and so on. A connection whose channels are all idle
 * does not keep the process alive.
 *
 * The host key is checked against the keys known_hosts lists for the host
 * (known-hosts.ts), keys come from SSH_AUTH_SOCK's agent, as before.
 *
 * @example
 * const agent = new SshAgent({ host: 'builder', port: 22, username: 'ci', agent: sock, hostKeys });
 * const docker = new Docker({ protocol: 'http', host: 'ssh-engine', port: 80, agent });
 */
import { Agent, type AgentOptions } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { Client, type ClientChannel } from 'ssh2';
import type { SshTarget } from '../runtime/index.js';

/** The command that carries one HTTP connection to the engine (the Docker CLI's). */
export const DIAL_STDIO = 'docker system dial-stdio';
/** Idle keep-alive channels kept per engine (each holds a dial-stdio process over there). */
const FREE_CHANNELS = 8;
/** Connections per engine at most (sessions beyond the server's MaxSessions each). */
const MAX_CONNECTIONS = 16;
/** Channels kept open ahead, their dial-stdio started: an exec's stream takes one at once. */
const SPARES = 2;
/** A spare unused this long is closed (before the engine would close its idle connection). */
const SPARE_MS = 30_000;

/** One ssh connection and the channels open on it. */
interface Connection {
  readonly client: Client;
  readonly socket: Socket;
  readonly ready: Promise<void>;
  open: number;
  /** Channels in use (not idle: a spare, or kept by the agent): while any is, the process lives. */
  held: number;
  /** The server refused a channel while `open` were open: none more until one closes. */
  full: boolean;
  closed: boolean;
}

/** One channel and whether it keeps the process alive. */
class Opened {
  private holding = false;
  closed = false;

  constructor(
    readonly channel: ClientChannel,
    private readonly connection: Connection,
  ) {
    channel.once('close', () => {
      this.closed = true;
      this.hold(false);
      connection.open--;
      connection.full = false;
    });
  }

  hold(on: boolean): void {
    if (on === this.holding || (on && this.closed)) return;
    this.holding = on;
    this.connection.held += on ? 1 : -1;
    if (this.connection.held > 0) this.connection.socket.ref();
    else this.connection.socket.unref();
  }
}

function isOpenFailure(error: unknown): boolean {
  return /Channel open failure|No free channels/u.test((error as Error)?.message ?? '');
}

/**
 * The channels of one engine: opened on the first connection with room,
 * a new connection when every one is full. A few are kept open ahead
 * (spares: the remote's dial-stdio already running), so that a call that
 * needs a new connection (every exec's stream does) takes one at once.
 */
export class SshChannels {
  private readonly connections: Connection[] = [];
  private readonly spares: Opened[] = [];
  private filling = 0;

  constructor(private readonly target: SshTarget) {}

  private connect(): Connection {
    const { target } = this;
    const socket = connect(target.port, target.host);
    socket.setNoDelay(true);
    const client = new Client();
    const connection: Connection = {
      client,
      socket,
      open: 0,
      held: 0,
      full: false,
      closed: false,
      ready: new Promise<void>((resolve, reject) => {
        client.once('ready', () => resolve());
        client.once('error', reject);
      }),
    };
    connection.ready.catch(() => undefined);
    const forget = (): void => {
      connection.closed = true;
      const i = this.connections.indexOf(connection);
      if (i >= 0) this.connections.splice(i, 1);
    };
    client.on('error', forget);
    client.on('close', forget);
    client.connect({
      sock: socket,
      username: target.username,
      ...(target.agent ? { agent: target.agent } : {}),
      hostVerifier: (key: Buffer) => target.hostKeys.some((k) => k.equals(key)),
      // No ssh keep-alive (its timer would keep the process alive): a dead
      // connection shows in the engine's health watch, whose pings are calls.
      readyTimeout: 20_000,
    });
    this.connections.push(connection);
    return connection;
  }

  /** A channel to the engine: its socket forwarded, or the Docker CLI's dial-stdio run. */
  private exec(connection: Connection): Promise<ClientChannel> {
    return new Promise((resolve, reject) => {
      const done = (error: Error | undefined, channel: ClientChannel): void => {
        if (error) reject(error);
        else resolve(channel);
      };
      const socket = this.target.socket;
      if (socket) connection.client.openssh_forwardOutStreamLocal(socket, done);
      else connection.client.exec(DIAL_STDIO, done);
    });
  }

  /** A channel running {@link DIAL_STDIO}: one HTTP connection to the engine, as a socket. */
  async socket(): Promise<Duplex> {
    let opened = this.spares.shift();
    while (opened?.closed) opened = this.spares.shift();
    opened ??= await this.open();
    opened.hold(true);
    this.refill();
    return asSocket(opened);
  }

  /** Opens spares up to {@link SPARES}, in the background; they close after {@link SPARE_MS} unused. */
  private refill(): void {
    while (this.spares.length + this.filling < SPARES) {
      this.filling++;
      this.open()
        .then((spare) => {
          this.spares.push(spare);
          const timer = setTimeout(() => {
            const i = this.spares.indexOf(spare);
            if (i >= 0) this.spares.splice(i, 1)[0]!.channel.close();
          }, SPARE_MS);
          timer.unref();
          spare.channel.once('close', () => clearTimeout(timer));
        })
        .catch(() => undefined)
        .finally(() => this.filling--);
    }
  }

  private async open(): Promise<Opened> {
    for (;;) {
      const room = this.connections.find((c) => !c.full && !c.closed);
      if (!room && this.connections.length >= MAX_CONNECTIONS) {
        throw new Error(`ssh: ${MAX_CONNECTIONS} connections to ${this.target.host} are all full`);
      }
      const connection = room ?? this.connect();
      await connection.ready;
      connection.open++;
      try {
        return new Opened(await this.exec(connection), connection);
      } catch (error) {
        connection.open--;
        if (isOpenFailure(error) && connection.open > 0) {
          connection.full = true;
          continue;
        }
        throw error;
      }
    }
  }

  /** Ends every connection. */
  close(): void {
    this.spares.splice(0);
    for (const c of this.connections.splice(0)) c.client.end();
  }
}

/**
 * A channel dressed as the socket node's HTTP client and agent expect: no TCP
 * options to set; `ref`/`unref` (the agent unrefs a socket it keeps idle) say
 * whether the channel should keep the process alive.
 */
function asSocket(opened: Opened): Duplex {
  const socket = opened.channel as unknown as Duplex & Record<string, unknown>;
  const hold = (on: boolean): void => opened.hold(on);
  // The engine's end is the connection's end, as a TCP socket's is: a kept-alive
  // channel the engine closed must leave the agent's pool at once (a forwarded
  // socket's channel stays half open until our side ends it too).
  socket.once('end', () => socket.destroy());
  const self = (): Duplex => socket;
  socket.setKeepAlive = self;
  socket.setNoDelay = self;
  socket.setTimeout = self;
  socket.ref = () => {
    hold(true);
    return socket;
  };
  socket.unref = () => {
    hold(false);
    return socket;
  };
  return socket;
}

/**
 * An HTTP agent whose connections are {@link SshChannels}' channels, kept
 * alive between calls (an upgraded one, an exec's stream, leaves the pool).
 */
export class SshAgent extends Agent {
  private readonly channels: SshChannels;

  constructor(target: SshTarget, options: AgentOptions = {}) {
    super({ keepAlive: true, maxFreeSockets: FREE_CHANNELS, ...options });
    this.channels = new SshChannels(target);
  }

  override createConnection(
    _options: unknown,
    callback: (error: Error | null, socket?: Duplex) => void,
  ): undefined {
    this.channels.socket().then(
      (socket) => callback(null, socket),
      (error: Error) => callback(error),
    );
    return undefined;
  }

  override destroy(): void {
    super.destroy();
    this.channels.close();
  }
}
