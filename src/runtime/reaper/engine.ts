/**
 * The reaper's calls to the engine: Node's own http and https clients over a unix socket, TCP
 * (TLS with the files read once at start) or an ssh channel, each call bounded in time (an ssh
 * channel has no socket timeout of its own).
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { createRequire } from 'node:module';
import type { Duplex } from 'node:stream';
import type { ReaperConfig, ReaperSsh } from './config.js';

export interface EngineAnswer {
  readonly status: number;
  readonly body: string;
}

/** One call to the engine's API. */
export type EngineCall = (method: string, path: string) => Promise<EngineAnswer>;

const CALL_MS = 5000;

interface SshClient {
  on(event: string, f: (...args: unknown[]) => void): void;
  connect(options: Record<string, unknown>): void;
  exec(command: string, done: (e: Error | undefined, channel: Duplex) => void): void;
  openssh_forwardOutStreamLocal(
    socket: string,
    done: (e: Error | undefined, channel: Duplex) => void,
  ): void;
}

/** A dialler of ssh channels: one connection, made at the first call (once it is needed). */
function sshDialler(cfg: ReaperSsh) {
  let connection: Promise<SshClient> | undefined;
  const connect = (): Promise<SshClient> => {
    connection ??= new Promise((resolve, reject) => {
      // By its absolute path: ssh2 is not in the bundle (it has native parts).
      const { Client } = createRequire(cfg.module)(cfg.module) as {
        Client: new () => SshClient;
      };
      const keys = cfg.hostKeys.map((k) => Buffer.from(k, 'base64'));
      const c = new Client();
      c.on('ready', () => resolve(c));
      c.on('error', (e) => {
        connection = undefined;
        reject(e as Error);
      });
      c.on('close', () => {
        connection = undefined;
      });
      c.connect({
        host: cfg.host,
        port: cfg.port,
        username: cfg.username,
        agent: cfg.agent,
        readyTimeout: CALL_MS,
        hostVerifier: (key: Buffer) => keys.some((k) => k.equals(key)),
      });
    });
    return connection;
  };
  return (_options: unknown, done: (e: Error | null, socket?: Duplex) => void): void => {
    connect().then((c) => {
      const opened = (e: Error | undefined, channel: Duplex): void => {
        if (e) return done(e);
        // http's agent asks these of a socket; a channel has none of them.
        for (const m of ['setKeepAlive', 'setNoDelay', 'setTimeout', 'ref', 'unref'])
          (channel as unknown as Record<string, unknown>)[m] = () => channel;
        done(null, channel);
      };
      if (cfg.socket) c.openssh_forwardOutStreamLocal(cfg.socket, opened);
      else c.exec('docker system dial-stdio', opened);
    }, done);
  };
}

/** The TLS files, read now: the orchestrator (or its user) may remove them once it has ended. */
function tlsFiles(cfg: ReaperConfig): Record<string, Buffer> {
  const out: Record<string, Buffer> = {};
  for (const k of ['ca', 'cert', 'key'] as const) {
    const file = cfg.tls?.[k];
    if (!file) continue;
    try {
      out[k] = readFileSync(file);
    } catch {
      // A file gone already: the call fails and is tried again, as an engine that is down.
    }
  }
  return out;
}

export function engineCall(cfg: ReaperConfig): EngineCall {
  const client = cfg.https ? https : http;
  const base: http.RequestOptions = cfg.ssh
    ? { host: 'ssh-engine', createConnection: sshDialler(cfg.ssh) as never }
    : cfg.socketPath
      ? { socketPath: cfg.socketPath }
      : { host: cfg.host, port: cfg.port, ...tlsFiles(cfg), agent: false };
  return (method, path) =>
    new Promise((resolve, reject) => {
      const req = client.request({ ...base, method, path }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
        res.on('error', reject);
      });
      const timer = setTimeout(() => req.destroy(new Error('timeout')), CALL_MS);
      req.on('close', () => clearTimeout(timer));
      req.on('error', reject);
      req.end();
    });
}
