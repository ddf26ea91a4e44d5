import {
  closeSync,
  fstatSync,
  ftruncateSync,
  openSync,
  readFileSync,
  readSync,
  writeFileSync,
  writeSync,
} from 'node:fs';

/** One line of `calls.jsonl`: its type is generated from ../schemas/call.schema.json. */
export type { GhCall as CallRecord } from '../schemas/call.js';

/** What a call needs to know of `calls.jsonl` before it appends to it. */
export interface CallsTail {
  /** The file's size now: an append that fails is cut back to it. */
  size: number;
  /** The seq the next line gets: more than every seq this record has ever given. */
  nextSeq: number;
  /** The seq of the last line when it is a whole call line. */
  lastSeq?: number;
  /** True when the file does not end with a newline (a line cut short). */
  torn: boolean;
  /** What is wrong with the end of the record, when anything is (the call is then refused). */
  problem?: string;
}

/**
 * Reads the end of `calls.jsonl`: its last line, parsed, gives the next seq; a record that
 * does not end in a whole call line (torn, not JSON, no integer seq) is a problem, and the
 * next seq then comes from every line that still has one. `seqFile` keeps the highest seq
 * ever written, so that a record cut short or removed never makes numbering start again.
 */
export function inspectCalls(file: string, seqFile: string): CallsTail {
  const highWater = readHighWater(seqFile);
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
      return { size: 0, nextSeq: highWater + 1, torn: false };
    }
    throw e;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error(`${file} is not a regular file`);
    const size = st.size;
    if (size === 0) return { size, nextSeq: highWater + 1, torn: false };
    const last = lastLine(fd, size);
    const torn = !last.endsWith('\n');
    const seq = seqOf(last);
    if (!torn && seq !== undefined) {
      return { size, nextSeq: Math.max(seq, highWater) + 1, lastSeq: seq, torn };
    }
    const problem = torn
      ? 'its last line is cut short (no newline at its end)'
      : seq === undefined && parses(last)
        ? 'its last line has no valid seq (a positive integer)'
        : 'its last line is not a JSON call record';
    return { size, nextSeq: Math.max(maxSeq(file), highWater) + 1, torn, problem };
  } finally {
    closeSync(fd);
  }
}

/** The last line (with its newline when it has one), read backwards from the end. */
function lastLine(fd: number, size: number): string {
  let chunk = 64 * 1024;
  for (;;) {
    const len = Math.min(chunk, size);
    const buf = Buffer.alloc(len);
    readSync(fd, buf, 0, len, size - len);
    // Skip the final newline, then look for the one before the last line.
    const end = buf[len - 1] === 0x0a ? len - 1 : len;
    const nl = buf.lastIndexOf(0x0a, end - 1);
    if (nl >= 0 || len === size) return buf.toString('utf8', nl + 1);
    chunk *= 4;
  }
}

function parses(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

/** The seq of a call line; undefined when the line is not an object with a positive integer seq. */
function seqOf(line: string): number | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const seq = (value as { seq?: unknown }).seq;
  return typeof seq === 'number' && Number.isSafeInteger(seq) && seq >= 1 ? seq : undefined;
}

/**
 * The highest seq of every line that has one (0 when none), a line cut short included (the
 * stand-in writes `seq` first): only read for a damaged record.
 */
function maxSeq(file: string): number {
  let max = 0;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const seq = seqOf(line) ?? Number(/^\{"seq":(\d{1,15})[,}]/.exec(line)?.[1] ?? 0);
    if (seq > max) max = seq;
  }
  return max;
}

function readHighWater(seqFile: string): number {
  try {
    const n = Number(readFileSync(seqFile, 'utf8').trim());
    return Number.isSafeInteger(n) && n > 0 ? n : 0;
  } catch {
    return 0;
  }
}

/** Notes the highest seq written (after its line is appended). */
export function writeHighWater(seqFile: string, seq: number): void {
  writeFileSync(seqFile, `${seq}\n`);
}

/**
 * Appends `text` (whole lines) at the end of the record in one write; when it cannot all be
 * written, the file is cut back to `size`, so that no partial line stays.
 */
export function appendLines(file: string, text: string, size: number): void {
  const fd = openSync(file, 'a');
  try {
    const buf = Buffer.from(text, 'utf8');
    let done = 0;
    try {
      while (done < buf.length) done += writeSync(fd, buf, done);
    } catch (e) {
      ftruncateSync(fd, size);
      throw e;
    }
  } finally {
    closeSync(fd);
  }
}

/** Takes back lines appended after `size` (a state that could not be written with them). */
export function cutBack(file: string, size: number): void {
  const fd = openSync(file, 'r+');
  try {
    ftruncateSync(fd, size);
  } finally {
    closeSync(fd);
  }
}
