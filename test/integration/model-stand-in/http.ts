// A plain HTTP client for the stand-in's tests: one request over its Unix socket, the answer
// whole, and the server-sent events split as the official SDKs split them.
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  startModelStandIn,
  type ModelScript,
  type ModelStandIn,
} from '../../../src/model-stand-in/index.js';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One POST over the stand-in's Unix socket; a string body is sent as it is. */
export function post(socketPath: string, urlPath: string, body: unknown): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        socketPath,
        path: urlPath,
        method: 'POST',
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
}

/**
 * The `data:` payloads of an event stream, split at the first of "\n\n", "\r\r" or "\r\n\r\n"
 * as @google/genai does (the OpenAI SDK's line decoder accepts the same endings).
 */
export function dataFrames(body: string): string[] {
  return body
    .split(/\r\n\r\n|\n\n|\r\r/)
    .map((f) => f.trim())
    .filter((f) => f !== '')
    .map((f) => {
      if (!f.startsWith('data:')) throw new Error(`not a data frame: ${JSON.stringify(f)}`);
      return f.slice('data:'.length).trim();
    });
}

/** A stand-in per test, through the mocha hooks it registers. */
export interface StandInPerTest {
  /** Starts the test's stand-in on a socket in the test's folder; returns the socket's path. */
  start(script: ModelScript): Promise<string>;
  /** The stand-in the test started (what it saw, what is left of its script). */
  standIn(): ModelStandIn;
  /** The test's own folder, removed after it. */
  dir(): string;
}

/**
 * Registers hooks that give each test a fresh folder and close its stand-in after it.
 *
 * @example
 * const t = standInPerTest('evalrig-shapes-');
 * it('…', async () => { const sock = await t.start(script); … });
 */
export function standInPerTest(prefix: string): StandInPerTest {
  let dir = '';
  let standIn: ModelStandIn | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), prefix));
  });
  afterEach(async () => {
    await standIn?.close();
    standIn = undefined;
    await rm(dir, { recursive: true, force: true });
  });
  return {
    async start(script) {
      standIn = await startModelStandIn({
        script,
        listen: { socketPath: path.join(dir, 'model.sock') },
      });
      return path.join(dir, 'model.sock');
    },
    standIn: () => {
      if (!standIn) throw new Error('no stand-in started in this test');
      return standIn;
    },
    dir: () => dir,
  };
}
