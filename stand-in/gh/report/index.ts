/**
 * Reports each recorded call to the host, as it happens, over a Unix socket the host listens
 * on (`EVALRIG_GH_RECORDER`): the host keeps its own copy of the record, which the agent in
 * the container cannot rewrite afterwards. See README.md, "The report to the host".
 */
import type { State } from '../store/index.js';

/** The variable naming the host's socket; unset: no report. */
export const RECORDER_ENV = 'EVALRIG_GH_RECORDER';

/** The protocol's version, the message's `v`. */
export const REPORT_VERSION = 1;

/** How long a call waits for the host's acknowledgement before it exits anyway (ms). */
export const ACK_TIMEOUT_MS = 2000;

/**
 * The one line sent for a call: `{"v":1,"call":<line>,"state":<state>}\n`, where `<line>` is
 * the call's line exactly as appended to calls.jsonl and `<state>` the state after the call
 * (compact JSON; null when the state cannot be read).
 */
export function reportMessage(line: string, state: State | null): string {
  return `{"v":${REPORT_VERSION},"call":${line},"state":${JSON.stringify(state)}}\n`;
}

/**
 * Sends one message and waits for the host's one-line acknowledgement, at most `timeoutMs`.
 * Never fails: when the socket is missing, refuses, or the host does not answer, the call
 * still works, and the host notices the report it did not get.
 */
export async function sendReport(
  socketPath: string,
  message: string,
  timeoutMs = ACK_TIMEOUT_MS,
): Promise<void> {
  // Loaded only to report: net brings Node's stream machinery, which a call without a
  // recorder does not pay for (see main.ts).
  const { createConnection } = await import('node:net');
  return new Promise((resolve) => {
    const socket = createConnection({ path: socketPath });
    const done = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    socket.on('error', done);
    socket.on('close', done);
    socket.on('connect', () => socket.write(message));
    let seen = 0;
    socket.on('data', (chunk: Buffer) => {
      // Only the end of the acknowledgement matters, not its content.
      seen += chunk.length;
      if (chunk.includes(0x0a) || seen > 4096) done();
    });
  });
}
