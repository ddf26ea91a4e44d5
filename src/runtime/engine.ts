import { setMaxListeners } from 'node:events';
import { EvalrigError } from '../errors/index.js';

/**
 * The engine stopped answering: a call got no answer within its bound, the
 * connection was refused or cut, or the health watch's pings went unanswered.
 * One such fault ends the campaign with this one message.
 */
export class EngineLostError extends EvalrigError {
  constructor(
    readonly where: string,
    readonly reason: string,
  ) {
    super(`the Docker engine at ${where} stopped answering (${reason})`, { exitCode: 1 });
  }
}

/** How long one engine call may take before the engine is called lost. */
export const CALL_BOUND_MS = 60_000;
/** How long a ping may take. */
export const PING_BOUND_MS = 5_000;

/**
 * The engine's state as this process saw it. Once lost, it stays lost: every
 * bounded call fails at once and every waiting one is released, so a fault is
 * one event rather than one error per run.
 */
export class EngineHealth {
  private readonly controller = new AbortController();
  private fault: EngineLostError | undefined;

  constructor() {
    // Every call in flight listens: dozens at once is normal, not a leak.
    setMaxListeners(0, this.controller.signal);
  }

  get lost(): EngineLostError | undefined {
    return this.fault;
  }

  /** Aborted when the engine is lost; its reason is the EngineLostError. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  markLost(error: EngineLostError): void {
    if (this.fault) return;
    this.fault = error;
    this.controller.abort(error);
  }
}

/** The parts of a DockerClient this module needs (no import cycle with connection.ts). */
interface Watched {
  readonly where: string;
  readonly health?: EngineHealth;
}

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOENT',
  'EPIPE',
  'ENOTCONN',
  'EHOSTUNREACH',
  'ETIMEDOUT',
  'ECONNABORTED',
]);

/** True for errors that say the connection to the engine failed, not that a request was refused. */
export function isConnectionError(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (typeof e.code === 'string' && CONNECTION_CODES.has(e.code)) return true;
  return typeof e.message === 'string' && /socket hang up/u.test(e.message);
}

function reasonOf(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown };
  return typeof e.code === 'string' ? e.code : String(e.message ?? error);
}

/**
 * Runs one engine call with a bound. No answer within `ms`, or a failed
 * connection, marks the engine lost and fails with EngineLostError; an engine
 * already lost fails at once. Other errors (404, 409...) pass through.
 *
 * @example
 * const info = await bounded(client, 'inspect container', () => c.inspect());
 */
export async function bounded<T>(
  client: Watched,
  what: string,
  work: () => Promise<T>,
  ms: number = CALL_BOUND_MS,
): Promise<T> {
  const health = client.health;
  if (health?.lost) throw health.lost;
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const guard = new Promise<never>((_, reject) => {
    // No bound (Infinity): only a lost engine ends the wait.
    if (Number.isFinite(ms))
      timer = setTimeout(() => {
        reject(new EngineLostError(client.where, `no answer to ${what} within ${ms / 1000} s`));
      }, ms);
    onAbort = () => reject(health?.lost);
    health?.signal.addEventListener('abort', onAbort, { once: true });
  });
  const call = work();
  // Once the guard has won, a late failure of the call is expected: never unhandled.
  call.catch(() => undefined);
  try {
    return await Promise.race([call, guard]);
  } catch (error) {
    const lost =
      error instanceof EngineLostError
        ? error
        : isConnectionError(error)
          ? new EngineLostError(client.where, `${what}: ${reasonOf(error)}`)
          : undefined;
    if (!lost) throw error;
    health?.markLost(lost);
    throw health?.lost ?? lost;
  } finally {
    clearTimeout(timer);
    if (onAbort) health?.signal.removeEventListener('abort', onAbort);
  }
}

export interface EngineWatchOptions {
  /** Time between two pings. */
  readonly intervalMs?: number;
  /** Bound of one ping. */
  readonly pingBoundMs?: number;
  /** Consecutive failed pings that mean the engine is lost. */
  readonly failures?: number;
}

/**
 * Pings the engine in the background, so that an engine that freezes while
 * every call is a long exec (an agent's turn) is noticed in seconds, not at
 * the turn's time-out. Returns the function that stops the watch.
 */
export function watchEngine(
  client: Watched & { readonly docker: { ping(): Promise<unknown> } },
  options: EngineWatchOptions = {},
): () => void {
  const interval = options.intervalMs ?? 2_000;
  const bound = options.pingBoundMs ?? PING_BOUND_MS;
  const allowed = options.failures ?? 2;
  let failed = 0;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const tick = async (): Promise<void> => {
    try {
      await bounded({ where: client.where }, 'a ping', () => client.docker.ping(), bound);
      failed = 0;
    } catch (error) {
      failed++;
      if (failed >= allowed) {
        const reason = error instanceof EngineLostError ? error.reason : reasonOf(error);
        client.health?.markLost(new EngineLostError(client.where, reason));
      }
    }
    if (!stopped && !client.health?.lost) {
      timer = setTimeout(() => void tick(), interval);
      timer.unref();
    }
  };
  timer = setTimeout(() => void tick(), interval);
  timer.unref();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
