import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
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

/** Throws TrajectorySchemaError when `data` is not a trajectory as ./trajectory.schema.json says. */
export function assertTrajectory(data: unknown, where: string): asserts data is Trajectory {
  if (!validate) {
    const url = new URL('./trajectory.schema.json', import.meta.url);
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    validate = ajv.compile(JSON.parse(readFileSync(url, 'utf8')) as object);
  }
  if (!validate(data)) throw new TrajectorySchemaError(where, describeAjvErrors(validate.errors));
}
