import { EvalrigError } from '../errors/index.js';

/** A sandbox operation failed; `operation` names it (start, exec, copy in, sync out …). */
export class SandboxError extends EvalrigError {
  constructor(
    readonly engine: string,
    readonly operation: string,
    reason: string,
    options: { cause?: unknown } = {},
  ) {
    super(`sandbox on ${engine}: ${operation} failed: ${reason}`, options);
  }
}

/**
 * A file the sandbox holds could not be read as asked: missing, not a regular
 * file, or over its cap. What the agent left is the cause, not the harness.
 */
export class SandboxFileError extends EvalrigError {
  constructor(
    readonly containerPath: string,
    readonly reason: 'missing' | 'not-regular' | 'too-large',
    detail = '',
  ) {
    super(`${containerPath}: ${reason.replace('-', ' ')}${detail ? ` (${detail})` : ''}`);
  }
}
