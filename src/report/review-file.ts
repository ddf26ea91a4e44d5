import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { type DeepReadonly, describeAjvErrors } from '../artifacts/index.js';
import { InputError } from '../errors/index.js';
import type * as Generated from './review.js';

/**
 * A person's mark on one run: agree or disagree with the judge, and a note. Kept in the
 * campaign folder as reviews/<eval>/<condition>/run-NN.json (schema ./review.schema.json),
 * apart from the judge's grading.json, which it never changes.
 */
export type ReviewFile = DeepReadonly<Generated.ReviewFile>;

/** What a page may send: the mark and the note, nothing else. */
export type ReviewInput = Pick<ReviewFile, 'verdict' | 'note'>;

/** A review that does not match its schema: named, never written. */
export class ReviewError extends InputError {}

/** The most bytes a review's request body may hold. */
export const MAX_REVIEW_BYTES = 16 * 1024;
export const MAX_NOTE_CHARS = 4000;

let validate: ValidateFunction | undefined;

function validator(): ValidateFunction {
  if (!validate) {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const url = new URL('./review.schema.json', import.meta.url);
    validate = ajv.compile(JSON.parse(readFileSync(url, 'utf8')) as object);
  }
  return validate;
}

/** Throws ReviewError when `data` is not a review file. */
export function assertReview(data: unknown, where: string): asserts data is ReviewFile {
  const fn = validator();
  if (!fn(data))
    throw new ReviewError(`${where}: not a review: ${describeAjvErrors(fn.errors).join('; ')}`);
}

/**
 * Reads what a page sent: JSON of exactly `{ verdict, note }`, verdict one of agree, disagree or
 * null, the note at most {@link MAX_NOTE_CHARS} characters.
 */
export function parseReviewInput(body: string): ReviewInput {
  let data: unknown;
  try {
    data = JSON.parse(body);
  } catch {
    throw new ReviewError('the review is not JSON');
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new ReviewError('the review is not an object');
  const keys = Object.keys(data).sort().join(',');
  if (keys !== 'note,verdict') throw new ReviewError('a review holds exactly verdict and note');
  const { verdict, note } = data as Record<string, unknown>;
  if (verdict !== 'agree' && verdict !== 'disagree' && verdict !== null)
    throw new ReviewError('verdict must be "agree", "disagree" or null');
  if (typeof note !== 'string') throw new ReviewError('note must be a string');
  if (note.length > MAX_NOTE_CHARS)
    throw new ReviewError(`note must be at most ${MAX_NOTE_CHARS} characters`);
  return { verdict, note };
}

/** Reads a stored review's text: the review, or null when the text is not one. */
export function parseReviewFile(text: string | null, where: string): ReviewFile | null {
  if (text === null) return null;
  try {
    const data = JSON.parse(text) as unknown;
    assertReview(data, where);
    return data;
  } catch {
    return null;
  }
}
