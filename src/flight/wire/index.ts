/**
 * The model APIs the gateway forwards and the witness reads, one object each behind
 * {@link WireApi}: its paths, its key header, its request facts and a response reader that
 * fills {@link ResponseFacts}. A new API is one more entry.
 */
import { CHAT_API } from './chat.js';
import { GEMINI_API } from './gemini.js';
import { MESSAGES_API } from './messages.js';
import { RESPONSES_API } from './responses.js';
import type { WireApi, WireApiName } from './types.js';

export const WIRE_APIS: Readonly<Record<WireApiName, WireApi>> = {
  messages: MESSAGES_API,
  responses: RESPONSES_API,
  chat: CHAT_API,
  gemini: GEMINI_API,
};

/** A model name as a path segment holds it (`gemini-2.5-pro`, `models/…` never). */
const SEGMENT = '[A-Za-z0-9][A-Za-z0-9._-]{0,127}';

/**
 * Whether `path` is one of `templates` (exact, `{model}` standing for one model-name segment).
 *
 * ```ts
 * pathMatches(['/v1beta/models/{model}:generateContent'], '/v1beta/models/gemini-2.5-pro:generateContent'); // true
 * ```
 */
export function pathMatches(templates: readonly string[], path: string): boolean {
  return templates.some((t) => {
    if (!t.includes('{model}')) return t === path;
    const parts = t.split('{model}').map((p) => p.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&'));
    return new RegExp(`^${parts.join(SEGMENT)}$`, 'u').test(path);
  });
}

/** The API that serves `path`, or null (the gateway refuses what no API serves). */
export function wireApiFor(path: string): WireApi | null {
  for (const api of Object.values(WIRE_APIS)) if (pathMatches(api.paths, path)) return api;
  return null;
}

export { SseSplitter } from './sse.js';
export * from './types.js';
