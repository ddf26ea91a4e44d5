/**
 * A model script played, on paper, against requests a campaign recorded: which response each
 * request would get, and how it was chosen. The stand-in's own rule (ScriptPlayer) decides,
 * so a dry run and a real play cannot disagree.
 */
import {
  requestText,
  ScriptPlayer,
  type ModelScript,
  type PickHow,
  type ScriptResponse,
} from '../model-stand-in/index.js';

/** One session: what a stand-in would see from its start (a run, or one judge question). */
export interface RecordedSession {
  /** Its folder in the campaign (`runs/<eval>/<condition>/run-NN`), `#N` for a judge question. */
  readonly label: string;
  /** The request bodies in the order they arrived; null where the body was not kept. */
  readonly requests: ReadonlyArray<{ readonly seq: number; readonly body: unknown }>;
}

/** What one recorded request would get. */
export interface DryRunRow {
  readonly session: string;
  readonly seq: number;
  /** The response's index in `responses`, or null (none fits: the stand-in answers 400). */
  readonly response: number | null;
  /** `unkept`: the record holds no body to match (nothing played for it). */
  readonly how: PickHow | 'unkept';
  /** A few words of the response: its comment, text or tool calls, or its error. */
  readonly summary: string;
}

const MAX_SUMMARY = 60;

function clip(text: string): string {
  const one = text.replace(/\s+/gu, ' ').trim();
  return one.length > MAX_SUMMARY ? `${one.slice(0, MAX_SUMMARY - 1)}…` : one;
}

/** A few words of a scripted response, for a person matching rows with the script. */
export function responseSummary(r: ScriptResponse): string {
  const comment = (r as { description?: unknown }).description;
  if (typeof comment === 'string') return clip(comment);
  if ('error' in r) return `error ${r.error.status}`;
  const words = r.content.map((b) =>
    'text' in b
      ? b.text
      : 'tool_use' in b
        ? `[${b.tool_use.name}]`
        : 'server_tool_use' in b
          ? `[${b.server_tool_use.name}]`
          : '[thinking]',
  );
  return clip(words.join(' '));
}

/** Each session played from the script's start, as each run's stand-in plays it. */
export function dryRun(script: ModelScript, sessions: readonly RecordedSession[]): DryRunRow[] {
  const rows: DryRunRow[] = [];
  for (const s of sessions) {
    const player = new ScriptPlayer(script);
    for (const { seq, body } of s.requests) {
      if (body === null) {
        rows.push({ session: s.label, seq, response: null, how: 'unkept', summary: '' });
        continue;
      }
      const { index, how } = player.pick(requestText(body));
      if (index >= 0) player.markPlayed(index);
      rows.push({
        session: s.label,
        seq,
        response: index >= 0 ? index : null,
        how,
        summary: index >= 0 ? responseSummary(script.responses[index]!) : 'no response fits: 400',
      });
    }
  }
  return rows;
}

/** How many rows were chosen each way. */
export function tally(rows: readonly DryRunRow[]): Record<DryRunRow['how'], number> {
  const out = { when: 0, in_order: 0, fallback: 0, none: 0, unkept: 0 };
  for (const r of rows) out[r.how]++;
  return out;
}
