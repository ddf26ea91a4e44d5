import {
  closeSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';

/** How long a lock may be held before another call breaks it as stale (ms). */
const STALE_AFTER_MS = 30_000;
/** How long a call waits for the lock before giving up (ms). */
const GIVE_UP_AFTER_MS = 60_000;

const sleeper = new Int32Array(new SharedArrayBuffer(4));

function sleep(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

/**
 * Takes the lock file at `lockPath` (created exclusively, holding the pid), waiting with
 * jittered retries. A lock whose owner is gone, or older than 30 s, is broken: a call killed
 * while holding it must not block every later call.
 *
 * @returns a function that releases the lock
 */
export function acquireLock(lockPath: string): () => void {
  const start = Date.now();
  for (;;) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => {
        try {
          unlinkSync(lockPath);
        } catch {
          // Broken as stale by another call: nothing left to release.
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    if (isStale(lockPath)) {
      breakStale(lockPath);
      continue;
    }
    if (Date.now() - start > GIVE_UP_AFTER_MS) {
      throw new Error(`gh stand-in: timed out waiting for the lock ${lockPath}`);
    }
    sleep(1 + Math.floor(Math.random() * 5));
  }
}

function isStale(lockPath: string): boolean {
  let text: string;
  let mtime: number;
  try {
    text = readFileSync(lockPath, 'utf8');
    mtime = statSync(lockPath).mtimeMs;
  } catch {
    return false; // Released meanwhile: retry at once.
  }
  const age = Date.now() - mtime;
  if (age > STALE_AFTER_MS) return true;
  const pid = Number(text.trim());
  // An empty file is a lock being written right now, not a stale one.
  if (!Number.isInteger(pid) || pid <= 0 || age < 1000) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function breakStale(lockPath: string): void {
  // Renaming first makes the break atomic: of two calls that both saw the lock stale, only
  // one renames it; the other finds nothing to rename and retries.
  const aside = `${lockPath}.stale.${process.pid}`;
  try {
    renameSync(lockPath, aside);
    unlinkSync(aside);
  } catch {
    // Someone else broke or released it.
  }
}
