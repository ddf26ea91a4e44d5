import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import type { GradedExpectation } from '../artifacts/index.js';
import { describeAjvErrors } from '../artifacts/index.js';

/** The grading answer the rubric asks for. */
const GRADING_ANSWER_SCHEMA = {
  type: 'object',
  required: ['expectations'],
  properties: {
    expectations: {
      type: 'array',
      items: {
        type: 'object',
        required: ['expectation', 'passed', 'evidence'],
        properties: {
          expectation: { type: 'string' },
          passed: { type: 'boolean' },
          evidence: { type: 'string' },
        },
      },
    },
  },
} as const;

/** The blind comparison's answer. */
const COMPARE_ANSWER_SCHEMA = {
  type: 'object',
  required: ['winner', 'reason'],
  properties: {
    winner: { enum: ['A', 'B', 'tie'] },
    reason: { type: 'string' },
  },
} as const;

const ajv = new Ajv2020({ allErrors: true, strict: true });

/** A schema's validator, compiled on first use (most campaigns never judge). */
function lazyValidator(schema: object): () => ValidateFunction {
  let validate: ValidateFunction | undefined;
  return () => (validate ??= ajv.compile(schema));
}
const gradingValidator = lazyValidator(GRADING_ANSWER_SCHEMA);
const compareValidator = lazyValidator(COMPARE_ANSWER_SCHEMA);

/** Evidence and reasons are kept to this many characters. */
const MAX_EVIDENCE_CHARS = 2000;

/** The judge's answer as data, or why it is none. */
export type Parsed<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

/**
 * The JSON object of an answer: the whole text, or the one fenced block it is wrapped in
 * (models often fence JSON despite being asked not to). Anything else does not parse.
 */
function parseJson(text: string): Parsed<unknown> {
  const trimmed = text.trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n```$/u.exec(trimmed);
  const body = fenced ? fenced[1]! : trimmed;
  try {
    return { ok: true, value: JSON.parse(body) as unknown };
  } catch (e) {
    const began = JSON.stringify(trimmed.slice(0, 120));
    return {
      ok: false,
      error: `the judge's answer is not JSON (${(e as Error).message}); it began ${began}`,
    };
  }
}

/** An answer: its JSON, valid against the `what` schema. */
function parseAnswer<T>(text: string, validator: () => ValidateFunction, what: string): Parsed<T> {
  const parsed = parseJson(text);
  if (!parsed.ok) return parsed;
  const validate = validator();
  if (!validate(parsed.value)) {
    const why = describeAjvErrors(validate.errors).slice(0, 3).join('; ');
    return { ok: false, error: `the judge's answer does not match the ${what} schema: ${why}` };
  }
  return { ok: true, value: parsed.value as T };
}

function clip(text: string, max = MAX_EVIDENCE_CHARS): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/**
 * Reads a grading answer: JSON, valid against the answer schema, naming each of `expected`
 * exactly once and nothing else. Every failure is a grading error (never a fail), in a sentence.
 */
export function parseGradingAnswer(
  text: string,
  expected: readonly string[],
): Parsed<GradedExpectation[]> {
  const parsed = parseAnswer<{ expectations: GradedExpectation[] }>(
    text,
    gradingValidator,
    'grading',
  );
  if (!parsed.ok) return parsed;
  const items = parsed.value.expectations;
  const byText = new Map<string, GradedExpectation>();
  for (const item of items) {
    if (!expected.includes(item.expectation)) {
      return {
        ok: false,
        error: `the judge named an expectation the eval does not have: ${JSON.stringify(clip(item.expectation, 200))}`,
      };
    }
    if (byText.has(item.expectation)) {
      return {
        ok: false,
        error: `the judge graded an expectation twice: ${JSON.stringify(clip(item.expectation, 200))}`,
      };
    }
    byText.set(item.expectation, item);
  }
  const missing = expected.filter((e) => !byText.has(e));
  if (missing.length > 0) {
    return {
      ok: false,
      error: `the judge left out ${missing.length} expectation(s), first ${JSON.stringify(clip(missing[0]!, 200))}`,
    };
  }
  return {
    ok: true,
    value: expected.map((e) => {
      const item = byText.get(e)!;
      return { expectation: e, passed: item.passed, evidence: clip(item.evidence ?? '') };
    }),
  };
}

/** Reads a blind comparison's answer: `A`, `B` or `tie`, with its reason. */
export function parseCompareAnswer(
  text: string,
): Parsed<{ winner: 'A' | 'B' | 'tie'; reason: string }> {
  const parsed = parseAnswer<{ winner: 'A' | 'B' | 'tie'; reason: string }>(
    text,
    compareValidator,
    'comparison',
  );
  if (!parsed.ok) return parsed;
  const v = parsed.value;
  return { ok: true, value: { winner: v.winner, reason: clip(v.reason) } };
}
