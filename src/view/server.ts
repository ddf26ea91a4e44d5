import { constants, createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import path from 'node:path';
import { InputError } from '../errors/index.js';
import { listen, ListenError } from '../host-server/index.js';
import { clientAssets } from './assets.js';
import { pathSegments, resolveInside } from './guard.js';
import { LiveFeed } from './live.js';
import { apiRoute } from './api.js';
import {
  APP_CSP,
  baseHeaders,
  fail,
  HttpError,
  REPORT_CSP,
  send,
  VIEW_HOST,
  type ServerContext,
} from './http.js';

export interface ViewServerOptions {
  /** The campaign folder. */
  readonly outDir: string;
  /** 0 (default): a free port the system picks. */
  readonly port?: number;
  /** How often the live feed looks for finished runs while a page listens (ms, default 1000). */
  readonly pollMs?: number;
}

export interface ViewServer {
  /** http://127.0.0.1:PORT/ */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Serves a campaign folder on 127.0.0.1, read-only: the viewer's pages, their API (runs,
 * trajectories, live events, review notes: the one thing written), and the folder's own files
 * (report.html, run files) as text. Every answer carries a Content-Security-Policy; a request
 * naming another host, or a path outside the folder, is refused.
 *
 * @example
 * const view = await startViewServer({ outDir: 'out/claude-code' });
 * console.log(view.url); // http://127.0.0.1:43117/
 */
export async function startViewServer(options: ViewServerOptions): Promise<ViewServer> {
  const outDir = path.resolve(options.outDir);
  const info = await stat(outDir).catch(() => null);
  if (!info?.isDirectory()) throw new InputError(`${options.outDir} is not a campaign folder`);
  const assets = await clientAssets();
  const live = new LiveFeed(outDir, options.pollMs ?? 1000);
  let port = 0;
  const server: Server = createServer((req, res) => {
    handle({ outDir, assets, live, port }, req, res).catch((error: unknown) =>
      fail(res, error instanceof HttpError ? error : new HttpError(500, 'internal error')),
    );
  });
  const where = { host: VIEW_HOST, port: options.port ?? 0 };
  const listening = await listen(server, { what: 'evalrig view', where }).catch((error) => {
    if (error instanceof ListenError && error.code === 'EADDRINUSE') {
      throw new InputError(`--port ${options.port} is in use`);
    }
    throw error;
  });
  port = listening.port!;
  return {
    url: `http://${VIEW_HOST}:${port}/`,
    host: VIEW_HOST,
    port,
    close: async () => {
      live.close();
      await listening.close();
    },
  };
}

async function handle(
  ctx: ServerContext,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  // A page of another site reaching this port through a name it controls (DNS rebinding) names
  // that host: only the loopback names of this very port are served.
  const host = req.headers.host ?? '';
  if (host !== `${VIEW_HOST}:${ctx.port}` && host !== `localhost:${ctx.port}`)
    throw new HttpError(421, `evalrig view answers only to ${VIEW_HOST}:${ctx.port}`);
  // The path as sent, before a URL parser resolves its dots: a way up, encoded or not, is refused.
  const raw = (req.url ?? '/').split('?')[0]!;
  if (raw !== '/' && typeof pathSegments(raw.replace(/\/+$/u, '')) === 'string')
    throw new HttpError(403, 'refused: that path is not inside the campaign folder');
  const url = new URL(req.url ?? '/', `http://${VIEW_HOST}`);
  const p = url.pathname;
  if (p.startsWith('/_api/')) return apiRoute(ctx, req, res, url);
  if (req.method !== 'GET' && req.method !== 'HEAD')
    throw new HttpError(405, 'evalrig view only reads (POST is for review notes)');
  res.setHeader('Vary', 'Host');
  if (p === '/' || p === '/_view' || p.startsWith('/_view/'))
    return send(res, 200, 'text/html; charset=utf-8', ctx.assets.shell);
  if (p === '/_assets/app.js')
    return send(res, 200, 'text/javascript; charset=utf-8', ctx.assets.script);
  if (p === '/favicon.ico') return send(res, 204, 'text/plain', '');
  if (p === '/_assets/app.css') return send(res, 200, 'text/css; charset=utf-8', ctx.assets.css);
  return serveFile(ctx.outDir, raw, res);
}

/** What a file of the campaign folder is served as: only report.html as a page, the rest as text. */
function typeOf(rel: string): { type: string; csp: string } {
  if (rel === 'report.html') return { type: 'text/html; charset=utf-8', csp: REPORT_CSP };
  if (rel.endsWith('.json')) return { type: 'application/json; charset=utf-8', csp: APP_CSP };
  if (rel.endsWith('.gz')) return { type: 'application/gzip', csp: APP_CSP };
  return { type: 'text/plain; charset=utf-8', csp: APP_CSP };
}

async function serveFile(outDir: string, urlPath: string, res: ServerResponse): Promise<void> {
  const file = await resolveInside(outDir, urlPath);
  if (file === 'outside' || file === 'malformed')
    throw new HttpError(403, 'refused: that path is not inside the campaign folder');
  if (file === 'hidden') throw new HttpError(403, 'refused: evalrig view does not serve that');
  let handle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    throw new HttpError(404, 'no such file in the campaign folder');
  }
  const info = await handle.stat();
  if (!info.isFile()) {
    await handle.close();
    throw new HttpError(404, 'not a file');
  }
  const { type, csp } = typeOf(path.relative(outDir, file).split(path.sep).join('/'));
  res.writeHead(200, {
    ...baseHeaders(csp),
    'Content-Type': type,
    'Content-Length': info.size,
    'Cache-Control': 'no-cache',
  });
  createReadStream('', { fd: handle, autoClose: true }).pipe(res);
}
