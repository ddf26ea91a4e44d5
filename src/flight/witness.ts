import type { RelayedCall } from './types.js';
import type { CallTokens, ServerToolUse } from './wire/types.js';

/** Tokens summed over calls (an unreported count adds nothing; see `unreported`). */
export interface WitnessTokens {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
}

/** What the gateway saw of one turn: the figures evalrig reports for it. */
export interface WitnessedTurn {
  /** The first and last call of the turn, or null when it made none. */
  readonly calls: { readonly first: number; readonly last: number } | null;
  /** Calls the upstream answered: `complete`, or `incomplete` (a real answer a limit cut). */
  readonly modelRequests: number;
  /** Calls the upstream failed (an HTTP error, a cut or failed answer) that another call followed. */
  readonly retries: number;
  /**
   * Every usage the upstream reported, whatever the call's outcome (a cut stream's before its
   * cut, a failed response's): what it bills, counted in the tokens and the cost alike.
   */
  readonly tokens: WitnessTokens;
  /** Answered calls whose usage the upstream did not report (no tokens, no cost from them). */
  readonly unreported: number;
  /** Priced host-side; null when a call's model is not in the price table. */
  readonly costUsd: number | null;
  /** The tool calls the answers asked for (a cut or failed call's never count: nothing ran them). */
  readonly toolCalls: {
    readonly total: number;
    /** Results marked as errors in later requests; null when the API has no such mark. */
    readonly failed: number | null;
    /** Calls the agent refused to run (its own policy), read from the results it sent back. */
    readonly refused: number;
    readonly byName: Readonly<
      Record<string, { readonly count: number; readonly failed: number; readonly refused: number }>
    >;
  };
  /** The model's last text in the turn (its agent loop's, not a side request's), or null. */
  readonly finalMessage: string | null;
  /** Every answer id and text the model sent in the turn, cut ones too (what a claim may cite). */
  readonly answerIds: ReadonlySet<string>;
  readonly texts: ReadonlySet<string>;
  readonly toolCallIds: ReadonlySet<string>;
}

/**
 * Prices one call on its model (USD): its tokens and its server tools' requests (billed apart),
 * or null for a model the table lacks.
 */
export type CallPricer = (
  model: string,
  tokens: WitnessTokens,
  serverTools?: ServerToolUse,
) => number | null;

/** Tells a tool result the agent wrote to refuse a call (its adapter's forms) from any other. */
export type RefusalTest = (resultText: string) => boolean;

const MAX_NAMES = 200;
/** What the upstream answered: a whole answer, or one a limit cut short (still an answer). */
const ANSWERED = new Set(['complete', 'incomplete']);
const add = (n: number | null): number => n ?? 0;

/**
 * The figures of a turn from the calls the gateway relayed during it (`calls`, in order): the
 * requests answered, the billed tokens summed in the one convention, the cost priced on the
 * host, the tool calls the model asked for, and its final message.
 */
export function witnessTurn(
  calls: readonly RelayedCall[],
  price: CallPricer,
  refused: RefusalTest = () => false,
): WitnessedTurn {
  const answered = calls.filter((c) => c.status === 200 && ANSWERED.has(c.outcome));
  const sent = calls.filter((c) => c.status === 200);
  const tokens = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
  let unreported = 0;
  let cost: number | null = 0;
  for (const c of calls) {
    if (isUnreported(c.tokens)) {
      if (answered.includes(c)) unreported++;
      continue;
    }
    const t = {
      input: add(c.tokens.input),
      output: add(c.tokens.output),
      cacheRead: add(c.tokens.cacheRead),
      cacheWrite: add(c.tokens.cacheWrite),
    };
    tokens.input += t.input;
    tokens.output += t.output;
    tokens.cacheRead += t.cacheRead;
    tokens.cacheWrite += t.cacheWrite;
    const priced = c.model === null ? null : price(c.model, t, c.serverTools);
    cost = cost === null || priced === null ? null : cost + priced;
  }
  // A call the gateway refused was never the upstream's to answer: no retry of a model request.
  const failedLike = new Set(['error', 'cut', 'failed']);
  const retries = calls.filter((c, i) => failedLike.has(c.outcome) && i < calls.length - 1).length;
  return {
    calls: calls.length === 0 ? null : { first: calls[0]!.seq, last: calls[calls.length - 1]!.seq },
    modelRequests: answered.length,
    retries,
    tokens,
    unreported,
    costUsd: cost === null ? null : Math.round(cost * 1e6) / 1e6,
    toolCalls: toolCallsOf(answered, calls, refused),
    finalMessage: finalMessageOf(answered),
    // What the model sent, answers cut mid-way too: an agent may show the part it got.
    answerIds: new Set(sent.flatMap((c) => (c.answerId === null ? [] : [c.answerId]))),
    // Each text block, and each answer's blocks joined (an agent may show them as one).
    texts: new Set(sent.flatMap((c) => [...c.texts, c.texts.join(''), c.texts.join('\n')])),
    toolCallIds: new Set(
      sent.flatMap((c) => c.toolCalls.flatMap((t) => (t.id === null ? [] : [t.id]))),
    ),
  };
}

