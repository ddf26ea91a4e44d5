import {
  closeSync,
  fstatSync,
  linkSync,
  lstatSync,
  openSync,
  readFileSync,
  readSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';

/** How long a live owner may hold the lock before another call breaks it as hung (ms). */
const STALE_AFTER_MS = 30_000;
/** How long a call waits for the lock before giving up (ms). */
const GIVE_UP_AFTER_MS = 60_000;

const sleeper = new Int32Array(new SharedArrayBuffer(4));

function sleep(ms: number): void {
  Atomics.wait(sleeper, 0, 0, ms);
}

/**
 * Takes the lock file at `lockPath`, waiting with jittered retries. The file holds its owner
 * as `<pid> <start time>\n` and is never seen without it: it is written under a temporary name
 * and linked into place, so an empty or unreadable lock is always a broken one. A lock whose
 * owner is gone (no such process, or the pid reused by another process), whose content is not
 * an owner, or older than 30 s, is broken at once: a call killed while holding it must not
 * block every later call.
 *
 * @returns a function that releases the lock
 */
export function acquireLock(lockPath: string): () => void {
  const start = Date.now();
  const owner = ownerLine();
  // The owner is written once under a temporary name; each attempt links it into place.
  const tmp = `${lockPath}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(tmp, owner, { flag: 'wx' });
  try {
    for (;;) {
      if (tryCreate(lockPath, tmp, owner)) {
        return () => {
          try {
            unlinkSync(lockPath);
          } catch {
            // Broken as stale by another call: nothing left to release.
          }
        };
      }
      const seen = inspect(lockPath);
      if (seen?.stale) {
        breakStale(lockPath, seen.ino);
        continue;
      }
      if (Date.now() - start > GIVE_UP_AFTER_MS) {
        throw new Error(`gh stand-in: timed out waiting for the lock ${lockPath}`);
      }
      if (seen) sleep(1 + Math.floor(Math.random() * 5));
    }
  } finally {
    unlinkSync(tmp);
  }
}

/** Creates the lock with its content in one step; false when it is held. */
function tryCreate(lockPath: string, tmp: string, owner: string): boolean {
  try {
    linkSync(tmp, lockPath);
    return true;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // A file system with no hard links: an exclusive create, written at once.
    if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EOPNOTSUPP' || code === 'ENOSYS') {
      return createExclusive(lockPath, owner);
    }
    throw e;
  }
}

function createExclusive(lockPath: string, owner: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, 'wx');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
  try {
    writeSync(fd, owner);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** `<pid> <start time in clock ticks since boot>\n` (the start time only where /proc has it). */
function ownerLine(): string {
  const started = startTime(process.pid);
  return started === undefined ? `${process.pid}\n` : `${process.pid} ${started}\n`;
}

/** Field 22 of /proc/<pid>/stat; undefined when there is no such process or no /proc. */
function startTime(pid: number): string | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return fields[19];
}

/** The lock as it is now; undefined when it was released meanwhile (retry at once). */
function inspect(lockPath: string): { stale: boolean; ino: number } | undefined {
  let fd: number;
  try {
    fd = openSync(lockPath, 'r');
  } catch {
    return undefined;
  }
  try {
    const st = fstatSync(fd);
    const buf = Buffer.alloc(64);
    const text = buf.toString('utf8', 0, readSync(fd, buf, 0, 64, 0));
    const stale = Date.now() - st.mtimeMs > STALE_AFTER_MS || !ownerAlive(text);
    return { stale, ino: st.ino };
  } finally {
    closeSync(fd);
  }
}

function ownerAlive(text: string): boolean {
  const m = /^(\d+)(?: (\d+))?\n$/.exec(text);
  if (!m) return false; // empty, torn or foreign: never a lock being written (see tryCreate)
  const pid = Number(m[1]);
  if (pid <= 0) return false;
  if (m[2] !== undefined) {
    const now = startTime(pid);
    if (now !== undefined) return now === m[2];
    if (startTime(process.pid) !== undefined) return false; // /proc works: that pid is gone
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Renames the stale lock aside, then checks that what was moved is the file judged stale: if a
 * live owner took the lock in between, its lock is put back.
 */
function breakStale(lockPath: string, ino: number): void {
  const aside = `${lockPath}.stale.${process.pid}.${Math.random().toString(36).slice(2)}`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return; // Someone else broke or released it.
  }
  try {
    if (lstatSync(aside).ino !== ino) linkSync(aside, lockPath);
  } catch {
    // Taken again meanwhile: that owner keeps it.
  } finally {
    try {
      unlinkSync(aside);
    } catch {
      // Already gone.
    }
  }
}
