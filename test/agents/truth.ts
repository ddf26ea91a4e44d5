/**
 * What the logging upstream says happened on one route: the figures an adapter must report,
 * computed from which scripted response answered each request (the stand-in's own log) and the
 * script itself, never from evalrig's readers of the wire.
 */
import type { ModelScript, ScriptMessage, ScriptResponse } from '../../src/model-stand-in/index.js';
import type { LoggedCall, LoggingUpstream } from '../support/logging-upstream.js';

export interface TruthFigures {
  /** Requests answered whole. */
  readonly modelRequests: number;
  /** Requests that failed (an HTTP error, a stream cut) and were asked again. */
  readonly retries: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** Tool calls of the whole answers. */
  readonly toolCalls: number;
  /** The last text of the last whole answer that has text. */
  readonly finalMessage: string | null;
}

const isMessage = (r: ScriptResponse | undefined): r is ScriptMessage =>
  r !== undefined && 'content' in r;

/**
 * The figures of one turn of the route's session, as the upstream served it: its requests
 * `calls.first` to `calls.last`, in the order they arrived (the gateway numbers them so too).
 */
export function truthOf(
  upstream: LoggingUpstream,
  route: string,
  script: ModelScript,
  calls: { readonly first: number; readonly last: number },
): TruthFigures {
  const served = upstream
    .standIn(route)
    .filter((r) => r.n >= calls.first && r.n <= calls.last)
    .map((r) => (r.response === null ? undefined : script.responses[r.response]));
  const whole = served.filter((r): r is ScriptMessage => isMessage(r) && !r.stream_error);
  // A failure counts as a retry when another request followed it in the turn.
  const endedFailing = served.length > 0 && !whole.includes(served.at(-1) as ScriptMessage);
  const texts = (m: ScriptMessage) => m.content.flatMap((b) => ('text' in b ? [b.text] : []));
  // The model's last text in the turn: from the last answer that has any.
  const last = [...whole].reverse().find((m) => texts(m).length > 0);
  return {
    modelRequests: whole.length,
    retries: served.length - whole.length - (endedFailing ? 1 : 0),
    inputTokens: whole.reduce((n, m) => n + (m.usage?.input_tokens ?? 0), 0),
    outputTokens: whole.reduce((n, m) => n + (m.usage?.output_tokens ?? 0), 0),
    toolCalls: whole.reduce((n, m) => n + m.content.filter((b) => 'tool_use' in b).length, 0),
    finalMessage: last ? (texts(last).at(-1) ?? null) : null,
  };
}

/** Whether any request the route's upstream received holds `text` (anywhere in its body). */
export function sent(calls: readonly LoggedCall[], text: string): boolean {
  return calls.some((c) => c.body.includes(text));
}

/** The header that carried the key on each call (whatever the API's name for it). */
export function keyHeaders(calls: readonly LoggedCall[]): string[] {
  return calls.map((c) => {
    const h = c.headers;
    const v = h['x-api-key'] ?? h['x-goog-api-key'] ?? h.authorization;
    return Array.isArray(v) ? v.join(',') : (v ?? '');
  });
}
