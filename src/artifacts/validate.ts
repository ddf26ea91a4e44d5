import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { EvalrigError } from '../errors/index.js';

/**
 * The artifact kinds with a schema in ./schemas/<kind>.schema.json. A new
 * artifact adds its schema file and its name here.
 */
export type ArtifactKind =
  | 'stop'
  | 'run'
  | 'conditions'
  | 'benchmark'
  | 'compare'
  | 'grading'
  | 'sequential'
  | 'comparison'
  | 'model-call'
  | 'model-record';

/** An artifact does not match its schema: a bug in evalrig, caught before it reaches disk. */
export class ArtifactSchemaError extends EvalrigError {
  constructor(
    readonly kind: string,
    readonly where: string,
    readonly problems: readonly string[],
  ) {
    super(`${kind} artifact ${where} does not match its schema:\n  ${problems.join('\n  ')}`, {
      exitCode: 70,
    });
  }
}

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

function newCompiler(): Ajv2020 {
  const { Ajv2020: Compiler } = createRequire(import.meta.url)(
    'ajv/dist/2020.js',
  ) as typeof import('ajv/dist/2020.js');
  return new Compiler({ allErrors: true, strict: false });
}

/** Path of an artifact kind's JSON Schema file. */
export function schemaUrl(kind: ArtifactKind): URL {
  return new URL(`./schemas/${kind}.schema.json`, import.meta.url);
}

function validator(kind: ArtifactKind): ValidateFunction {
  let fn = compiled.get(kind);
  if (!fn) {
    const schema = JSON.parse(readFileSync(schemaUrl(kind), 'utf8')) as object;
    // One compiler, made on the first check: a command that checks no artifact never pays for it.
    ajv ??= newCompiler();
    fn = ajv.compile(schema);
    compiled.set(kind, fn);
  }
  return fn;
}

export function describeAjvErrors(errors: readonly ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((e) => `${e.instancePath || '/'}: ${e.message ?? 'is invalid'}`);
}

/** Throws ArtifactSchemaError when `data` does not match the schema of `kind`. */
export function assertArtifact(kind: ArtifactKind, data: unknown, where: string): void {
  const fn = validator(kind);
  if (!fn(data)) throw new ArtifactSchemaError(kind, where, describeAjvErrors(fn.errors));
}
