import { join } from 'node:path';
import { mkdirSync } from 'node:fs';
import { appendCall, lastSeq, type CallRecord } from './calls.js';
import { acquireLock } from './lock.js';
import { readState, writeState, type State, type StateDefaults } from './state.js';

export type { CallRecord } from './calls.js';
export type { PullRequest, PrState, State, StateDefaults } from './state.js';
export { readState, writeState } from './state.js';

/** The name of the record folder inside a repository's git directory. */
export const RECORD_DIR = 'gh-stand-in';

/**
 * The record of one repository: `<git-dir>/gh-stand-in/{state.json,calls.jsonl,lock}`.
 * The lock is taken at the first read of the state or the first record and held until
 * {@link Store.close}, so one call's read-modify-write of the state and its call line are one
 * critical section: concurrent calls lose no line and never share a PR number.
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

  private lock(): void {
    if (this.release) return;
    mkdirSync(this.dir, { recursive: true });
    this.release = acquireLock(join(this.dir, 'lock'));
  }

  /** The state (read once, under the lock). */
  read(): State {
    this.lock();
    this.state ??= readState(this.statePath, this.defaults());
    return this.state;
  }

  /** Marks the state changed; it is written at {@link Store.close}. */
  changed(): void {
    this.dirty = true;
  }

  /** Records one call, numbering it after the last one. */
  record(call: Omit<CallRecord, 'seq'>): void {
    this.lock();
    // The state first: a call line never names a pull request the state does not hold.
    this.flush();
    appendCall(this.callsPath, { seq: lastSeq(this.callsPath) + 1, ...call });
  }

  private flush(): void {
    if (this.dirty && this.state) writeState(this.statePath, this.state);
    this.dirty = false;
  }

  /** Writes the state when changed and releases the lock. */
  close(): void {
    try {
      this.flush();
    } finally {
      this.release?.();
      this.release = undefined;
    }
  }
}
