/** A script the agent cannot play (unreadable, not JSON, wrong shape): exit 2. */
export class ScriptError extends Error {
  readonly exitCode = 2;
  constructor(
    readonly file: string,
    readonly pointer: string,
    problem: string,
  ) {
    super(`${file}: ${pointer === '' ? '(document)' : pointer}: ${problem}`);
    this.name = 'ScriptError';
  }
}

/** The command line is wrong: exit 2. */
export class UsageError extends Error {
  readonly exitCode = 2;
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** An action could not be played (no git directory for `stop`, a write refused): exit 1. */
export class PlayError extends Error {
  readonly exitCode = 1;
  constructor(message: string) {
    super(message);
    this.name = 'PlayError';
  }
}
