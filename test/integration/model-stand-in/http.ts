// A plain HTTP client for the stand-in's tests: one request over its Unix socket, the answer
// whole, and the server-sent events split as the official SDKs split them.
import { request } from 'node:http';

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
