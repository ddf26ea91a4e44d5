/**
 * Message checks: deterministic rules over what the agent said at a stop (its
 * final message). Declared per eval set and per eval in evals.json; one built
 * in, `no_missing_gh`, is on unless the eval set switches it off. Here: their
 * normalized form, the built-ins, and what the schema cannot check (regular
 * expressions that compile, names used once).
 */
import type * as Generated from './evals.js';
import { pointer, quote, type Problem } from './problems.js';

/** Which stops of a run a message check reads the final message of. */
export type MessageCheckStops = 'every' | 'hand_over' | 'last';

/** A rule over one final message. Regular expressions are JavaScript's, with `flags`. */
export type MessageRule =
  | { readonly contains: string }
  | { readonly not_contains: string }
  | { readonly matches: string; readonly flags?: string }
  | { readonly not_matches: string; readonly flags?: string };

export interface MessageCheck {
  readonly name: string;
  readonly stops: MessageCheckStops;
  readonly rule: MessageRule;
}

/** The flags a rule may use: stateless ones (`g` and `y` would carry lastIndex between stops). */
export const MESSAGE_FLAGS = /^(?!.*(.).*\1)[imsu]*$/u;

/**
 * What `no_missing_gh` refuses in a final message (case-insensitive): the
 * agent saying gh is missing, not installed, not found, unavailable or not
 * authenticated. Each alternative, in order:
 * - the shells' own words: "gh: command not found", "sh: 1: gh: not found",
 *   "command not found: gh";
 * - gh (or the GitHub CLI, optionally quoted, optionally "cli", "command",
 *   "binary", "tool", "executable") is/was/seems (not) missing, unavailable,
 *   not available, not installed, not found, not authenticated, not logged
 *   in, not on the path: "gh is not installed", "`gh` CLI isn't available",
 *   "the GitHub CLI (gh) is not authenticated", "gh not found";
 * - gh's own message: "not logged in to any GitHub hosts" / "not logged into
 *   any GitHub hosts";
 * - "could not find gh", "can't run `gh`", "unable to use the GitHub CLI";
 * - "no gh CLI available", "without gh access";
 * - being asked to log in: "run gh auth login", "need to gh auth login".
 */
export const MISSING_GH_PATTERN = [
  String.raw`(?<![\w-])gh:\s*(?:command\s+)?not\s+found`,
  String.raw`command\s+not\s+found:\s*gh\b`,
  String.raw`(?<![\w-])[\x60'"]?(?:gh|github\s+cli)[\x60'"]?(?:\s*\([\x60]?gh[\x60]?\))?(?:\s+(?:cli|command|binary|tool|executable))?\s+(?:(?:is|was|seems|appears|seems\s+to\s+be|appears\s+to\s+be)\s+)?(?:missing|unavailable|not\s+(?:available|installed|found|present|authenticated|authorized|logged\s+in|on\s+(?:the\s+)?path|accessible))`,
  String.raw`(?<![\w-])[\x60'"]?(?:gh|github\s+cli)[\x60'"]?(?:\s*\([\x60]?gh[\x60]?\))?(?:\s+(?:cli|command|binary|tool|executable))?\s+(?:isn't|wasn't|is\s+not|was\s+not|isn’t|wasn’t)\s+(?:available|installed|found|present|authenticated|authorized|logged\s+in|on\s+(?:the\s+)?path|accessible)`,
  String.raw`not\s+logged\s+in(?:to|\s+to)\s+any\s+github\s+hosts?`,
  String.raw`(?:could\s*not|couldn't|couldn’t|cannot|can't|can’t|unable\s+to)\s+(?:find|locate|run|use|access|execute)\s+(?:the\s+)?[\x60'"]?(?:gh|github\s+cli)\b`,
  String.raw`\b(?:no|without)\s+(?:the\s+)?[\x60'"]?(?:gh|github\s+cli)[\x60'"]?(?:\s+(?:cli|command|binary|tool))?\s+(?:available|installed|access|authentication)`,
  String.raw`(?:run|need\s+to|needs\s+to|must|please)\s+[\x60'"]?gh\s+auth\s+login`,
].join('|');

