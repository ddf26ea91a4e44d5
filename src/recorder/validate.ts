import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import callSchema from '../../stand-in/gh/schemas/call.schema.json' with { type: 'json' };
import stateSchema from '../../stand-in/gh/schemas/state.schema.json' with { type: 'json' };

// The stand-in's own schemas: what it writes is what the host accepts, nothing looser.
// Compiled on the first check, not at import: a resume with nothing to play checks none.
let compiled: { call: ValidateFunction; state: ValidateFunction } | undefined;
function validators(): { call: ValidateFunction; state: ValidateFunction } {
  if (!compiled) {
    const ajv = new Ajv2020({ allErrors: false, strict: true });
    addFormats.default(ajv);
    compiled = { call: ajv.compile(callSchema), state: ajv.compile(stateSchema) };
  }
  return compiled;
}

function describe(errors: readonly ErrorObject[] | null | undefined): string {
  const e = errors?.[0];
  return e ? `${e.instancePath || '/'}: ${e.message ?? 'is invalid'}` : 'is invalid';
}

/** Why `value` is not a call line of the stand-in; undefined when it is one. */
export function callProblem(value: unknown): string | undefined {
  const validCall = validators().call;
  return validCall(value) ? undefined : describe(validCall.errors);
}

/** Why `value` is not a state of the stand-in; undefined when it is one. */
export function stateProblem(value: unknown): string | undefined {
  const validState = validators().state;
  return validState(value) ? undefined : describe(validState.errors);
}
