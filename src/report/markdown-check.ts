/**
 * The structure check of a generated Markdown page, run before it is written: the headings
 * expected are there, and every table has a separator line and rows as wide as its header.
 * Fenced blocks are skipped: what they quote (a check's output) is text, not the page's tables.
 */
import { EvalrigError } from '../errors/index.js';

/** A generated page does not have the structure evalrig means it to: a bug, caught before writing. */
export class ReportStructureError extends EvalrigError {
  constructor(file: string, problem: string) {
    super(`${file} would be malformed: ${problem}`, { exitCode: 70 });
  }
}

function splitCells(line: string): number {
  // Count unescaped pipes: a row "| a | b |" has 3, so 2 cells.
  let pipes = 0;
  for (let i = 0; i < line.length; i++) {
    if (line[i] === '\\') i++;
    else if (line[i] === '|') pipes++;
  }
  return pipes - 1;
}

/** The page's lines with each fenced block's lines (fences included) blanked. */
function outsideFences(md: string): string[] {
  let open: string | null = null;
  return md.split('\n').map((line) => {
    const mark = /^(`{3,}|~{3,})/u.exec(line)?.[1];
    if (open === null) {
      if (!mark) return line;
      open = mark;
      return '';
    }
    // A fence closes on a line of its own character, at least as long, and nothing else.
    if (mark && mark[0] === open[0] && mark.length >= open.length && line.trim() === mark) {
      open = null;
    }
    return '';
  });
}

/**
 * Asserts the structure of generated Markdown: the headings expected are
 * there, and every table has a separator line and rows as wide as its header.
 */
export function checkMarkdown(file: string, md: string, headings: readonly string[]): void {
  const lines = outsideFences(md);
  for (const h of headings) {
    if (!lines.includes(h)) throw new ReportStructureError(file, `heading "${h}" is missing`);
  }
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith('|') || (i > 0 && lines[i - 1]!.startsWith('|'))) continue;
    const width = splitCells(lines[i]!);
    if (!/^\|( --- \|)+$/.test(lines[i + 1] ?? '') || splitCells(lines[i + 1]!) !== width) {
      throw new ReportStructureError(file, `the table at line ${i + 1} has no separator line`);
    }
    for (let j = i + 2; j < lines.length && lines[j]!.startsWith('|'); j++) {
      if (splitCells(lines[j]!) !== width) {
        throw new ReportStructureError(
          file,
          `line ${j + 1} has ${splitCells(lines[j]!)} cells, its table ${width}`,
        );
      }
    }
  }
}
