// What every answer of `evalrig view` shares: its address, its security headers and how an
// error is answered. Apart from server.ts so that the API's routes and the server that routes
// to them do not import each other.
import type { ServerResponse } from 'node:http';
import type { ClientAssets } from './assets.js';
import type { LiveFeed } from './live.js';
import { APP_CSP, baseHeaders } from './headers.js';

export { APP_CSP, REPORT_CSP, baseHeaders } from './headers.js';

/** The address `evalrig view` binds: loopback only, never another interface. */
export const VIEW_HOST = '127.0.0.1';

/** Why a request is answered with an error: its status and a sentence. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** What a request's handler is given. */
export interface ServerContext {
  readonly outDir: string;
  readonly assets: ClientAssets;
  readonly live: LiveFeed;
  readonly port: number;
}

export function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  csp = APP_CSP,
): void {
  res.writeHead(status, {
    ...baseHeaders(csp),
    'Content-Type': type,
    'Cache-Control': 'no-store',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

export function fail(res: ServerResponse, error: HttpError): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  send(res, error.status, 'text/plain; charset=utf-8', `${error.message}\n`);
}
