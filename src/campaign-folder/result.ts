/**
 * What reading a file of a campaign folder gives: the value, or why not. One rule for every
 * reader: a file that is not there is `missing` (a run still going, a campaign not reported
 * yet); one that is there but cannot be taken whole is `broken`, with the reason in a
 * sentence that names the file.
 */
export type Read<T> =
  | { readonly status: 'ok'; readonly file: string; readonly value: T }
  | { readonly status: 'missing'; readonly file: string }
  | { readonly status: 'broken'; readonly file: string; readonly problem: string };

/** The value of an `ok` read, else undefined. */
export function valueOf<T>(read: Read<T>): T | undefined {
  return read.status === 'ok' ? read.value : undefined;
}

/** A read's problem in a sentence: why it is broken, or that it is missing. */
export function problemOf(read: Read<unknown>): string | undefined {
  if (read.status === 'broken') return read.problem;
  return read.status === 'missing' ? `${read.file} is missing` : undefined;
}
