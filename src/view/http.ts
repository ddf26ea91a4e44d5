// What every answer of `evalrig view` shares: its address, its security headers and how an
// error is answered. Apart from server.ts so that the API's routes and the server that routes
// to them do not import each other.
import type { ServerResponse } from 'node:http';
import type { ClientAssets } from './assets.js';
import type { LiveFeed } from './live.js';

/** The address `evalrig view` binds: loopback only, never another interface. */
export const VIEW_HOST = '127.0.0.1';

/** The pages' policy: scripts, styles and requests from this server only; nothing inline. */
export const APP_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** report.html's: its own inline styles, no script at all. */
export const REPORT_CSP =
  "default-src 'none'; script-src 'none'; style-src 'unsafe-inline'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

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

/** Headers every answer carries. */
export function baseHeaders(csp: string): Record<string, string> {
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'X-Frame-Options': 'DENY',
  };
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
