/**
 * What crosses to the upstream and back: the request headers passed on (the client's key
 * never; the host's key added in the header its API reads), the query and path, and the
 * response headers passed back, masked.
 */
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import path from 'node:path';
import type { WireApi } from '../flight/index.js';
import type { SecretScrubber } from './scrub.js';
import type { Gateway } from './state.js';
import type { UpstreamAuth } from './types.js';

/** Request headers passed on; everything else (the client's key above all) is dropped. */
export const REQUEST_HEADERS = [
  'content-type',
  'accept',
  'anthropic-version',
  'anthropic-beta',
  'openai-beta',
  'user-agent',
];
/** Response headers passed back: what the clients need to stream, to retry and to pace themselves. */
export const RESPONSE_HEADERS = [
  'content-type',
  'cache-control',
  'retry-after',
  'retry-after-ms',
  'x-should-retry',
  'request-id',
  'x-request-id',
];
/** The rate-limit headers each API sends, by prefix (the agents pace themselves by them). */
export const RESPONSE_HEADER_PREFIXES = ['anthropic-ratelimit-', 'x-ratelimit-'];

export function upstreamHeaders(
  g: Gateway,
  req: IncomingMessage,
  length: number,
  api: WireApi,
): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = { 'content-length': length };
  for (const name of REQUEST_HEADERS) {
    const v = req.headers[name];
    if (typeof v === 'string') headers[name] = v;
  }
  const key = g.opts.upstream.apiKey;
  const auth = g.opts.upstream.auth ?? api.auth;
  if (key !== undefined) Object.assign(headers, keyHeader(auth, key));
  if (key !== undefined && auth === 'oauth') {
    headers['anthropic-beta'] = withBeta(headers['anthropic-beta'] as string | undefined);
  }
  return headers;
}

/**
 * The beta Claude Code adds to every request it signs with a subscription's OAuth token
 * (checked in the strings of its 2.1.332 binary: `oauth_auth`, sent when it is a subscriber).
 * The agent in the container holds a placeholder key, so it never sends it itself.
 */
export const OAUTH_BETA = 'oauth-2025-04-20';

/** The client's `anthropic-beta` list with the OAuth beta in it (once). */
export function withBeta(client: string | undefined): string {
  const betas = (client ?? '')
    .split(',')
    .map((b) => b.trim())
    .filter((b) => b !== '');
  return [...new Set([...betas, OAUTH_BETA])].join(',');
}

/** The key in the header its API reads (the client's own key header was never passed on). */
export function keyHeader(auth: UpstreamAuth, key: string): Record<string, string> {
  switch (auth) {
    case 'bearer':
    case 'oauth':
      return { authorization: `Bearer ${key}` };
    case 'x-goog-api-key':
      return { 'x-goog-api-key': key };
    case 'x-api-key':
      return { 'x-api-key': key };
  }
}

/**
 * The query passed upstream: only the parameters the API names (Gemini's `alt=sse`) and
 * Claude Code's `?beta=true`; anything else (a `key=` above all) is dropped.
 */
export function upstreamQuery(api: WireApi, url: URL): string {
  if (url.search === '?beta=true') return '?beta=true';
  const kept = new URLSearchParams();
  for (const name of api.query ?? []) {
    const v = url.searchParams.get(name);
    if (v !== null && /^[a-z]{1,16}$/u.test(v)) kept.set(name, v);
  }
  const q = kept.toString();
  return q === '' ? '' : `?${q}`;
}

/**
 * The upstream path of a call: the API's path under the upstream's base path. A base that ends
 * in the version the path starts with (`/openai/v1`, as OpenAI-compatible base URLs are given)
 * does not repeat it: `/openai/v1` + `/v1/responses` is `/openai/v1/responses`.
 *
 * @example
 * upstreamPath('/', '/v1/messages'); // '/v1/messages'
 * upstreamPath('/api/v1', '/v1/responses'); // '/api/v1/responses'
 */
export function upstreamPath(base: string, apiPath: string): string {
  const last = base.replace(/\/+$/u, '').split('/').pop() ?? '';
  const [, first = '', ...rest] = apiPath.split('/');
  const repeated = /^v\d+[a-z0-9]*$/u.test(last) && first === last;
  return path.posix.join(base, repeated ? rest.join('/') : apiPath);
}

/** The headers passed back, each value masked (a name holding a secret is dropped). */
export function responseHeaders(
  upRes: IncomingMessage,
  scrubber: SecretScrubber,
): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, v] of Object.entries(upRes.headers)) {
    const passed =
      RESPONSE_HEADERS.includes(name) || RESPONSE_HEADER_PREFIXES.some((p) => name.startsWith(p));
    if (!passed || typeof v !== 'string' || scrubber.text(name) !== name) continue;
    out[name] = scrubber.text(v).slice(0, 1000);
  }
  return out;
}
