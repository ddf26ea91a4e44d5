// Generated from call.schema.json by scripts/generate-types.mjs: do not edit.
// Change the schema, then run `npm run build` (or node scripts/generate-types.mjs).

/**
 * gh stand-in call (one line of <git-dir>/gh-stand-in/calls.jsonl)
 */
export interface GhCall {
  /**
   * 1 for the first call in the repository, then one more per call.
   */
  seq: number;
  time: string;
  /**
   * The arguments after `gh`, as given.
   */
  argv: string[];
  /**
   * The absolute working directory of the call.
   */
  cwd: string;
  /**
   * The command played, aliases resolved (`pr new` -> `pr create`); `help` for a call answered with a help page (`--help`, `gh pr`, `gh help pr create`); null when the command itself is not played.
   */
  command:
    | (
        | 'pr create'
        | 'pr edit'
        | 'pr list'
        | 'pr view'
        | 'pr ready'
        | 'repo view'
        | 'auth status'
        | '--version'
        | 'help'
      )
    | null;
  /**
   * What the call read from standard input (`--body-file -`), else null.
   */
  stdin: string | null;
  /**
   * The pull-request body this call gave (create or edit), else null.
   */
  description: string | null;
  exit_code: number;
  stdout: string;
  stderr: string;
  /**
   * False for everything the stand-in does not play (refused, exit 1).
   */
  played: boolean;
  /**
   * True for `pr ready` without `--undo`, even when it fails.
   */
  marks_ready: boolean;
  /**
   * The number of the pull request the call acted on, when any.
   */
  pr: number | null;
}
