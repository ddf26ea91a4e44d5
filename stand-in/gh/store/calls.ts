import { appendFileSync, closeSync, fstatSync, openSync, readSync } from 'node:fs';

/** One line of `calls.jsonl`. */
export interface CallRecord {
  seq: number;
  time: string;
  argv: string[];
  cwd: string;
  command: string | null;
  stdin: string | null;
  description: string | null;
  exit_code: number;
  stdout: string;
  stderr: string;
  played: boolean;
  marks_ready: boolean;
  pr: number | null;
}

/**
 * The seq of the last recorded call (0 when none), read from the end of the file so that a
 * long record costs no more than a short one.
 */
export function lastSeq(file: string): number {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw e;
  }
  try {
    const size = fstatSync(fd).size;
    let chunk = 64 * 1024;
    for (;;) {
      const len = Math.min(chunk, size);
      const buf = Buffer.alloc(len);
      readSync(fd, buf, 0, len, size - len);
      const text = buf.toString('utf8').replace(/\n+$/, '');
      const nl = text.lastIndexOf('\n');
      if (nl >= 0 || len === size) {
        const line = text.slice(nl + 1);
        if (line.trim() === '') return 0;
        const seq = (JSON.parse(line) as { seq?: unknown }).seq;
        return typeof seq === 'number' ? seq : 0;
      }
      chunk *= 4;
    }
  } finally {
    closeSync(fd);
  }
}

/** Appends one record as one line, in a single write (the caller holds the lock). */
export function appendCall(file: string, record: CallRecord): void {
  appendFileSync(file, JSON.stringify(record) + '\n');
}
