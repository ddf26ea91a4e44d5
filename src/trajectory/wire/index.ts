/**
 * A conversation's bodies read as the trajectory needs them: who said what, which tools were
 * called with which input, and what each returned, one reader per wire API. Every value is the
 * agent's or the model's (untrusted): read as data, never followed; unknown shapes are skipped,
 * never guessed at.
 */
import { CHAT_CONVERSATION } from './chat.js';
import {
  isObj,
  type ConversationReader,
  type WireAnswer,
  type WireApiName,
  type WireEntry,
} from './common.js';
import { GEMINI_CONVERSATION } from './gemini.js';
import { MESSAGES_CONVERSATION } from './messages.js';
import { RESPONSES_CONVERSATION } from './responses.js';

export type { WireAnswer, WireEntry, WireItem } from './common.js';

const READERS: Readonly<Record<WireApiName, ConversationReader>> = {
  messages: MESSAGES_CONVERSATION,
  responses: RESPONSES_CONVERSATION,
  chat: CHAT_CONVERSATION,
  gemini: GEMINI_CONVERSATION,
};

/** The history a request carries, as its raw elements (messages, input items or contents). */
export function requestHistory(api: WireApiName, body: unknown): unknown[] {
  return isObj(body) ? READERS[api].history(body) : [];
}

/** One element of a request's history, read. */
export function entryOf(api: WireApiName, element: unknown): WireEntry {
  return READERS[api].entry(element);
}

/** The history a request carries, one entry per element (see {@link requestHistory}). */
export function requestEntries(api: WireApiName, body: unknown): WireEntry[] {
  return requestHistory(api, body).map((e) => entryOf(api, e));
}

/**
 * Reads a relayed response (server-sent events or JSON) for its texts and tool calls with
 * their whole inputs, which the flight record's own facts leave out.
 */
export function answerOf(api: WireApiName, text: string): WireAnswer {
  const answer: WireAnswer = { texts: [], toolCalls: [] };
  const sse = /^(event|data):/mu.test(text.slice(0, 200));
  if (!sse) {
    const body = parseJson(text);
    READERS[api].answer(null, isObj(body) ? body : null, answer);
    return answer;
  }
  const events = text
    .split(/\r?\n/u)
    .filter((line) => line.startsWith('data:'))
    .map((line) => parseJson(line.slice(5).trim()))
    .filter(isObj);
  READERS[api].answer(events, null, answer);
  return answer;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}
