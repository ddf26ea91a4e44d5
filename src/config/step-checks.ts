/**
 * Step checks: rules over what the agent did (its shell commands in order, the files it read),
 * declared once per eval set. Here: their normalized form and what the schema cannot check
 * (exactly one rule, its companions only with `ran`, expressions that compile, names once).
 */
import type * as Generated from './evals.js';
import { pointer, quote, type Problem } from './problems.js';

/** A step check as used, with the words the report says it in. */
export interface StepCheck {
  readonly name: string;
  readonly description: string;
  readonly ran?: string;
  readonly succeeded?: boolean;
  readonly before_last?: string;
  readonly never?: string;
  readonly read?: string;
}

type RawStepCheck = Generated.StepChecks[number];

const RULES = ['ran', 'never', 'read'] as const;

/** The rule in words, when the eval set gives none. */
function describe(c: RawStepCheck): string {
  if (c.ran !== undefined)
    return `ran /${c.ran}/${c.succeeded ? ' and it succeeded' : ''}${c.before_last !== undefined ? ` before the last /${c.before_last}/` : ''}`;
  if (c.never !== undefined) return `never ran /${c.never}/`;
  return `read /${c.read}/`;
}

export function normalizeStepChecks(raw: readonly RawStepCheck[] | undefined): StepCheck[] {
  return (raw ?? []).map((c) => ({ ...c, description: c.description ?? describe(c) }));
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The problems of the set's `step_checks`, each at its JSON pointer. */
export function stepCheckProblems(doc: Json): Problem[] {
  const checks = doc.step_checks;
  if (!Array.isArray(checks)) return [];
  const problems: Problem[] = [];
  const names = new Map<string, string>();
  checks.forEach((c, i) => {
    if (!isObject(c)) return;
    const at = (...rest: string[]) => pointer('step_checks', i, ...rest);
    const rules = RULES.filter((r) => c[r] !== undefined);
    if (rules.length !== 1)
      problems.push({
        pointer: at(),
        message:
          rules.length === 0
            ? 'names no rule: give one of "ran", "never" or "read"'
            : `names ${rules.map((r) => `"${r}"`).join(' and ')}: give one rule a check`,
      });
    for (const companion of ['succeeded', 'before_last'] as const)
      if (c[companion] !== undefined && c.ran === undefined)
        problems.push({ pointer: at(companion), message: `goes with "ran" only` });
    for (const key of [...RULES, 'before_last'] as const) {
      const source = c[key];
      if (typeof source !== 'string') continue;
      try {
        new RegExp(source, 'u');
      } catch (error) {
        const why = (error as Error).message.replace(/^Invalid regular expression: /u, '');
        problems.push({ pointer: at(key), message: `not a valid regular expression: ${why}` });
      }
    }
    if (typeof c.name === 'string') {
      const earlier = names.get(c.name);
      if (earlier !== undefined)
        problems.push({
          pointer: at('name'),
          message: `duplicate step check ${quote(c.name)}, also ${earlier}`,
        });
      else names.set(c.name, at('name'));
    }
  });
  return problems;
}
