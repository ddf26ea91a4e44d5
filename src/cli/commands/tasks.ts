import type { Command } from 'commander';
import { InputError } from '../../errors/index.js';
import { describeSource } from '../../source/index.js';
import { candidatesText, listCandidates, placeCodebase, sourceOf } from '../../mine/index.js';

interface FromHistoryFlags {
  ref?: string;
  range?: string;
  paths?: string[];
  tests?: string[];
  max?: string;
  dryRun?: boolean;
}

/** `--max`: a whole number of candidates, at least 1. */
export function maxOf(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new InputError(`--max must be a whole number of at least 1, got "${value}"`);
  return n;
}

/**
 * `evalrig tasks from-history <codebase> --dry-run`: the commits of a codebase's history that
 * could become tasks (each changes source files and tests), and the others with why. Mining
 * them into an eval set (validated in containers) is not built yet, so `--dry-run` is asked
 * for, not implied: the command will one day write, and must not surprise anyone then.
 */
export function registerTasks(program: Command): void {
  const tasks = program.command('tasks').description('eval sets made from a codebase');
  tasks
    .command('from-history')
    .description(
      "the commits of a codebase's history that could become tasks: each changes source files and tests (the parent is the task's codebase, the message its statement, the tests its check)",
    )
    .argument('<codebase>', 'a local path (its checked-out commit), or a git URL with --ref')
    .option('--ref <ref>', "the URL's branch, tag or full commit")
    .option('--range <A..B>', 'the commits to read (default: all the history of the codebase)')
    .option('--paths <glob...>', 'only commits whose source changes match these globs')
    .option('--tests <glob...>', "test files (default: the codebase's conventions)")
    .option('--max <n>', 'at most this many candidates, newest first')
    .option('--dry-run', 'list the candidates; run nothing, write nothing')
    .action(async (codebase: string, flags: FromHistoryFlags) => {
      const max = maxOf(flags.max);
      if (!flags.dryRun)
        throw new InputError(
          'tasks from-history validates each candidate in containers before it writes an eval set, which is not built yet: give --dry-run to list the candidates',
        );
      const source = sourceOf(codebase, flags.ref);
      const { resolved, gitDir } = await placeCodebase(source);
      const range = flags.range ?? resolved.commit;
      const found = await listCandidates(gitDir, {
        range,
        ...(flags.paths ? { paths: flags.paths } : {}),
        ...(flags.tests ? { tests: flags.tests } : {}),
        ...(max !== undefined ? { max } : {}),
      }).catch((error: unknown) => {
        throw new InputError(
          `--range ${range}: not a range of ${describeSource(source)}'s history up to ${resolved.commit.slice(0, 12)} (${(error as Error).message.split('\n')[0]})`,
        );
      });
      process.stdout.write(
        candidatesText(found, `${describeSource(source)} at ${resolved.commit.slice(0, 12)}`),
      );
    });
}
