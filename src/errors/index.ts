/**
 * The base of every error evalrig shows to a user. Its message is the whole
 * story (what went wrong, where, what to do); the CLI prints it without a stack
 * trace and exits with `exitCode`.
 *
 * Anything that is not an EvalrigError is a bug in evalrig and keeps its stack.
 */
export class EvalrigError extends Error {
  /** Process exit code the CLI uses for this error. */
  readonly exitCode: number;

  constructor(message: string, options: { exitCode?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.exitCode = options.exitCode ?? 1;
  }
}

/** A user's input (eval set, flag, path) is wrong. Exit code 2, like a usage error. */
export class InputError extends EvalrigError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, { exitCode: 2, ...options });
  }
}

export function isEvalrigError(error: unknown): error is EvalrigError {
  return error instanceof EvalrigError;
}
