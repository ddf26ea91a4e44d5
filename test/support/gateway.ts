// What the gateway tests share: one request over a gateway's socket as the agent in the
// container sends it, and a real upstream that records what reached it and answers as told.
import { createServer, request, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The key the container holds: a placeholder, never the real one. */
export const PLACEHOLDER = 'evalrig-placeholder';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  error?: string;
}

/** One request over the gateway's socket, as the agent in the container would send it. */
export function call(
  socketPath: string,
  method: string,
  urlPath: string,
  body = '',
  headers: Record<string, string> = {},
): Promise<Answer> {
  return new Promise((resolve) => {
    const req = request(
      {
        socketPath,
        path: urlPath,
        method,
        headers: { 'content-type': 'application/json', 'x-api-key': PLACEHOLDER, ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        const done = (error?: string): void =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
            ...(error ? { error } : {}),
          });
        res.on('end', () => done());
        res.on('error', (e) => done(e.message));
      },
    );
    req.on('error', (e) => resolve({ status: 0, headers: {}, body: '', error: e.message }));
    req.end(body);
  });
}

/** A real upstream that records what reached it and answers as told. */
export async function fakeUpstream(
  answer: (
    req: { url: string; headers: IncomingHttpHeaders; body: string },
    res: import('node:http').ServerResponse,
  ) => void,
): Promise<{
  server: Server;
  url: string;
  seen: { url: string; headers: IncomingHttpHeaders; body: string }[];
}> {
  const seen: { url: string; headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = {
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      seen.push(r);
      answer(r, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}
