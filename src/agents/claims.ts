import type { WitnessedTurn } from '../flight/index.js';
import type { TurnSummary } from './stream.js';

/** At most this many examples are named in one reason. */
const EXAMPLES = 3;

/**
 * Where an agent's stream (its claim) disagrees with what the gateway relayed (the witness),
 * one sentence each; empty when they agree. The stream is written by a process the agent
 * controls: a line before, between or after the binary's own can say anything. What no honest
 * stream does: name an answer, a text or a tool call the model never sent, claim more tokens
 * than were billed, or end (or start) a turn twice. A stream may say less than the witness
 * (an agent does not show side requests): that is no disagreement.
 */
export function claimDisagreements(
  turn: number,
  summary: TurnSummary,
  witness: WitnessedTurn,
): string[] {
  const c = summary.claim;
  const at = `turn ${turn}: the agent's stream`;
  const out: string[] = [];
  if (c.terminals > 1) out.push(`${at} ends the turn ${c.terminals} times (an agent writes one)`);
  if (c.starts > 1) out.push(`${at} starts the session ${c.starts} times (an agent writes one)`);
  const unseen = (list: readonly string[], seen: ReadonlySet<string>) =>
    [...new Set(list)].filter((x) => !seen.has(x));
  const ids = unseen(c.answerIds, witness.answerIds);
  if (ids.length > 0)
    out.push(`${at} names model answers the gateway never relayed (${names(ids)})`);
  const calls = unseen(c.toolCallIds, witness.toolCallIds);
  if (calls.length > 0)
    out.push(`${at} names tool calls the model never asked for (${names(calls)})`);
  // A text may join what two calls sent (Gemini CLI keeps a cut stream's start before the
  // retry's answer): a part of what the model wrote, in order, is no forgery.
  const written = witnessWritten(witness);
  const texts = unseen(c.texts, witness.texts).filter((t) => !written(t));
  if (texts.length > 0)
    out.push(`${at} shows ${texts.length} text(s) the model never wrote (${quoted(texts)})`);
  const final = summary.finalMessage;
  if (final !== null && texts.length === 0 && !witness.texts.has(final) && !written(final)) {
    out.push(`${at} gives a final message the model never wrote (${quoted([final])})`);
  }
  out.push(...tokenDisagreements(at, summary, witness));
  return out;
}

/** Whether `text` is a run of what the model wrote in the turn, its texts joined in order. */
function witnessWritten(witness: WitnessedTurn): (text: string) => boolean {
  let joined: readonly string[] | undefined;
  return (text) => {
    joined ??= [[...witness.texts].join(''), [...witness.texts].join('\n')];
    return text !== '' && joined.some((j) => j.includes(text));
  };
}

/** Each line that ends the turn states its tokens: none may exceed what the gateway relayed. */
function tokenDisagreements(at: string, summary: TurnSummary, witness: WitnessedTurn): string[] {
  const out = new Set<string>();
  const seen = witness.tokens;
  const fields = [
    ['input', 'input tokens'],
    ['output', 'output tokens'],
    ['cacheRead', 'cache reads'],
    ['cacheWrite', 'cache writes'],
  ] as const;
  for (const claimed of [...summary.claim.stated, summary.tokens]) {
    for (const [key, words] of fields) {
      if (claimed[key] > seen[key]) {
        out.add(`${at} claims ${claimed[key]} ${words}; the gateway relayed ${seen[key]}`);
      }
    }
  }
  return [...out];
}

function names(list: readonly string[]): string {
  const shown = list.slice(0, EXAMPLES).map((s) => s.slice(0, 60));
  return list.length > EXAMPLES ? `${shown.join(', ')}, …` : shown.join(', ');
}

function quoted(list: readonly string[]): string {
  const q = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);
  const shown = list.slice(0, EXAMPLES).map(q);
  return list.length > EXAMPLES ? `${shown.join(', ')}, …` : shown.join(', ');
}
