/**
 * A generated type (scripts/generate-types.mjs) as the host reads it: every field and every
 * array readonly, all the way down. The stand-in writes its records; the host only reads them.
 */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;
