import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import callSchema from '../../stand-in/gh/schemas/call.schema.json' with { type: 'json' };
import stateSchema from '../../stand-in/gh/schemas/state.schema.json' with { type: 'json' };

// The stand-in's own schemas: what it writes is what the host accepts, nothing looser.
const ajv = new Ajv2020({ allErrors: false, strict: true });
addFormats.default(ajv);
const validCall = ajv.compile(callSchema);
const validState = ajv.compile(stateSchema);

function describe(errors: readonly ErrorObject[] | null | undefined): string {
  const e = errors?.[0];
  return e ? `${e.instancePath || '/'}: ${e.message ?? 'is invalid'}` : 'is invalid';
}

/** Why `value` is not a call line of the stand-in; undefined when it is one. */
export function callProblem(value: unknown): string | undefined {
  return validCall(value) ? undefined : describe(validCall.errors);
}

/** Why `value` is not a state of the stand-in; undefined when it is one. */
export function stateProblem(value: unknown): string | undefined {
  return validState(value) ? undefined : describe(validState.errors);
}
