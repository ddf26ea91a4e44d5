/**
 * The candidates of a codebase's history: each non-merge commit in a range that changes
 * source files and test files, with its parent (the task's codebase), its message (the
 * task's statement) and the files of each kind. The others are dropped, each with why.
 * Reads one git log; runs nothing of the codebase.
 */
import { runGit } from '../git/index.js';
import { FileRoles } from './conventions.js';

/** A commit that may become a task. */
export interface Candidate {
  readonly commit: string;
  /** The task's codebase: the commit before this one. */
  readonly parent: string;
  readonly subject: string;
  readonly body: string;
  readonly date: string;
  /** Source files the commit changed (the solution). */
  readonly source: readonly string[];
  /** Test files the commit added or changed (the check). */
  readonly tests: readonly string[];
}

/** A commit of the range that is no candidate, and why. */
export interface Dropped {
  readonly commit: string;
  readonly subject: string;
  readonly reason: string;
}

export interface CandidateOptions {
  /** `A..B`, or a commit whose history is read (default HEAD). */
  readonly range?: string;
  /** Globs the source files must match (default: any code file that is not a test). */
  readonly paths?: readonly string[];
  /** Globs of test files (default: the conventions of conventions.ts). */
  readonly tests?: readonly string[];
  /** At most this many candidates, newest first. */
  readonly max?: number;
}

export interface Candidates {
  readonly kept: readonly Candidate[];
  readonly dropped: readonly Dropped[];
}

const RECORD = '\x1e';
const FIELD = '\x1f';

/** The candidates of `gitDir`'s history in `options.range`, newest first. */
export async function listCandidates(
  gitDir: string,
  options: CandidateOptions = {},
): Promise<Candidates> {
  const roles = new FileRoles(options);
  const { stdout } = await runGit(
    [
      'log',
      '--no-merges',
      `--format=${RECORD}%H${FIELD}%P${FIELD}%aI${FIELD}%B${FIELD}`,
      '--name-status',
      '--no-renames',
      '-z',
      options.range ?? 'HEAD',
      '--',
    ],
    { cwd: gitDir, reject: true },
  );
  const kept: Candidate[] = [];
  const dropped: Dropped[] = [];
  for (const record of stdout.split(RECORD).slice(1)) {
    const [commit, parents, date, message, rest] = record.split(FIELD) as [
      string,
      string,
      string,
      string,
      string,
    ];
    const [subject, ...bodyLines] = message.trim().split('\n');
    const drop = (reason: string) => dropped.push({ commit, subject: subject ?? '', reason });
    const parent = parents.split(' ').filter(Boolean)[0];
    if (parent === undefined) {
      drop('the first commit: no parent to start from');
      continue;
    }
    const source: string[] = [];
    const tests: string[] = [];
    let deletedTests = false;
    const fields = rest.replace(/^\0?\n?/u, '').split('\0');
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const [status, file] = [fields[i]!, fields[i + 1]!];
      const role = roles.roleOf(file);
      if (role === 'test' && status === 'D') deletedTests = true;
      else if (role === 'test') tests.push(file);
      else if (role === 'source') source.push(file);
    }
    if (tests.length === 0)
      drop(deletedTests ? 'it only deletes tests' : 'it changes no test file');
    else if (source.length === 0) drop('it changes tests only: no source change to make');
    else if (options.max !== undefined && kept.length >= options.max)
      drop(`over --max ${options.max}`);
    else
      kept.push({
        commit,
        parent,
        subject: subject ?? '',
        body: bodyLines.join('\n').trim(),
        date,
        source,
        tests,
      });
  }
  return { kept, dropped };
}
