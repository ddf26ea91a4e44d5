/**
 * A run's fingerprint: each of its inputs by the sha256 of its canonical JSON (a file's: of its
 * bytes), and the sha256 of them all. Two runs with one fingerprint were asked to do the same
 * thing; the inputs' own hashes say which input differs when they were not.
 */
import { createHash } from 'node:crypto';

/** A run's inputs by key (see describeInput), each as a sha256. */
export type FingerprintInputs = Readonly<Record<string, string>>;

export interface Fingerprint {
  readonly sha256: string;
  readonly inputs: FingerprintInputs;
}

export function sha256Of(bytes: string | Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * JSON with every object's keys sorted and no spacing: one text per value, whatever order its
 * keys were built in. `undefined` fields are left out, as JSON.stringify leaves them.
 *
 * @example
 * canonicalJson({ b: 1, a: [true, null] }); // '{"a":[true,null],"b":1}'
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v ?? null)).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** The sha256 of a value's canonical JSON: an input that is not a file. */
export function hashValue(value: unknown): string {
  return sha256Of(canonicalJson(value));
}

/** The fingerprint of a run's inputs: their hashes, and the hash of them all. */
export function fingerprintOf(inputs: FingerprintInputs): Fingerprint {
  return { sha256: hashValue(inputs), inputs };
}

/** What differs between an earlier run's inputs and a new one's, by key. */
export interface InputChanges {
  readonly changed: readonly string[];
  /** Inputs the new run has and the earlier one had not (a file staged now). */
  readonly added: readonly string[];
  /** Inputs the earlier run had and the new one has not. */
  readonly removed: readonly string[];
}

/** Which inputs differ between `before` and `now`, each list sorted. */
export function changedInputs(before: FingerprintInputs, now: FingerprintInputs): InputChanges {
  const changed: string[] = [];
  const added: string[] = [];
  for (const [key, hash] of Object.entries(now)) {
    if (!(key in before)) added.push(key);
    else if (before[key] !== hash) changed.push(key);
  }
  const removed = Object.keys(before).filter((key) => !(key in now));
  return { changed: changed.sort(), added: added.sort(), removed: removed.sort() };
}

/** The words of each input that is not a file, by key. */
const INPUT_WORDS: Readonly<Record<string, string>> = {
  run: "the run's number",
  'eval.id': 'the eval id',
  'eval.prompt': 'the prompt',
  'eval.messages': 'the later messages',
  'eval.start': 'the start state',
  'eval.timeouts': 'the timeouts',
  'eval.checks': 'the checks',
  'eval.message_checks': 'the message checks',
  codebase: 'the codebase commit',
  'condition.env': "the condition's env",
  'condition.agent_args': 'the agent arguments',
  'agent.command': 'the agent command',
  'agent.package': "the agent's package",
  'agent.binary': 'the agent binary',
  'agent.relay': 'the model relay',
  'agent.runtime': "the agent's Node runtime",
  'agent.model': "the agent's model",
  'agent.install': "the agent's install",
  'agent.user': 'the user the agent runs as',
  'model.script': 'the model script',
  'model.api': 'the model API',
  'image.test': 'the test image',
  'image.environment': 'the environment image',
  'image.setup': 'the setup commands',
  'image.services': 'the service images',
  services: 'the services',
  'stand_in.gh': 'the gh stand-in',
  'stand_in.agent': 'the scripted agent',
  'set.probes': 'the probes',
  'set.hand_over': 'the hand-over kinds',
  'set.resources': 'the resources',
  'set.repo_owner': 'the repository owner',
  'set.baseline_commit': 'the baseline commit',
  'set.limits': 'the run limits',
  'option.stop_at_hand_over': 'the --stop-at-hand-over option',
  'evalrig.version': 'the evalrig version',
};

/** Keys of file inputs: a prefix, then the file's path. */
export const FILE_INPUT = {
  /** A file a condition stages, by its path in the work tree. */
  staged: 'stage:',
  /** A file the eval places (its `files`), by its path in the work tree. */
  overlay: 'file:',
  /** Any other file of the eval set folder (the run sees it, mounted), by its path there. */
  folder: 'folder:',
} as const;

/**
 * An input in words, for a reader: a staged file by its path in the work tree, another file of
 * the eval set folder by its path there.
 *
 * @example
 * describeInput('stage:.claude/skills/tdd/SKILL.md'); // '.claude/skills/tdd/SKILL.md'
 * describeInput('model.script'); // 'the model script'
 */
export function describeInput(key: string): string {
  if (key.startsWith(FILE_INPUT.staged)) return key.slice(FILE_INPUT.staged.length);
  if (key.startsWith(FILE_INPUT.overlay))
    return `the eval's file ${key.slice(FILE_INPUT.overlay.length)}`;
  if (key.startsWith(FILE_INPUT.folder))
    return `${key.slice(FILE_INPUT.folder.length)} in the eval set folder`;
  return INPUT_WORDS[key] ?? key;
}

/** The keys describeInput has words for (every input that is not a file). */
export const NAMED_INPUTS: readonly string[] = Object.keys(INPUT_WORDS);
