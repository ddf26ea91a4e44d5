import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020, type Options, type ValidateFunction } from 'ajv/dist/2020.js';
import { describeAjvErrors } from '../artifacts/index.js';
import { EvalrigError } from '../errors/index.js';
import type { Trajectory } from './types.js';

/** A trajectory evalrig built does not match its schema: a bug, caught before it is served. */
export class TrajectorySchemaError extends EvalrigError {
  constructor(where: string, problems: readonly string[]) {
    super(`trajectory ${where} does not match its schema:\n  ${problems.join('\n  ')}`, {
      exitCode: 70,
    });
  }
}

let validate: ValidateFunction | undefined;

/** The validator compiled ahead by the build beside this module in dist/ (scripts/compile-schemas.mjs). */
export const AHEAD_TRAJECTORY_VALIDATOR = 'trajectory.validate.cjs';

/** Compiles ./trajectory.schema.json (the build passes `code` options to keep its source). */
export function compileTrajectorySchema(options: Options = {}): {
  ajv: Ajv2020;
  validate: ValidateFunction;
} {
  const url = new URL('./trajectory.schema.json', import.meta.url);
  const ajv = new Ajv2020({ allErrors: true, strict: false, ...options });
  return { ajv, validate: ajv.compile(JSON.parse(readFileSync(url, 'utf8')) as object) };
}

/** The validator compiled ahead, or undefined when evalrig runs from its sources. */
function aheadValidator(): ValidateFunction | undefined {
  try {
    return createRequire(import.meta.url)(`./${AHEAD_TRAJECTORY_VALIDATOR}`) as ValidateFunction;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'MODULE_NOT_FOUND') return undefined;
    throw error;
  }
}

/** Throws TrajectorySchemaError when `data` is not a trajectory as ./trajectory.schema.json says. */
export function assertTrajectory(data: unknown, where: string): asserts data is Trajectory {
  // Compiling the schema took a tenth of a second of every report; the build does it ahead.
  validate ??= aheadValidator() ?? compileTrajectorySchema().validate;
  if (!validate(data)) throw new TrajectorySchemaError(where, describeAjvErrors(validate.errors));
}
