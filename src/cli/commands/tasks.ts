import path from 'node:path';
import type { Command } from 'commander';
import { InputError } from '../../errors/index.js';
import {
  candidatesText,
  listCandidates,
  mineTasks,
  placeCodebase,
  sourceOf,
} from '../../mine/index.js';
import { validate, type FromHistoryFlags } from './tasks-mine.js';
import { fromSetOf } from './tasks-from.js';
import { rewriteBudgetOf, rewriterOf } from './tasks-rewrite.js';
import { describeSource } from '../../source/index.js';

/** A whole number flag, at least 1. */
export function countOf(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new InputError(`${flag} must be a whole number of at least 1, got "${value}"`);
  return n;
}

/** `--max`: a whole number of candidates, at least 1. */
export const maxOf = (value: string | undefined) => countOf('--max', value);

/**
 * `evalrig tasks from-history <codebase>`: the commits of a codebase's history that change
 * source and tests become tasks. With `--dry-run`, listed with the others and why; else each is
 * validated in containers (its tests fail at the parent and pass with the commit, the others
 * pass at both, twice) and the ones that hold are written as an eval set, with a report.
 */
export function registerTasks(program: Command): void {
  const tasks = program.command('tasks').description('eval sets made from a codebase');
  tasks
    .command('from-history')
    .description(
      "tasks from a codebase's history: each commit that changes source files and tests, validated in containers (its tests fail at the parent and pass with the commit), written as an eval set",
    )
    .argument(
      '[codebase]',
      "a local path (its checked-out commit), or a git URL with --ref (default: --from's)",
    )
    .option('--ref <ref>', "the URL's branch, tag or full commit")
    .option('--range <A..B>', 'the commits to read (default: all the history of the codebase)')
    .option('--paths <glob...>', 'only commits whose source changes match these globs')
    .option('--tests <glob...>', "test files (default: the codebase's conventions)")
    .option('--max <n>', 'at most this many candidates, newest first')
    .option('--dry-run', 'list the candidates; run nothing, write nothing')
    .option('--test-command <cmd>', 'how the tests run, {tests} for the files: "npx tape {tests}"')
    .option('--out <evals.json>', 'the eval set to write (its folder gets tasks/ and the report)')
    .option(
      '--environment <dir>',
      "a folder with the codebase's Dockerfile (copied beside the set)",
    )
    .option('--setup <cmd...>', 'setup commands per commit, with the network (as an eval set)')
    .option(
      '--from <evals.json>',
      "take the codebase, environment and setup of this eval set's first eval, and its agent and conditions (the flags win)",
    )
    .option(
      '--rewrite <script|url>',
      "rewrite each kept task's message into an issue naming no file of the solution, by a model: a model script (the stand-in plays it) or an API's URL",
    )
    .option('--rewrite-key-env <var>', "with a URL: the host variable holding the API's key")
    .option('--rewrite-model <name>', 'the model the rewrite asks for (with a URL: required)')
    .option(
      '--rewrite-max-cost <usd>',
      "the rewrites' budget (USD, list prices): the gateway refuses a call that would pass it",
    )
    .option('--runs <n>', 'validation runs per candidate (default 2: flaky tests drop)')
    .option('--jobs <n>', 'validation runs at once')
    .option('--validation-out <dir>', 'the validation campaign (default: beside the set folder)')
    .action(async (codebase: string | undefined, flags: FromHistoryFlags) => {
      const max = maxOf(flags.max);
      const runs = countOf('--runs', flags.runs) ?? 2;
      const jobs = countOf('--jobs', flags.jobs);
      rewriteBudgetOf(flags.rewriteMaxCost); // refused before anything is read
      if (!flags.dryRun && (!flags.testCommand || !flags.out))
        throw new InputError(
          'tasks from-history writes an eval set: give --test-command and --out (or --dry-run to list the candidates)',
        );
      const from = await fromSetOf(flags, path.dirname(path.resolve(flags.out ?? '.')));
      if (codebase === undefined && !from.codebase)
        throw new InputError(
          flags.from
            ? `--from ${flags.from}: /evals/0/codebase: its first eval has no codebase: give one`
            : 'tasks from-history needs a codebase: a local path, a git URL with --ref, or --from <evals.json>',
        );
      if (codebase === undefined && flags.ref !== undefined)
        throw new InputError(`--ref goes with a codebase given on the command line, not --from's`);
      const source = codebase === undefined ? from.codebase!.source : sourceOf(codebase, flags.ref);
      const { resolved, gitDir } = await placeCodebase(
        source,
        codebase === undefined ? from.codebase!.baseDir : process.cwd(),
      );
      const range = flags.range ?? resolved.commit;
      const options = {
        range,
        ...(flags.paths ? { paths: flags.paths } : {}),
        ...(flags.tests ? { tests: flags.tests } : {}),
        ...(max !== undefined ? { max } : {}),
      };
      const label = `${describeSource(source)} at ${resolved.commit.slice(0, 12)}`;
      const found = await listCandidates(gitDir, options).catch((error: unknown) => {
        throw new InputError(
          `--range ${range}: not a range of ${describeSource(source)}'s history up to ${resolved.commit.slice(0, 12)} (${(error as Error).message.split('\n')[0]})`,
        );
      });
      if (flags.dryRun) {
        process.stdout.write(candidatesText(found, label));
        return;
      }
      const out = path.resolve(flags.out!);
      const validationOut = path.resolve(flags.validationOut ?? `${path.dirname(out)}-validation`);
      const report = await mineTasks({
        gitDir,
        label,
        url:
          'url' in source
            ? source.url
            : path.resolve(codebase === undefined ? from.codebase!.baseDir : '.', source.path),
        candidates: options,
        testCommand: flags.testCommand!,
        ...from.environment,
        ...(from.agent ? { agent: from.agent } : {}),
        outFile: out,
        validationOut: path.resolve(flags.validationOut ?? `${path.dirname(out)}-validation`),
        runs,
        validate: (file, dir) => validate(file, dir, jobs),
        ...(flags.rewrite
          ? { rewrite: await rewriterOf(flags, path.join(validationOut, 'rewrites')) }
          : {}),
      });
      process.stdout.write(report.markdown);
      process.stderr.write(
        `evalrig tasks: ${report.json.kept} of ${report.json.candidates} candidate(s) kept: ${out}\n`,
      );
    });
}
