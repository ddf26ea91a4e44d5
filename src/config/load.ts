import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { InputError } from '../errors/index.js';
import { oneProblemPerUnknownType } from './agent-type.js';
import { semanticProblems } from './checks.js';
import { MAX_FILE_BYTES, tooDeep, tooWide } from './limits.js';
import { normalize } from './normalize.js';
import { EvalSetError, inDocumentOrder, type Problem } from './problems.js';
import type { RawEvalSet } from './raw.js';
import { schemaProblems } from './schema.js';
import type { EvalSet } from './types.js';

/** evals.json is not JSON at all: where the parser stopped, by line and column (1-based). */
export class EvalSetSyntaxError extends EvalSetError {
  constructor(
    file: string,
    readonly line: number,
    readonly column: number,
    readonly reason: string,
    /** The line the parser stopped on and a caret under its column (empty when unknown). */
    readonly snippet: string = '',
  ) {
    super(file, [
      { pointer: '', message: `not valid JSON at line ${line}, column ${column}: ${reason}` },
    ]);
    this.message = `${file}:${line}:${column}: not valid JSON: ${reason}${snippet ? `\n${snippet}` : ''}`;
  }
}

/** The most characters of the line a snippet shows, around the column. */
const SNIPPET_WIDTH = 100;

/**
 * Line `line` of `text`, indented, with a caret under `column` (1-based): a long line is cut
 * to the part around the column, tabs kept in the caret's line so it lines up.
 *
 * @example
 * snippetAt('{\n  "a": 1\n  "b": 2\n}', 3, 3); // '  3 |   "b": 2\n    |   ^'
 */
export function snippetAt(text: string, line: number, column: number): string {
  const source = text.split('\n')[line - 1];
  if (source === undefined) return '';
  const whole = source.replace(/\r$/u, '');
  const start = Math.max(0, Math.min(column - 1 - SNIPPET_WIDTH / 2, whole.length - SNIPPET_WIDTH));
  const shown = whole.slice(start, start + SNIPPET_WIDTH);
  const lead = start > 0 ? '…' : '';
  const before = shown.slice(0, Math.max(0, column - 1 - start)).replace(/[^\t]/gu, ' ');
  const gutter = String(line).padStart(3);
  return `${gutter} | ${lead}${shown}${start + SNIPPET_WIDTH < whole.length ? '…' : ''}\n${' '.repeat(gutter.length)} | ${lead ? ' ' : ''}${before}^`;
}

/** What loadEvalSet checks against besides the file. */
export interface LoadOptions {
  /** The host's variables (default process.env): a key evalrig adds on the host must stay out. */
  readonly env?: NodeJS.ProcessEnv;
}

/**
 * Reads, validates and normalizes an eval set. Nothing is built or written.
 *
 * @param file path of evals.json, as the user gave it (used in messages).
 * @throws EvalSetError listing every problem, each with its JSON pointer
 *   (EvalSetSyntaxError when the file is not JSON); InputError when the file
 *   cannot be read.
 * @example
 * const set = await loadEvalSet('examples/toy/evals.json');
 * console.log(set.evals.length, set.conditions.map((c) => c.name));
 */
export async function loadEvalSet(file: string, options: LoadOptions = {}): Promise<EvalSet> {
  const absolute = path.resolve(file);
  const bytes = await readBytes(file, absolute);
  const doc = parseJson(file, bytes);
  const wide = tooWide(doc);
  if (wide.length > 0) throw new EvalSetError(file, wide);
  const problems: Problem[] = oneProblemPerUnknownType(doc, [
    ...schemaProblems(doc),
    ...(await semanticProblems(doc, path.dirname(absolute), options.env ?? process.env)),
  ]);
  if (problems.length > 0) throw new EvalSetError(file, inDocumentOrder(doc, problems));
  return normalize(doc as RawEvalSet, {
    file: absolute,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  });
}

async function readBytes(file: string, absolute: string): Promise<Buffer> {
  let handle: FileHandle | undefined;
  try {
    // Non-blocking: a FIFO named as the eval set must be refused, not waited on.
    handle = await open(absolute, constants.O_RDONLY | constants.O_NONBLOCK);
    const info = await handle.stat();
    if (info.isDirectory()) throw refused(file, 'is a folder; give the path of its evals.json');
    if (!info.isFile()) throw refused(file, 'not a regular file');
    if (info.size > MAX_FILE_BYTES) throw refused(file, tooLarge(info.size));
    // Read to the end, at most one byte past the cap: the file may grow while it is read.
    const buffer = Buffer.allocUnsafe(MAX_FILE_BYTES + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > MAX_FILE_BYTES) throw refused(file, tooLarge(length));
    }
    return buffer.subarray(0, length);
  } catch (error) {
    if (error instanceof InputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'is a folder; give the path of its evals.json'
          : ((error as Error).message ?? String(error));
    throw new InputError(`cannot read eval set ${file}: ${why}`, { cause: error });
  } finally {
    await handle?.close();
  }
}

function refused(file: string, why: string): InputError {
  return new InputError(`cannot read eval set ${file}: ${why}`);
}

function tooLarge(size: number): string {
  return `${size} bytes is too large for an eval set (at most ${MAX_FILE_BYTES})`;
}

function parseJson(file: string, bytes: Buffer): unknown {
  // An editor's byte-order mark is not a mistake worth refusing.
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  // Before parsing: millions of nested arrays parse, slowly, into a document
  // every recursive reader (schema, messages) would overflow its stack on.
  const deep = tooDeep(text);
  if (deep) throw new EvalSetError(file, [deep]);
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = (error as Error).message;
    const { line, column } = locate(text, reason);
    const short = reason
      .replace(/ in JSON at position \d+.*$/s, '')
      .replace(/\s*\(line \d+ column \d+\)$/, '');
    throw new EvalSetSyntaxError(file, line, column, short, snippetAt(text, line, column));
  }
}

/** Line and column of a JSON.parse failure (its message gives a position, or none at the end). */
function locate(text: string, reason: string): { line: number; column: number } {
  const given = /line (\d+) column (\d+)/.exec(reason);
  if (given) return { line: Number(given[1]), column: Number(given[2]) };
  const at = /at position (\d+)/.exec(reason);
  const offset = at ? Number(at[1]) : text.length;
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - (before.lastIndexOf('\n') + 1) + 1;
  return { line, column };
}
