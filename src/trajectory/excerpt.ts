import type { Step, Trajectory } from './types.js';

/** Each text of a step is shown to this many characters in an excerpt. */
const STEP_CHARS = 2000;

const clip = (text: string): string =>
  text.length <= STEP_CHARS
    ? text
    : `${text.slice(0, STEP_CHARS)} […${text.length - STEP_CHARS} more]`;

/** One step as plain lines: who did what, its input and output. */
export function stepLines(s: Step): string {
  switch (s.kind) {
    case 'message':
      return `[${s.role}] ${clip(s.text)}`;
    case 'model':
      return `[model${s.side ? ', side request' : ''}] ${s.text === null ? `(${s.outcome}${s.reason ? `: ${s.reason}` : ''}, no text)` : clip(s.text)}`;
    case 'tool':
      return `[tool ${s.name}] ${clip(s.input)}\n  -> ${s.output === null ? '(no result)' : clip(s.output)}${s.is_error ? ' (error)' : ''}`;
    case 'gh':
      return `[gh ${s.args}] exit ${s.exit_code}${s.played ? '' : ' (not played)'}${s.stdout ? `\n  -> ${clip(s.stdout)}` : ''}`;
    case 'output':
      return `[${s.stream}]\n${clip(s.text)}`;
    case 'stop':
      return `[stop, turn ${s.turn}: ${s.stop_kind ?? 'no kind'}${s.hand_over ? ', hands over' : ''}]`;
  }
}

/**
 * The end of one turn of a trajectory as text, at most `maxBytes` (UTF-8): what the judge is
 * shown of what the agent did, from the host's witness rather than the agent's own stream.
 * Earlier steps are left out first, and a line says how many.
 *
 * @example
 * trajectoryExcerpt(trajectory, 1, 16_000); // '[user] Plan multiply.\n[model] I will…'
 */
export function trajectoryExcerpt(trajectory: Trajectory, turn: number, maxBytes: number): string {
  const lines = trajectory.steps.filter((s) => s.turn === turn).map(stepLines);
  const kept: string[] = [];
  let bytes = 0;
  for (let k = lines.length - 1; k >= 0; k--) {
    const size = Buffer.byteLength(lines[k]!) + 1;
    if (bytes + size > maxBytes) {
      kept.unshift(`[evalrig: ${k + 1} earlier steps not shown]`);
      break;
    }
    bytes += size;
    kept.unshift(lines[k]!);
  }
  return kept.join('\n');
}
