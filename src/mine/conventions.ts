/**
 * Which of a commit's files are tests and which are source, by the conventions codebases
 * use (a user's `--tests` globs replace the test ones). Docs, examples and CI files are
 * neither: a commit that changes only them is no task.
 */
import { globToRegExp, matchesAny } from './glob.js';

/** Test files by convention: test folders, and the names test runners pick up. */
export const DEFAULT_TEST_GLOBS: readonly string[] = [
  '**/test/**',
  '**/tests/**',
  '**/spec/**',
  '**/__tests__/**',
  '*.test.*',
  '*.spec.*',
  'test_*.py',
  '*_test.py',
  '*_test.go',
  '*Test.java',
  '*_spec.rb',
];

/** What a file counts as in a commit: a test, source code, or neither. */
export type FileRole = 'test' | 'source' | 'other';

const CODE =
  /\.(?:[cm]?[jt]sx?|py|pyi|go|rs|rb|java|kt|scala|c|h|cc|cpp|hpp|cs|php|swift|ex|exs|erl|hs|ml|clj|lua|pl|sh)$/u;
const NEITHER = ['**/doc/**', '**/docs/**', '**/example/**', '**/examples/**', '.github/**'].map(
  globToRegExp,
);

/** Classifies paths: `tests` as given (else the defaults), source the code files that are not tests. */
export class FileRoles {
  private readonly tests: readonly RegExp[];
  private readonly paths: readonly RegExp[] | undefined;

  constructor(options: { tests?: readonly string[]; paths?: readonly string[] } = {}) {
    this.tests = (options.tests?.length ? options.tests : DEFAULT_TEST_GLOBS).map(globToRegExp);
    this.paths = options.paths?.length ? options.paths.map(globToRegExp) : undefined;
  }

  roleOf(path: string): FileRole {
    if (matchesAny(path, this.tests)) return 'test';
    if (!CODE.test(path) || matchesAny(path, NEITHER)) return 'other';
    // `--paths` narrows the source a task may change; tests are wherever the codebase keeps them.
    if (this.paths && !matchesAny(path, this.paths)) return 'other';
    return 'source';
  }
}
