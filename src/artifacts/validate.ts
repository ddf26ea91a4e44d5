import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, Options, ValidateFunction } from 'ajv/dist/2020.js';
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

/** Every artifact kind, as the build compiles their validators ahead. */
export const ARTIFACT_KINDS: readonly ArtifactKind[] = [
  'stop',
  'run',
  'conditions',
  'benchmark',
  'compare',
  'grading',
  'comparison',
  'model-call',
  'model-record',
];

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();
const require = createRequire(import.meta.url);

function newCompiler(options: Options = {}): Ajv2020 {
  const { Ajv2020: Compiler } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  return new Compiler({ allErrors: true, strict: false, ...options });
}

/**
 * The file beside this module in dist/ holding the validator of `kind` compiled ahead by the
 * build (scripts/compile-schemas.mjs): compiling the schemas at start took a third of a
 * resume with nothing to play.
 */
export function aheadValidatorFile(kind: ArtifactKind): string {
  return `${kind}.validate.cjs`;
}

/** Compiles the schema of `kind` with its own compiler (the build passes `code` options). */
export function compileArtifactSchema(
  kind: ArtifactKind,
  options: Options = {},
): { ajv: Ajv2020; validate: ValidateFunction } {
  const own = newCompiler(options);
  const schema = JSON.parse(readFileSync(schemaUrl(kind), 'utf8')) as object;
  return { ajv: own, validate: own.compile(schema) };
}

/** The validator of `kind` compiled ahead, or undefined when evalrig runs from its sources. */
function aheadValidator(kind: ArtifactKind): ValidateFunction | undefined {
  try {
    return require(`./${aheadValidatorFile(kind)}`) as ValidateFunction;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return undefined;
    throw error;
  }
}

/** Path of an artifact kind's JSON Schema file. */
export function schemaUrl(kind: ArtifactKind): URL {
  return new URL(`./schemas/${kind}.schema.json`, import.meta.url);
}

function validator(kind: ArtifactKind): ValidateFunction {
  let fn = compiled.get(kind) ?? aheadValidator(kind);
  if (fn) compiled.set(kind, fn);
  else {
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
