import { createServer, type Socket } from 'node:net';
import type { GhCall } from '../artifacts/index.js';
import { checkServerOptions, listen } from '../host-server/index.js';
import type {
  GhRecorder,
  GhRecorderOptions,
  GhRecorderProblem,
  GhRecorderProblemKind,
  GhState,
} from './types.js';
import { callProblem, stateProblem } from './validate.js';

/** The protocol version this recorder speaks (the message's `v`). */
export const GH_REPORT_VERSION = 1;

/** The variable that names the socket to the stand-in, inside the container. */
export const GH_RECORDER_ENV = 'EVALRIG_GH_RECORDER';

const DEFAULTS = { connectionTimeoutMs: 5000, maxConnections: 32, maxProblems: 1000 };

/** A refusal: what the problem is, and what the client is told. */
class Refusal {
  constructor(
    readonly kind: GhRecorderProblemKind,
    readonly reason: string,
  ) {}
}

/**
 * Listens on a per-run Unix socket for the gh stand-in's reports (one message per connection:
 * `{"v":1,"call":<call line>,"state":<state or null>}\n`, acknowledged by one line
 * `{"ok":true,"seq":N}` or `{"ok":false,"problem":"…"}`) and keeps the host's copy of the
 * record. Every byte comes from the container and is untrusted: a line longer than
 * maxMessageBytes drops the connection, each connection has a deadline, the number of open
 * connections and of accepted calls is bounded, and each call and state must match the
 * stand-in's schemas with seq strictly increasing. What is refused is counted, never thrown.
 */
export async function startGhRecorder(options: GhRecorderOptions): Promise<GhRecorder> {
  const opts = { ...DEFAULTS, ...options };
  checkOptions(opts);
  const record = new HostRecord(opts);
  const open = new Set<Socket>();
  const server = createServer({ allowHalfOpen: false }, (socket) =>
    serveConnection(socket, record, open, opts),
  );
  const listening = await listen(server, {
    what: 'gh recorder',
    where: { socketPath: opts.socketPath },
    // After listening, an accept error (e.g. out of file descriptors) is counted, not thrown.
    onError: (e) => record.note('too-many-connections', `accept failed: ${e.message}`),
  });

  return {
    socketPath: opts.socketPath,
    calls: () => [...record.calls],
    state: () => record.state,
    problems: () => [...record.problems],
    problemCount: () => record.problemCount,
    close: () => listening.close(),
  };
}

type RecorderOptions = Required<GhRecorderOptions>;

/** The host's copy of the record: accepted calls, the last state, and what was refused. */
class HostRecord {
  readonly calls: GhCall[] = [];
  state: GhState | null = null;
  readonly problems: GhRecorderProblem[] = [];
  problemCount = 0;

  constructor(private readonly opts: RecorderOptions) {}

  note(kind: GhRecorderProblemKind, reason: string): void {
    this.problemCount++;
    if (this.problems.length < this.opts.maxProblems) {
      this.problems.push({ kind, reason, at: new Date().toISOString() });
    }
  }

  /** Takes one message line; returns the accepted seq or throws a Refusal. */
  accept(bytes: Buffer): number {
    const message = parseMessage(bytes);
    const problem = callProblem(message.call);
    if (problem) throw new Refusal('bad-call', `the call ${problem}`);
    const call = message.call as GhCall;
    if (message.state !== null) {
      const bad = stateProblem(message.state);
      if (bad) throw new Refusal('bad-state', `the state ${bad}`);
    }
    if (this.calls.length >= this.opts.maxCalls) {
      throw new Refusal('too-many-calls', `${this.opts.maxCalls} calls were already recorded`);
    }
    const last = this.calls[this.calls.length - 1];
    if (last && call.seq <= last.seq) {
      throw new Refusal('seq', `seq ${call.seq} is not after ${last.seq}, the last recorded`);
    }
    // Frozen: what callers get from calls() and state() cannot change the host's copy.
    this.calls.push(deepFreeze(call));
    if (message.state !== null) this.state = deepFreeze(message.state as GhState);
    return call.seq;
  }

