/**
 * The model APIs the gateway forwards and the witness reads, one object each behind
 * {@link WireApi}. A new API (Gemini's generateContent, Chat Completions) is one more entry:
 * its paths, its request facts and a response reader that fills {@link ResponseFacts}.
 */
import { MESSAGES_API } from './messages.js';
import { RESPONSES_API } from './responses.js';
import type { WireApi, WireApiName } from './types.js';

export const WIRE_APIS: Readonly<Record<WireApiName, WireApi>> = {
  messages: MESSAGES_API,
  responses: RESPONSES_API,
};

/** The API that serves `path`, or null (the gateway refuses what no API serves). */
export function wireApiFor(path: string): WireApi | null {
  for (const api of Object.values(WIRE_APIS)) if (api.paths.includes(path)) return api;
  return null;
}

export { SseSplitter } from './sse.js';
export * from './types.js';
