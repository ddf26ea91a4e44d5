/**
 * The truth an agent adapter is held to: a logging upstream on the host that records exactly
 * what each real binary sent, call by call (after the run's gateway, before the model), and
 * what it was served. Each route (`/<route>/…`) has its own model stand-in behind it, playing
 * its own script, so that the conditions of one campaign each talk to a model of their own.
 * Nothing here is evalrig's code under test: it is a plain HTTP proxy that keeps bytes.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  startModelStandIn,
  type ModelScript,
  type ModelStandIn,
  type StandInRequest,
} from '../../src/model-stand-in/index.js';

/** One call as the upstream saw it. */
export interface LoggedCall {
  readonly route: string;
  /** The path the stand-in was asked for (the route taken off). */
  readonly path: string;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The request body, as sent. */
  readonly body: string;
  readonly status: number;
  /** The response body, as served (server-sent events or JSON). */
  readonly response: string;
}

export interface LoggingUpstream {
  /** The base URL of a route: what an eval set's `agent.model.url` names. */
  url(route: string): string;
  /** Calls so far, in the order they ended; of one route when given. */
  calls(route?: string): LoggedCall[];
  /** What the route's stand-in saw: which scripted response answered each request. */
  standIn(route: string): StandInRequest[];
  close(): Promise<void>;
}

/** Starts the upstream with one stand-in per route, each playing its script. */
export async function startLoggingUpstream(
  routes: Readonly<Record<string, ModelScript>>,
): Promise<LoggingUpstream> {
  const standIns = new Map<string, ModelStandIn>();
  for (const [route, script] of Object.entries(routes)) {
    standIns.set(route, await startModelStandIn({ script, listen: { port: 0 } }));
  }
  const logged: LoggedCall[] = [];
  const server = createServer((req, res) => relay(req, res, standIns, logged));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (route) => `http://127.0.0.1:${port}/${route}`,
    calls: (route) => logged.filter((c) => route === undefined || c.route === route),
    standIn: (route) => standIns.get(route)?.requests() ?? [],
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...standIns.values()].map((s) => s.close()));
    },
  };
}

function relay(
  req: IncomingMessage,
  res: ServerResponse,
  standIns: ReadonlyMap<string, ModelStandIn>,
  logged: LoggedCall[],
): void {
  const url = req.url ?? '/';
  const m = /^\/([^/]+)(\/.*)$/u.exec(url);
  const standIn = m ? standIns.get(m[1]!) : undefined;
  if (!m || !standIn) {
    res.writeHead(404).end('no such route');
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks);
    const target = new URL(m[2]!, standIn.url);
    const up = request(
      target,
      { method: req.method, headers: { ...req.headers, host: target.host } },
      (answer) => {
        const served: Buffer[] = [];
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.on('data', (c: Buffer) => {
          served.push(c);
          res.write(c);
        });
        answer.on('end', () => {
          logged.push({
            route: m[1]!,
            path: target.pathname,
            headers: req.headers,
            body: body.toString('utf8'),
            status: answer.statusCode ?? 502,
            response: Buffer.concat(served).toString('utf8'),
          });
          res.end();
        });
      },
    );
    up.on('error', () => res.destroy());
    up.end(body);
  });
}