function isUnreported(t: CallTokens): boolean {
  return t.input === null && t.output === null && t.cacheRead === null && t.cacheWrite === null;
}

function toolCallsOf(
  answered: readonly RelayedCall[],
  all: readonly RelayedCall[],
  refusal: RefusalTest,
): WitnessedTurn['toolCalls'] {
  const byName = new Map<string, { count: number; failed: number; refused: number }>();
  const nameOf = new Map<string, string>();
  let total = 0;
  for (const c of answered) {
    for (const t of c.toolCalls) {
      total++;
      if (t.id !== null && nameOf.size < 100_000) nameOf.set(t.id, t.name);
      const entry =
        byName.get(t.name) ??
        (byName.size < MAX_NAMES ? { count: 0, failed: 0, refused: 0 } : undefined);
      if (entry) {
        entry.count++;
        byName.set(t.name, entry);
      }
    }
  }
  // A result the agent sent back marked as an error, or written as its refusal: counted once,
  // whatever the retries. A refused call ran nothing: it is not a failed one too.
  const failedIds = new Set<string>();
  const refusedIds = new Set<string>();
  let marked = false;
  for (const c of all) {
    for (const r of c.requestFacts?.toolResults ?? []) {
      if (r.isError !== null) marked = true;
      // Gemini names no call by id: its results go by the agent's own id and the tool's name.
      if (r.name !== undefined && !nameOf.has(r.id) && nameOf.size < 100_000)
        nameOf.set(r.id, r.name);
      if (!nameOf.has(r.id)) continue;
      if (r.text !== undefined && refusal(r.text)) refusedIds.add(r.id);
      else if (r.isError === true) failedIds.add(r.id);
    }
  }
  for (const id of refusedIds) failedIds.delete(id);
  const bump = (ids: Set<string>, key: 'failed' | 'refused') => {
    for (const id of ids) {
      const entry = byName.get(nameOf.get(id)!);
      if (entry) entry[key]++;
    }
  };
  bump(failedIds, 'failed');
  bump(refusedIds, 'refused');
  const anyResults = all.some((c) => (c.requestFacts?.toolResults.length ?? 0) > 0);
  return {
    total,
    failed: marked || !anyResults ? failedIds.size : null,
    refused: refusedIds.size,
    byName: Object.fromEntries(byName),
  };
}

/**
 * The model's last non-empty text of the turn, from its agent loop: the last answered call
 * whose request declared tools (a side request, a title or a summary, declares none), else
 * the last answered call with text at all.
 */
function finalMessageOf(answered: readonly RelayedCall[]): string | null {
  const lastText = (c: RelayedCall): string | null =>
    [...c.texts].reverse().find((t) => t.trim() !== '') ?? null;
  const withText = answered.filter((c) => lastText(c) !== null);
  const loop = withText.filter((c) => c.requestFacts?.hasTools === true);
  const last = (loop.length > 0 ? loop : withText).at(-1);
  return last ? lastText(last) : null;
}
