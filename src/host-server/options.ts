import path from 'node:path';
import { EvalrigError } from '../errors/index.js';

/** Each of `bounds` is a positive integer and the socket path is absolute, or a clear error. */
export function checkServerOptions<K extends string>(
  what: string,
  options: { readonly socketPath: string } & Readonly<Record<K, number>>,
  bounds: readonly K[],
): void {
  for (const key of bounds) {
    const value = options[key];
    if (!Number.isSafeInteger(value) || value < 1) {
      throw new EvalrigError(`${what}: ${key} must be a positive integer, not ${value}`);
    }
  }
  if (!path.isAbsolute(options.socketPath)) {
    throw new EvalrigError(`${what}: the socket path ${options.socketPath} is not absolute`);
  }
}
