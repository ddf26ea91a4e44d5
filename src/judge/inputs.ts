import path from 'node:path';
import type { RunRecord } from '../artifacts/index.js';
import {
  problemOf,
  readRun,
  readRunPart,
  runFiles,
  transcriptName,
  turnOutputName,
} from '../campaign-folder/index.js';
import { EvalrigError } from '../errors/index.js';
import { commandFinalMessage, finalMessageOf } from '../measure/index.js';
import { trajectoryExcerpt, witnessedTrajectory } from '../trajectory/index.js';

/** A stop's final message, as the judge is shown it. */
export interface StopMessage {
  readonly turn: number;
  readonly kind: string | null;
  readonly hand_over: boolean;
  /** The adapter's final message, else the last non-empty paragraph of the turn's stdout. */
  readonly message: string | null;
}

/** What the judge sees of one run, every part capped. */
export interface RunEvidence {
  readonly stops: readonly StopMessage[];
  /** The head of diff.patch, marked when cut. */
  readonly diff: string;
  /**
   * The end of each turn, sharing one budget, marked when cut: the steps the model gateway
   * witnessed where it kept a flight record, else the turn's transcript (or stdout).
   */
  readonly transcript: string;
}

export interface EvidenceCaps {
  readonly maxDiffBytes: number;
  readonly maxTranscriptBytes: number;
}

/** A final message is kept to this many characters. */
const MAX_MESSAGE_CHARS = 4000;
/** The end of a command agent's stdout read for its last paragraph. */
const STDOUT_TAIL_BYTES = 64 * 1024;

/**
 * Reads what the judge is shown of a finished run: every stop's final message, the head of
 * its diff and the end of each turn's transcript (an adapter's turns/turn-NN.jsonl, else a
 * command agent's turns/turn-NN.stdout.txt). The files are the host's own copies; each read is
 * bounded and follows no link.
 */
export async function readRunEvidence(
  runDir: string,
  record: RunRecord,
  caps: EvidenceCaps,
): Promise<RunEvidence> {
  const read = await readRun(runDir);
  // The judge is handed verified runs alone; one damaged since is not shown to it.
  if (read.status !== 'ok')
    throw new EvalrigError(`${runDir} cannot be judged: ${problemOf(read)}`);
  const files = runFiles(runDir);
  const stops: StopMessage[] = [];
  for (const stop of read.value.stops) {
    // The stop's own final message; a stop of an older evalrig has none for a command agent.
    const message =
      stop.final_message !== undefined || stop.agent !== undefined
        ? finalMessageOf(stop)
        : lastParagraph(await readTail(stdoutOf(files.turnsDir, stop.turn), STDOUT_TAIL_BYTES));
    stops.push({
      turn: stop.turn,
      kind: stop.kind,
      hand_over: stop.hand_over,
      message: message === null ? null : clipChars(message, MAX_MESSAGE_CHARS),
    });
  }
  const diff = await readHead(files.diffPatch, caps.maxDiffBytes);
  const turns = record.turns_completed;
  const share = Math.floor(caps.maxTranscriptBytes / Math.max(1, turns));
  const parts: string[] = [];
  // Where the gateway kept a flight record, the steps it witnessed; never the agent's own stream.
  const witnessed = await witnessedTrajectory(runDir);
  for (let turn = 1; turn <= turns; turn++) {
    const jsonl = path.join(files.turnsDir, transcriptName(turn));
    const text = witnessed
      ? trajectoryExcerpt(witnessed, turn, share)
      : ((await readTail(jsonl, share)) ??
        (await readTail(stdoutOf(files.turnsDir, turn), share)) ??
        '');
    parts.push(`--- turn ${turn} ---\n${text}`);
  }
  return {
    stops,
    diff: diff ?? '',
    transcript: parts.join('\n'),
  };
}

function stdoutOf(turnsDir: string, turn: number): string {
  return path.join(turnsDir, turnOutputName(turn, 'stdout'));
}

/**
 * The final message of a command agent: the last non-empty paragraph of its stdout (paragraphs
 * are separated by blank lines), evalrig's own truncation mark left out. null when it printed
 * nothing.
 */
export function lastParagraph(stdout: string | null): string | null {
  if (stdout === null) return null;
  return commandFinalMessage(
    stdout.replace(/\n\[evalrig: output truncated at \d+ bytes\]\n$/u, ''),
    false,
  );
}

function clipChars(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}\n[evalrig: cut at ${max} characters]` : text;
}

/** The first `max` bytes of a regular file (marked when cut), or null when there is none. */
function readHead(file: string, max: number): Promise<string | null> {
  return readRunPart(file, max, 'head');
}

/** The last `max` bytes of a regular file (marked when cut), or null when there is none. */
function readTail(file: string, max: number): Promise<string | null> {
  return readRunPart(file, max, 'tail');
}
