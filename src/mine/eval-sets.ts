/**
 * The two eval sets a mining writes, as JSON documents an eval set file holds (the schema
 * checks them like any other): the validation set (each candidate's tests run at its parent
 * and with the reference applied, twice) and the mined set (the kept tasks, graded by their
 * tests copied in after the agent's last turn).
 */
import path from 'node:path';
import type { Candidate } from './candidates.js';
import type { TaskFiles } from './task-files.js';

/** What every mined eval shares: where the code comes from and how its tests run. */
export interface MineSettings {
  /** The codebase's URL as the eval set writes it (a path relative to the set's folder, or a URL). */
  readonly url: string;
  /** The test command, `{tests}` standing for the test files (each quoted for `sh`). */
  readonly testCommand: string;
  /** The environment as the eval set writes it (paths relative to its folder), if any. */
  readonly environment?: { readonly dockerfile: string; readonly setup?: readonly string[] };
  /**
   * The agent, matrix and conditions of an eval set (`--from`), as its JSON writes them: they
   * replace the sanity pair, which only the sanity agent plays (any other agent would run the
   * same under both).
   */
  readonly agent?: Readonly<Record<string, unknown>>;
}

/** Where the validation places the reference diff in the work tree (after the agent's turn). */
export const REFERENCE_IN_TREE = '.evalrig-reference.patch';

/** A path quoted for `sh`: '…' with each ' written '\''. */
export const shellQuote = (s: string): string => `'${s.replace(/'/gu, `'\\''`)}'`;

/** The test command over `files`; `true` when there are none (nothing to pass). */
export function testRun(command: string, files: readonly string[]): string {
  if (files.length === 0) return 'true';
  return command.replaceAll('{tests}', files.map(shellQuote).join(' '));
}

/** The task's statement: the commit's message, subject and body. */
export function promptOf(c: Candidate): string {
  return c.body ? `${c.subject}\n\n${c.body}` : c.subject;
}

/** Each top-level folder (or file) of the commit's tests, copied to the same place in the tree. */
function testCheckFiles(t: TaskFiles): Record<string, string> {
  const tops = [...new Set(t.failToPass.map((f) => f.split('/')[0]!))].sort();
  return Object.fromEntries(tops.map((top) => [path.posix.join(t.tests, top), top]));
}

/** A task of the set: its candidate, its files, and its prompt when not the commit's message. */
export interface MinedTask {
  readonly c: Candidate;
  readonly t: TaskFiles;
  readonly prompt?: string;
}

function evalBase(s: MineSettings, { c, t, prompt }: MinedTask) {
  return { id: t.id, prompt: prompt ?? promptOf(c), codebase: { url: s.url, ref: c.parent } };
}

const environmentOf = (s: MineSettings) =>
  s.environment
    ? {
        environment: {
          dockerfile: s.environment.dockerfile,
          ...(s.environment.setup?.length ? { setup: [...s.environment.setup] } : {}),
        },
      }
    : {};

/**
 * The validation set: one run does nothing, then its checks run the touched tests and the
 * others at the parent, apply the reference diff, and run both again. Two runs each, so a
 * flaky test shows as runs that disagree.
 */
export function validationSet(s: MineSettings, tasks: readonly MinedTask[], runs: number) {
  return {
    name: 'mined tasks: validation',
    description: 'Written by evalrig tasks from-history to validate its candidates.',
    agent: { command: ['true'] },
    conditions: { validate: {} },
    runs,
    ...environmentOf(s),
    evals: tasks.map((task) => ({
      ...evalBase(s, task),
      check_files: { ...testCheckFiles(task.t), [task.t.patch]: REFERENCE_IN_TREE },
      checks: [
        { name: 'fail_to_pass_at_parent', run: testRun(s.testCommand, task.t.failToPass) },
        { name: 'pass_to_pass_at_parent', run: testRun(s.testCommand, task.t.passToPass) },
        { name: 'reference_applies', run: `git apply ${REFERENCE_IN_TREE}` },
        { name: 'fail_to_pass_at_commit', run: testRun(s.testCommand, task.t.failToPass) },
        { name: 'pass_to_pass_at_commit', run: testRun(s.testCommand, task.t.passToPass) },
      ],
    })),
  };
}

/**
 * The mined set: its two conditions are the sanity pair (the reference applied, nothing done);
 * a user replaces the agent and the conditions with theirs, or mines `--from` a set whose agent
 * and conditions take their place. `checks_passed` is `resolved`.
 */
export function minedSet(s: MineSettings, name: string, tasks: readonly MinedTask[]) {
  return {
    name,
    ...(s.agent
      ? { ...theirAgent(s.agent), ...common(s, tasks) }
      : { ...sanityPair(), ...common(s, tasks) }),
  };
}

const MINED =
  "Tasks mined from the codebase's history by evalrig tasks from-history: each eval's codebase is a commit's parent, its prompt the commit's message, its checks the commit's tests, copied in by the host after the agent's last turn. checks_passed is \"resolved\": every fail-to-pass test passes and every pass-to-pass test still passes.";

/** The given agent and its conditions (`--from`), in place of the sanity pair. */
function theirAgent(agent: Readonly<Record<string, unknown>>) {
  return {
    description: `${MINED} The agent and conditions are the eval set's it was mined --from.`,
    ...agent,
  };
}

/** The sanity pair: the reference applied (resolved 100%), nothing done (0%). */
function sanityPair() {
  return {
    description: `${MINED} The conditions are the sanity pair (the reference diff applied; nothing done): put your agent and conditions in their place.`,
    agent: {
      command: [
        'sh',
        '-c',
        'if [ "$1" = reference ]; then git apply "$2"; fi',
        'sh',
        '{condition}',
        '{eval_set_dir}/tasks/{eval}/reference.patch',
      ],
    },
    conditions: {
      unchanged: { description: 'the agent changes nothing: resolved 0%' },
      reference: { description: "the agent applies the commit's own change: resolved 100%" },
    },
    baseline_condition: 'unchanged',
  };
}

function common(s: MineSettings, tasks: readonly MinedTask[]) {
  return {
    primary_measure: 'checks_passed',
    ...environmentOf(s),
    evals: tasks.map(({ c, t, prompt }) => ({
      ...evalBase(s, { c, t, ...(prompt === undefined ? {} : { prompt }) }),
      expected_output: `The change of commit ${c.commit}: ${t.patch}`,
      // Measured against (diff_vs_reference) and shown to the judge; never staged.
      reference: t.patch,
      check_files: testCheckFiles(t),
      checks: [
        { name: 'fail_to_pass', run: testRun(s.testCommand, t.failToPass) },
        { name: 'pass_to_pass', run: testRun(s.testCommand, t.passToPass) },
      ],
    })),
  };
}