/** The message checks evalrig adds to every eval unless the eval set switches them off. */
export const BUILTIN_MESSAGE_CHECKS: readonly MessageCheck[] = [
  {
    name: 'no_missing_gh',
    stops: 'every',
    rule: { not_matches: MISSING_GH_PATTERN, flags: 'i' },
  },
];

export const BUILTIN_MESSAGE_CHECK_NAMES = BUILTIN_MESSAGE_CHECKS.map((c) => c.name);

/**
 * The raw form, once the schema passed (fields may still be absent): the eval set's
 * message check as generated from evals.schema.json (the set's and an eval's are the same).
 */
export type RawMessageCheck = Generated.MessageChecks[number];

/** The raw check as used: `stops` defaults to `every`, the rule's fields as written. */
export function normalizeMessageCheck(raw: RawMessageCheck): MessageCheck {
  return { name: raw.name, stops: raw.stops ?? 'every', rule: raw.rule as unknown as MessageRule };
}

/**
 * An eval's message checks: the built-ins the set keeps on, the set's own,
 * then the eval's own (names are unique across the three, checked at load).
 */
export function messageChecksOf(
  builtins: readonly string[] | undefined,
  setChecks: readonly RawMessageCheck[] | undefined,
  evalChecks: readonly RawMessageCheck[] | undefined,
): MessageCheck[] {
  const on = builtins ?? BUILTIN_MESSAGE_CHECK_NAMES;
  return [
    ...BUILTIN_MESSAGE_CHECKS.filter((c) => on.includes(c.name)),
    ...(setChecks ?? []).map(normalizeMessageCheck),
    ...(evalChecks ?? []).map(normalizeMessageCheck),
  ];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** A rule's regular expression that does not compile, or flags that are not allowed. */
function ruleProblems(rule: unknown, at: (string | number)[]): Problem[] {
  if (!isObject(rule)) return [];
  const key = 'matches' in rule ? 'matches' : 'not_matches' in rule ? 'not_matches' : undefined;
  if (key === undefined) return [];
  const source = rule[key];
  const flags = rule.flags ?? '';
  if (typeof source !== 'string' || typeof flags !== 'string') return [];
  if (!MESSAGE_FLAGS.test(flags)) return []; // the schema's pattern says so
  try {
    new RegExp(source, flags);
    return [];
  } catch (error) {
    const why = (error as Error).message.replace(/^Invalid regular expression: /u, '');
    return [{ pointer: pointer(...at, key), message: `not a valid regular expression: ${why}` }];
  }
}

/**
 * The problems of one list of checks at `at`: each rule's, and each name used again; a name is
 * claimed in `names` (name -> where it was first used), which may hold names from elsewhere.
 */
function checkListProblems(
  checks: unknown,
  at: readonly (string | number)[],
  names: Map<string, string>,
): Problem[] {
  const problems: Problem[] = [];
  list(checks).forEach((c, i) => {
    if (!isObject(c)) return;
    problems.push(...ruleProblems(c.rule, [...at, i, 'rule']));
    if (typeof c.name !== 'string') return;
    const name = pointer(...at, i, 'name');
    const earlier = names.get(c.name);
    if (earlier !== undefined) {
      problems.push({
        pointer: name,
        message: `duplicate message check ${quote(c.name)}, also ${earlier}`,
      });
    } else names.set(c.name, `at ${name}`);
  });
  return problems;
}

/**
 * What the schema cannot say of message checks: each regular expression
 * compiles with its flags, each name is used once among the built-ins kept
 * on, the set's checks and an eval's.
 */
export function messageCheckProblems(doc: Json): Problem[] {
  const problems: Problem[] = [];
  const builtins = Array.isArray(doc.builtin_message_checks)
    ? doc.builtin_message_checks.filter((n): n is string => typeof n === 'string')
    : BUILTIN_MESSAGE_CHECK_NAMES;
  const setNames = new Map<string, string>(builtins.map((n) => [n, 'a built-in check']));
  problems.push(...checkListProblems(doc.message_checks, ['message_checks'], setNames));
  list(doc.evals).forEach((e, i) => {
    if (!isObject(e)) return;
    const at = ['evals', i, 'message_checks'];
    problems.push(...checkListProblems(e.message_checks, at, new Map(setNames)));
  });
  return problems;
}
