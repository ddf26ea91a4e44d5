/**
 * A mining, start to end: the candidates of a history, each one's files written, validated in
 * containers (through `validate`, which the caller runs: this folder knows no campaign), and
 * the eval set of those that hold, with a report of every candidate kept or dropped and why.
 */
import { access, cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { InputError } from '../errors/index.js';
import { listCandidates, type Candidate, type CandidateOptions } from './candidates.js';
import { FileRoles } from './conventions.js';
import { minedSet, validationSet, type MinedTask, type MineSettings } from './eval-sets.js';
import { REWRITE_SYSTEM, rewriteQuestion, rewrittenPrompt } from './rewrite.js';
import { miningReport, type MiningReport } from './report.js';
import { writeTaskFiles, type TaskFiles } from './task-files.js';
import { validationVerdict, type ValidationRun } from './verdict.js';

export interface MineOptions {
  /** The codebase cache's bare repository its history is read from. */
  readonly gitDir: string;
  /** The codebase in words (the report's and the set's name). */
  readonly label: string;
  /** The codebase's URL or path (a path is written relative to the set's folder). */
  readonly url: string;
  readonly candidates: CandidateOptions;
  readonly testCommand: string;
  /** The environment's build context: copied into the set's folder as `environment/`. */
  readonly environmentDir?: string;
  /** Its Dockerfile, relative to `environmentDir` (default `Dockerfile`). */
  readonly dockerfile?: string;
  readonly setup?: readonly string[];
  /** The mined set's agent and conditions (an eval set's, `--from`): the sanity pair's else. */
  readonly agent?: MineSettings['agent'];
  /** The mined set's file (evals.json); its folder holds tasks/ and the report. */
  readonly outFile: string;
  /** Where the validation campaign is played. */
  readonly validationOut: string;
  /** Runs of each candidate's validation (two: a flaky test shows as runs that disagree). */
  readonly runs: number;
  /** Plays the validation set into `outDir`; answers each eval's runs. */
  readonly validate: (
    evalSetFile: string,
    outDir: string,
  ) => Promise<ReadonlyMap<string, readonly ValidationRun[]>>;
  /**
   * Asks a model (`--rewrite`) to turn a commit into an issue-style task: the system prompt and
   * the question in, its text out (null: no answer, `error` saying why, e.g. the gateway
   * refused the call past the rewrite's budget). Absent: the commit's message is the prompt.
   */
  readonly rewrite?: (
    id: string,
    system: string,
    question: string,
  ) => Promise<{ readonly text: string | null; readonly error?: string }>;
  readonly now?: () => number;
}

const exists = (p: string) =>
  access(p).then(
    () => true,
    () => false,
  );

/** What the set's files say of the codebase: a path relative to its folder, or the URL. */
function urlFor(url: string, setDir: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//iu.test(url) || /^[^/]+@[^/]+:/u.test(url)) return url;
  return path.relative(setDir, path.resolve(url)) || '.';
}

async function environmentOf(o: MineOptions, setDir: string): Promise<MineSettings['environment']> {
  if (!o.environmentDir) return undefined;
  const dockerfile = o.dockerfile ?? 'Dockerfile';
  if (!(await exists(path.join(o.environmentDir, dockerfile))))
    throw new InputError(`--environment ${o.environmentDir}: it holds no ${dockerfile}`);
  await cp(o.environmentDir, path.join(setDir, 'environment'), { recursive: true });
  return {
    dockerfile: path.posix.join('environment', ...dockerfile.split(path.sep)),
    ...(o.setup?.length ? { setup: o.setup } : {}),
  };
}

/** Mines, validates and writes; refuses before anything is written when the set exists. */
export async function mineTasks(o: MineOptions): Promise<MiningReport> {
  const now = o.now ?? Date.now;
  const started = now();
  if (!o.testCommand.includes('{tests}'))
    throw new InputError(
      `--test-command "${o.testCommand}" has no {tests}: write where the test files go, e.g. "npx tape {tests}" or "python3 -m pytest {tests}"`,
    );
  const setDir = path.dirname(path.resolve(o.outFile));
  for (const p of [o.outFile, path.join(setDir, 'tasks')])
    if (await exists(p))
      throw new InputError(`${p} exists: mine into a new folder (nothing was written)`);
  const { kept: candidates, dropped } = await listCandidates(o.gitDir, o.candidates);
  await mkdir(setDir, { recursive: true });
  const roles = new FileRoles(o.candidates);
  const tasks: Array<{ c: Candidate; t: TaskFiles }> = [];
  for (const c of candidates)
    tasks.push({ c, t: await writeTaskFiles(o.gitDir, setDir, c, roles) });
  const settings: MineSettings = {
    url: urlFor(o.url, setDir),
    testCommand: o.testCommand,
    ...(o.environmentDir ? { environment: await environmentOf(o, setDir) } : {}),
    ...(o.agent ? { agent: o.agent } : {}),
  };
  const validationFile = path.join(setDir, 'validation.evals.json');
  await writeJson(validationFile, validationSet(settings, tasks, o.runs));
  const mined = now();
  const runs = tasks.length > 0 ? await o.validate(validationFile, o.validationOut) : new Map();
  const validated = now();
  const verdicts = tasks.map(({ c, t }) => ({
    c,
    t,
    runs: runs.get(t.id) ?? [],
    verdict: validationVerdict(runs.get(t.id) ?? []),
  }));
  const kept: Array<MinedTask & { rewrite?: ReturnType<typeof rewrittenPrompt> }> = [];
  for (const v of verdicts.filter((x) => x.verdict.kept)) {
    if (!o.rewrite) {
      kept.push(v);
      continue;
    }
    const patch = await readFile(path.join(setDir, v.t.patch), 'utf8');
    const answer = await o.rewrite(v.t.id, REWRITE_SYSTEM, rewriteQuestion(v.c, patch));
    const rewrite = rewrittenPrompt(v.c, patch, answer.text, answer.error);
    kept.push({ ...v, prompt: rewrite.prompt, rewrite });
  }
  // A dropped task's files go: only what the set names stays in its folder.
  for (const v of verdicts.filter((x) => !x.verdict.kept))
    await rm(path.join(setDir, v.t.dir), { recursive: true, force: true });
  await writeJson(o.outFile, minedSet(settings, `mined from ${o.label}`, kept));
  const report = miningReport({
    label: o.label,
    testCommand: o.testCommand,
    validationOut: o.validationOut,
    runsEach: o.runs,
    verdicts: verdicts.map((v) => ({ ...v, rewrite: kept.find((k) => k.t === v.t)?.rewrite })),
    dropped,
    timings: {
      mine_ms: mined - started,
      validate_ms: validated - mined,
      total_ms: now() - started,
    },
  });
  await writeJson(path.join(setDir, 'tasks-report.json'), report.json);
  await writeFile(path.join(setDir, 'tasks-report.md'), report.markdown);
  return report;
}

async function writeJson(file: string, value: unknown): Promise<void> {
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
}