  /** The acknowledgement line for one message: its seq, or why it was refused. */
  answer(line: Buffer): string {
    try {
      return JSON.stringify({ ok: true, seq: this.accept(line) });
    } catch (e) {
      // Nothing a client sends may stop the host: an unforeseen failure is one more refusal.
      const r =
        e instanceof Refusal
          ? e
          : new Refusal('bad-message', `could not be checked: ${String(e).slice(0, 120)}`);
      this.note(r.kind, r.reason);
      return JSON.stringify({ ok: false, problem: r.reason });
    }
  }
}

/** Serves one connection: reads one message line under a deadline, and acknowledges it. */
function serveConnection(
  socket: Socket,
  record: HostRecord,
  open: Set<Socket>,
  opts: RecorderOptions,
): void {
  if (open.size >= opts.maxConnections) {
    record.note('too-many-connections', `more than ${opts.maxConnections} connections at once`);
    socket.destroy();
    return;
  }
  open.add(socket);
  let buffered: Buffer[] = [];
  let size = 0;
  let answered = false;
  const drop = (kind: GhRecorderProblemKind, reason: string): void => {
    record.note(kind, reason);
    answered = true;
    buffered = [];
    open.delete(socket); // at once: its place is free before the client sees the hang-up
    socket.destroy();
  };
  // One deadline for the whole exchange: a client that never writes, writes slowly, or never
  // reads its acknowledgement holds nothing for longer.
  const deadline = setTimeout(() => {
    if (!answered) drop('timeout', `no whole message within ${opts.connectionTimeoutMs} ms`);
    else socket.destroy();
  }, opts.connectionTimeoutMs);
  socket.on('error', () => {
    // A reset by the client: its 'close' follows.
  });
  socket.on('close', () => {
    clearTimeout(deadline);
    open.delete(socket);
  });
  socket.on('end', () => {
    if (!answered) drop('incomplete', `the connection ended after ${size} bytes with no newline`);
  });
  socket.on('data', (chunk: Buffer) => {
    if (answered) return; // one message per connection: the rest is ignored
    const nl = chunk.indexOf(0x0a);
    const take = nl < 0 ? chunk.length : nl;
    if (size + take > opts.maxMessageBytes) {
      drop('oversize', `a line longer than ${opts.maxMessageBytes} bytes`);
      return;
    }
    buffered.push(nl < 0 ? chunk : chunk.subarray(0, nl));
    size += take;
    if (nl < 0) return;
    answered = true;
    const line = Buffer.concat(buffered, size);
    buffered = [];
    socket.end(`${record.answer(line)}\n`);
  });
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** The message's three fields, or a Refusal. */
function parseMessage(bytes: Buffer): { call: unknown; state: unknown } {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (e) {
    throw new Refusal('not-json', `not a UTF-8 JSON line (${(e as Error).message.slice(0, 120)})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new Refusal('bad-message', 'not a JSON object');
  }
  const keys = Object.keys(value).sort().join(',');
  if (keys !== 'call,state,v') {
    throw new Refusal('bad-message', `fields ${keys.slice(0, 120)}, not call, state and v`);
  }
  const m = value as { v: unknown; call: unknown; state: unknown };
  if (m.v !== GH_REPORT_VERSION) {
    throw new Refusal(
      'bad-message',
      `version ${String(m.v).slice(0, 20)}, not ${GH_REPORT_VERSION}`,
    );
  }
  return m;
}

function checkOptions(o: Required<GhRecorderOptions>): void {
  checkServerOptions('gh recorder', o, [
    'maxMessageBytes',
    'maxCalls',
    'connectionTimeoutMs',
    'maxConnections',
    'maxProblems',
  ]);
}
