/**
 * Errors of the gh stand-in. Each carries what gh would print on stderr and its exit code;
 * main.ts turns them into the call's result, never a stack trace.
 */

/** An answer gh itself gives as an error (worded as gh words it). */
export class GhError extends Error {
  /**
   * @param message the stderr text, without the trailing newline
   * @param exitCode gh's exit code (1 for every error the stand-in plays)
   * @param usage a usage line to append after a blank line, as gh does for flag errors
   */
  constructor(
    message: string,
    readonly exitCode = 1,
    readonly usage?: string,
  ) {
    super(message);
    this.name = 'GhError';
  }
}

/** A call the stand-in does not play: exit 1, recorded with `played: false`. */
export class NotPlayedError extends Error {
  constructor(what: string) {
    super(
      `gh stand-in: ${what} is not played by this stand-in (it plays pr create/edit/list/view/ready, ` +
        'repo view, auth status, --version and their help); nothing was done',
    );
    this.name = 'NotPlayedError';
  }
}
