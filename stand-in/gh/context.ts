import type { RepoContext } from './git/index.js';
import type { Store } from './store/index.js';

/** What one call produced; main.ts writes it and records it. */
export interface CallResult {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** What a command fills in for the record while it runs. */
export interface CallNotes {
  /** Text read from standard input, when the call read it. */
  stdin: string | null;
  /** The pull-request body this call gave (create or edit), when any. */
  description: string | null;
  /** The number of the pull request the call acted on, when any. */
  pr: number | null;
  /** True for `pr ready` without `--undo`, even when it fails. */
  marksReady: boolean;
}

/** Everything a command may use. Repository facts are computed lazily. */
export interface Ctx {
  cwd: string;
  env: NodeJS.ProcessEnv;
  notes: CallNotes;
  /** Text for stderr that precedes the result (warnings). */
  warnings: string[];
  /** The repository of the call; throws gh's "not a git repository" error when there is none. */
  repo(): RepoContext;
  /** The record store of the repository (same error when there is none). */
  store(): Store;
  /** The current time as GitHub prints it (`2026-11-29T19:00:00Z`), honouring GH_STAND_IN_NOW. */
  now(): string;
  /** Reads standard input to its end (once) and notes it for the record. */
  readStdin(): string;
  /** The login the stand-in is logged in as (GH_STAND_IN_USER, default `evalrig`). */
  user(): string;
}
