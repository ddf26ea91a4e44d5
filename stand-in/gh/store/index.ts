import { join } from 'node:path';
import { mkdirSync, readdirSync, renameSync, unlinkSync } from 'node:fs';
import { appendLines, cutBack, inspectCalls, writeHighWater, type CallRecord } from './calls.js';
import { acquireLock } from './lock.js';
import { readState, writeState, type State, type StateDefaults } from './state.js';

export type { CallRecord } from './calls.js';
export type { PullRequest, PrState, RepoLabel, State, StateDefaults } from './state.js';
export { findLabel, repoLabelsOf } from './labels.js';
export { readState } from './state.js';

/** The name of the record folder inside a repository's git directory. */
export const RECORD_DIR = 'gh-stand-in';

/** A state written for call N, waiting for N's line: `state.json.seq-N.pending`. */
const PENDING = /^state\.json\.seq-(\d+)\.pending$/;

/** What {@link Store.record} wrote: the call and its line, exactly as appended (no newline). */
export interface Recorded {
  call: CallRecord;
  line: string;
}

/**
 * The record of one repository: `<git-dir>/gh-stand-in/{state.json,calls.jsonl,seq,lock}`.
 *
 * The lock is taken at the first read of the state or at the record and held until
 * {@link Store.close}: one call's read-modify-write of the state and its call line are one
 * critical section, so concurrent calls lose no line and never share a PR number.
 *
 * A call's state change and its line are written together or not at all: the new state is
 * written to a pending file named after the call's seq, the line is appended, then the pending
 * file is renamed over `state.json`. A failed append removes the pending file; a failed rename
 * cuts the line back. A call killed between the two is finished by the next one (the line is
 * there: the pending state is renamed; it is not: the pending state is removed).
 */
export class Store {
  readonly dir: string;
  private release: (() => void) | undefined;
  private state: State | undefined;
  private dirty = false;

  constructor(
    gitDir: string,
    private readonly defaults: () => StateDefaults,
  ) {
    this.dir = join(gitDir, RECORD_DIR);
  }

  get statePath(): string {
    return join(this.dir, 'state.json');
  }

  get callsPath(): string {
    return join(this.dir, 'calls.jsonl');
  }

  /** The highest seq ever written: numbering never starts again, even if calls.jsonl is cut. */
  get seqPath(): string {
    return join(this.dir, 'seq');
  }

  private lock(): void {
    if (this.release) return;
    mkdirSync(this.dir, { recursive: true });
    this.release = acquireLock(join(this.dir, 'lock'));
    this.finishPending();
  }

  /** The state (read once, under the lock). */
  read(): State {
    this.lock();
    this.state ??= readState(this.statePath, this.defaults());
    return this.state;
  }

  /** Marks the state changed; it is written with the call's line by {@link Store.record}. */
  changed(): void {
    this.dirty = true;
  }

  /**
   * Records one call, numbering it after every call recorded before, with the state change of
   * the call when it was played. When the end of calls.jsonl is damaged (a line cut short, not
   * JSON, no seq), the call is refused instead: its line says so (played false, exit 1, the
   * problem on stderr), the state is left as it is, and the damaged line is kept, closed by a
   * newline, so that the problem is reported by this call alone.
   *
   * @returns the call as recorded (the refusal when refused)
   * @throws when the record cannot be written: then nothing was written
   */
  record(call: Omit<CallRecord, 'seq'>): Recorded {
    this.lock();
    const tail = inspectCalls(this.callsPath, this.seqPath);
    let written: CallRecord = { seq: tail.nextSeq, ...call };
    if (tail.problem) {
      written = {
        ...written,
        exit_code: 1,
        stdout: '',
        stderr:
          `gh stand-in: the record ${this.callsPath} is damaged: ${tail.problem}; ` +
          'the line is kept as it is and this call was refused: nothing was done\n',
        played: false,
      };
    }
    // A call not played changes nothing ("nothing was done").
    const pending =
      written.played && this.dirty && this.state ? this.writePending(written.seq) : undefined;
    const line = JSON.stringify(written);
    try {
      appendLines(this.callsPath, `${tail.torn ? '\n' : ''}${line}\n`, tail.size);
    } catch (e) {
      if (pending) removeQuietly(pending);
      throw e;
    }
    if (pending) {
      try {
        renameSync(pending, this.statePath);
      } catch (e) {
        cutBack(this.callsPath, tail.size);
        removeQuietly(pending);
        throw e;
      }
    }
    this.dirty = false;
    try {
      writeHighWater(this.seqPath, written.seq);
    } catch {
      // The line holds the seq too: the next call reads it from there.
    }
    return { call: written, line };
  }

  /**
   * The state as it is on disk now (a prepared state completed as the stand-in reads it), or
   * null when it cannot be read or is malformed.
   */
  current(): State | null {
    try {
      return readState(this.statePath, this.defaults());
    } catch {
      return null;
    }
  }

  /** A pending state is only finished when it is a whole state (not one planted or cut). */
  private readable(file: string): boolean {
    try {
      readState(file, this.defaults());
      return true;
    } catch {
      return false;
    }
  }

  private writePending(seq: number): string {
    const file = join(this.dir, `state.json.seq-${seq}.pending`);
    removeQuietly(file); // left by a call killed before it wrote its line
    writeState(file, this.state as State);
    return file;
  }

  /** Finishes, or undoes, the write of a call killed between its line and its state. */
  private finishPending(): void {
    const pending = readdirSync(this.dir).filter((n) => PENDING.test(n));
    if (pending.length === 0) return;
    const { lastSeq } = inspectCalls(this.callsPath, this.seqPath);
    for (const name of pending) {
      const file = join(this.dir, name);
      if (Number(PENDING.exec(name)?.[1]) === lastSeq && this.readable(file)) {
        renameSync(file, this.statePath);
      } else {
        removeQuietly(file);
      }
    }
  }

  /**
   * Drops any unrecorded change and releases the lock, at once or when `after` settles (a call
   * that reports itself to the host keeps the lock until then, so reports arrive in seq order).
   */
  close(after?: Promise<unknown>): void {
    this.state = undefined;
    this.dirty = false;
    const release = this.release;
    this.release = undefined;
    if (!release) return;
    if (after) void after.then(release, release);
    else release();
  }
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Not there.
  }
}
