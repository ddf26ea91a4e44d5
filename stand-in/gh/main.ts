/**
 * The gh stand-in: answers as gh 2.78 does when its output is not a terminal, for the
 * pull-request steps of a workflow, and records every call in the repository's git
 * directory (`gh-stand-in/`). See README.md.
 */
import { writeSync } from 'node:fs';
import { runCall } from './run.js';

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes all of `text` to a file descriptor. Synchronous writes spare loading Node's stream
 * machinery (process.stdout), a good part of the start-up the stand-in adds to Node's own.
 */
function writeAll(fd: number, text: string): void {
  let buf = Buffer.from(text, 'utf8');
  while (buf.length > 0) {
    try {
      buf = buf.subarray(writeSync(fd, buf));
    } catch (e) {
      // A non-blocking pipe that is full: wait for the reader.
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      Atomics.wait(sleeper, 0, 0, 1);
    }
  }
}

const result = runCall(process.argv.slice(2), process.cwd(), process.env);
if (result.stdout) writeAll(1, result.stdout);
if (result.stderr) writeAll(2, result.stderr);
process.exitCode = result.exitCode;
