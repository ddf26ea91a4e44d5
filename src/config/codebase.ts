/**
 * The `codebase` part of the eval set: its JSON Schema (which the eval-set
 * schema `$ref`s by its $id) and its TypeScript type. Resolving a source is
 * src/source's business; this file only says what may be written.
 */
import { createRequire } from 'node:module';
import { InputError } from '../errors/index.js';
import { isShortCommitHash } from '../source/ref.js';
import schema from './codebase.schema.json' with { type: 'json' };
import { quote } from './problems.js';

export type { CodebaseSource } from '../source/types.js';
import type { CodebaseSource } from '../source/types.js';

/** The schema's $id, for `$ref` from the eval-set schema. */
export const CODEBASE_SCHEMA_ID = 'https://evalrig.dev/schemas/codebase.schema.json';

/** The JSON Schema (draft 2020-12) of a codebase source. Add it to an Ajv instance to `$ref` it. */
export const codebaseSchema = schema;

let validator: ((value: unknown) => boolean) | undefined;

/** A compiler for the one schema here, loaded on the first check (most commands make none). */
function compile(): (value: unknown) => boolean {
  const { Ajv2020 } = createRequire(import.meta.url)(
    'ajv/dist/2020.js',
  ) as typeof import('ajv/dist/2020.js');
  return new Ajv2020({ allErrors: false, strict: true }).compile(schema);
}

/**
 * Checks a `codebase` value on its own and returns it typed, or throws an
 * {@link InputError} that names where it is (`where`, e.g. `evals.json#/evals/2/codebase`)
 * and what is wrong, in words (a short hash is said to be one).
 *
 * @example
 * const source = checkCodebaseSource(json.codebase, 'evals.json#/codebase');
 */
export function checkCodebaseSource(value: unknown, where: string): CodebaseSource {
  validator ??= compile();
  if (validator(value)) return value as CodebaseSource;
  throw new InputError(`${where}: ${explainCodebase(value)}`);
}

/** Words for why a value is not a codebase source (used by the eval-set loader too). */
export function explainCodebase(value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'codebase must be an object: {"url": "...", "ref": "..."} or {"path": "..."}';
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if ('url' in record && 'path' in record) return 'codebase has both "url" and "path"; give one';
  if ('url' in record) {
    const unknown = keys.filter((key) => key !== 'url' && key !== 'ref');
    if (unknown.length > 0)
      return `codebase has unknown field(s) ${unknown.map((k) => `"${k}"`).join(', ')}`;
    if (typeof record.url !== 'string' || record.url === '')
      return 'codebase "url" must be a non-empty string';
    if (!('ref' in record))
      return 'codebase "ref" is required with "url": a branch, a tag or a full 40-hex commit';
    if (typeof record.ref !== 'string' || record.ref === '')
      return 'codebase "ref" must be a non-empty string';
    if (isShortCommitHash(record.ref)) {
      return `codebase "ref" ${quote(record.ref)} looks like a short commit hash; write the full 40-hex commit, a branch or a tag`;
    }
    return `codebase "ref" ${quote(record.ref)} is not a valid branch, tag or commit name`;
  }
  if ('path' in record) {
    const unknown = keys.filter((key) => key !== 'path');
    if (unknown.length > 0)
      return `codebase has unknown field(s) ${unknown.map((k) => `"${k}"`).join(', ')}`;
    return 'codebase "path" must be a non-empty string';
  }
  return 'codebase needs "url" and "ref", or "path"';
}
