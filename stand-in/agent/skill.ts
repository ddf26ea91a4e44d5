import { checkActions, parseJson, type Action } from './script.js';

/** The info string that marks a fenced block as actions for the scripted agent. */
export const FENCE_LANGUAGE = 'evalrig-agent';

interface OpenFence {
  /** The fence characters that opened it (``` or ~~~, maybe longer). */
  readonly marker: string;
  /** The block's lines when it is ours; undefined for another language's block. */
  readonly lines: string[] | undefined;
}

/**
 * The actions of every ```evalrig-agent fenced block of a Markdown file, in
 * order. Each block holds a JSON array of actions; other blocks are skipped
 * (fences as CommonMark reads them: ``` or ~~~, closed by at least as many).
 *
 * @example
 * skillActions('Do this:\n```evalrig-agent\n[{"say": "done"}]\n```\n', 'SKILL.md')
 * // [{ say: 'done' }]
 */
export function skillActions(markdown: string, file: string): Action[] {
  const actions: Action[] = [];
  let open: OpenFence | undefined;
  let count = 0;
  for (const line of markdown.split(/\r?\n/)) {
    if (open === undefined) {
      const m = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/.exec(line);
      if (m) open = { marker: m[1]!, lines: m[2] === FENCE_LANGUAGE ? [] : undefined };
      continue;
    }
    const char = open.marker[0]!;
    const closes =
      line.trim().length >= open.marker.length &&
      /^ {0,3}$/.test(line.slice(0, line.indexOf(char))) &&
      [...line.trim()].every((c) => c === char);
    if (!closes) {
      open.lines?.push(line);
      continue;
    }
    if (open.lines !== undefined) {
      count += 1;
      const where = `${file} (evalrig-agent block ${count})`;
      actions.push(...checkActions(parseJson(open.lines.join('\n'), where), where, ''));
    }
    open = undefined;
  }
  return actions;
}
