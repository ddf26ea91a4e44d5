import { AccountAccumulator } from './account.js';
import path from 'node:path';
import {
  evalrigVersion,
  type AgentIdentity,
  type ConditionsFile,
  type RunRecord,
} from '../artifacts/index.js';
import {
  campaignFiles,
  notACampaign,
  readConditions,
  readRuns,
  replayedRuns,
  runLinks,
  writeReportFiles,
} from '../campaign-folder/index.js';
import { InputError } from '../errors/index.js';
import {
  agentMeasuresOf,
  numberMeasuresOf,
  compare,
  GroupAccumulator,
  type CodebaseEntry,
  type GroupStats,
} from './benchmark.js';
import type { BenchmarkFile, Provenance } from './benchmark-file.js';
import { GradingAccumulator } from './grading.js';
import { EngineSplit } from './engines.js';
import { ServiceSplit } from './services.js';
import { checkHtml, renderHtml } from './html.js';
import { checkMarkdown, renderBaseline, renderReportMd } from './markdown.js';
import { toTimeline, type RunTimeline } from './timeline.js';
import { TreatmentAccumulator } from './treatment.js';
import { RefusalAccumulator } from './refusals.js';
import { powerWarnings, verdicts } from './verdict.js';
import { agentsSection, pairsOf } from './matrix.js';
import { readReviews } from './reviews.js';
import { embedRuns } from './embed.js';
import { ReuseAccumulator } from './reuse.js';
import { BehaviourAccumulator } from './behaviour.js';
import { FailedCheckAccumulator } from './failed-checks.js';
import { readSequentialSection } from './sequential.js';
import { namedRates } from './rate-families.js';

/** The campaign folder cannot be reported on (no conditions.json, no run). */
export class ReportInputError extends InputError {}

export interface ReportOptions {
  /** Runs whose stops the page shows as a timeline (default 200); the rest are counted. */
  readonly timelineLimit?: number;
  /** The report's date (default: now). */
  readonly now?: Date;
}

/** What `writeReport` wrote, and the per-condition numbers to print. */
export interface ReportSummary {
  readonly outDir: string;
  readonly files: {
    readonly benchmark: string;
    readonly baseline: string;
    readonly reportMd: string;
    readonly reportHtml: string;
  };
  readonly campaign: string;
  readonly baselineCondition: string;
  readonly runs: BenchmarkFile['runs'];
  readonly conditions: BenchmarkFile['conditions'];
  readonly comparisons: BenchmarkFile['comparisons'];
  /** Each condition's agent, in a campaign that plays several (benchmark.json's provenance.agents). */
  readonly agents?: BenchmarkFile['provenance']['agents'];
  /** The campaign's account (agents, judge, times), at list prices. */
  readonly account?: BenchmarkFile['account'];
  /** Run folders whose files are broken: named, and left out of every figure. */
  readonly broken: ReadonlyArray<{ readonly run: string; readonly problem: string }>;
}

async function conditionsOf(outDir: string): Promise<ConditionsFile> {
  const read = await readConditions(outDir);
  if (read.status === 'ok') return read.value;
  throw new ReportInputError(notACampaign(read, outDir));
}

function codebaseKey(
  c: CodebaseEntry | NonNullable<ConditionsFile['evals'][number]['codebase']>,
): string {
  return JSON.stringify([c.kind, c.url, c.ref, c.path, c.commit, c.branch]);
}

/** benchmark.json's `provenance.services`, when runs had services beside them. */
function servicesOf(split: ServiceSplit): Pick<Provenance, 'services'> {
  const entries = split.entries();
  return entries ? { services: entries } : {};
}

/** benchmark.json's `by_engine`, when the runs ran on several engines. */
function engineSplitOf(split: EngineSplit): Pick<BenchmarkFile, 'by_engine'> {
  const groups = split.groupsIfSplit();
  return groups ? { by_engine: groups } : {};
}

/** A codebase map that lists, per codebase, the evals that used it. */
class CodebaseList {
  private readonly byKey = new Map<string, CodebaseEntry>();

  add(evalId: string, c: CodebaseEntry | ConditionsFile['evals'][number]['codebase']): void {
    if (!c) return;
    const key = codebaseKey(c);
    const known = this.byKey.get(key);
    if (!known) this.byKey.set(key, { ...c, evals: [evalId] });
    else if (!known.evals.includes(evalId))
      this.byKey.set(key, { ...known, evals: [...known.evals, evalId] });
  }

  list(): CodebaseEntry[] {
    return [...this.byKey.values()];
  }
}

/** The running sums over every stored run, filled one run at a time. */
interface RunTally {
  readonly byCondition: Map<string, GroupAccumulator>;
  readonly byEval: Map<string, { eval: string; condition: string; acc: GroupAccumulator }>;
  /** Each eval's check names (conditions.json; empty in one of an older version). */
  readonly declaredChecks: ReadonlyMap<string, readonly string[]>;
  /** The failed checks' examples, for the report to name. */
  readonly failedChecks: FailedCheckAccumulator;
  readonly codebases: CodebaseList;
  // The judge's gradings, read from each run's grading.json (never asked again here).
  readonly grading: GradingAccumulator;
  readonly byEngine: EngineSplit;
  readonly services: ServiceSplit;
  // Read beside the loop, a few at a time: most runs have none, and a miss still costs an open.
  readonly gradingReads: Promise<void>[];
  readonly treatment: TreatmentAccumulator;
  readonly refusals: RefusalAccumulator;
  readonly account: AccountAccumulator;
  /** What the agent did, run by run, from each trajectory. */
  readonly behaviour: BehaviourAccumulator;
  /** The reused runs by source, and the model scripts the runs played. */
  readonly reuse: ReuseAccumulator;
  readonly timelines: RunTimeline[];
  readonly timelineDirs: string[];
  total: number;
  withoutRecord: number;
  readonly broken: Array<{ run: string; problem: string }>;
}

function emptyTally(conditionsFile: ConditionsFile): RunTally {
  const names = conditionsFile.conditions.map((c) => c.name);
  const codebases = new CodebaseList();
  for (const e of conditionsFile.evals) codebases.add(e.id, e.codebase);
  const grading = new GradingAccumulator(names);
  const account = new AccountAccumulator();
  // A grading copied with a reused run was paid for by the campaign that graded it.
  grading.onGrading = (g) => {
    if (g.campaign === conditionsFile.campaign) account.addGrading(g);
  };
  return {
    byCondition: new Map(names.map((name) => [name, new GroupAccumulator()])),
    byEval: new Map(),
    declaredChecks: new Map(conditionsFile.evals.map((e) => [e.id, e.checks ?? []])),
    failedChecks: new FailedCheckAccumulator(),
    codebases,
    grading,
    byEngine: new EngineSplit(),
    services: new ServiceSplit(),
    gradingReads: [],
    treatment: new TreatmentAccumulator(names),
    behaviour: new BehaviourAccumulator(names, conditionsFile.step_checks ?? []),
    refusals: new RefusalAccumulator(names),
    account,
    reuse: new ReuseAccumulator(),
    timelines: [],
    timelineDirs: [],
    total: 0,
    withoutRecord: 0,
    broken: [],
  };
}

/** Adds one run's record to the per-condition, per-eval and split sums. */
function addToGroups(tally: RunTally, record: RunRecord): void {
  let cond = tally.byCondition.get(record.condition);
  if (!cond) tally.byCondition.set(record.condition, (cond = new GroupAccumulator()));
  const declared = tally.declaredChecks.get(record.eval) ?? [];
  cond.add(record, declared);
  tally.treatment.add(record);
  const key = JSON.stringify([record.eval, record.condition]);
  let group = tally.byEval.get(key);
  if (!group)
    tally.byEval.set(
      key,
      (group = { eval: record.eval, condition: record.condition, acc: new GroupAccumulator() }),
    );
  group.acc.add(record, declared);
  tally.byEngine.add(record, declared);
  tally.failedChecks.add(record, declared);
  tally.services.add(record);
  tally.reuse.add(record);
}

/** Starts reading the run's grading and account files, at most 32 in flight. */
async function queueSideReads(tally: RunTally, runDir: string, record: RunRecord): Promise<void> {
  const pending = Promise.all([
    tally.grading.add(runDir, record),
    tally.account.add(runDir, record),
    tally.behaviour.add(runDir, record),
  ]).then(() => undefined);
  pending.catch(() => undefined); // awaited later; not "unhandled" meanwhile
  tally.gradingReads.push(pending);
  if (tally.gradingReads.length >= 32) await Promise.all(tally.gradingReads.splice(0));
}

/**
 * Streams over the stored runs once, adding each to the running sums. Broken
 * runs are named and left out; the first `limit` runs keep their timeline.
 */
async function tallyRuns(
  dir: string,
  conditionsFile: ConditionsFile,
  limit: number,
): Promise<RunTally> {
  const tally = emptyTally(conditionsFile);
  for await (const { entry, read } of readRuns(dir)) {
    const run = path.relative(dir, entry.dir);
    if (read.status === 'broken') {
      tally.broken.push({ run, problem: read.problem });
      continue;
    }
    if (read.status === 'missing') {
      tally.withoutRecord++;
      continue;
    }
    // Read and verified whole (the stops too): a damaged stop leaves the run out, named.
    const { record, stops } = read.value;
    tally.total++;
    addToGroups(tally, record);
    tally.refusals.add(record, stops);
    await queueSideReads(tally, entry.dir, record);
    if (record.codebase) tally.codebases.add(record.eval, record.codebase);
    if (tally.timelines.length < limit) {
      const files = (await runLinks(entry.dir, record.stops)).map((f) => ({
        label: f.label,
        path: [...run.split(path.sep), f.path].join('/'),
      }));
      tally.timelines.push(toTimeline(record, stops, files));
      tally.timelineDirs.push(entry.dir);
    }
  }
  if (tally.total === 0) throw nothingToReport(dir, tally);
  tally.account.addReplayed(await replayedRuns(dir));
  return tally;
}

function nothingToReport(dir: string, tally: RunTally): ReportInputError {
  const { broken, withoutRecord } = tally;
  const brokenNote = broken.length ? `; broken: ${broken.map((b) => b.run).join(', ')}` : '';
  return new ReportInputError(
    `${campaignFiles(dir).runs} holds no run.json${withoutRecord ? ` (${withoutRecord} run folders without one)` : ''}${brokenNote}: nothing to report on`,
  );
}

/** benchmark.json's `prompts`: each eval's prompt, messages and expectations. */
function promptsOf(conditionsFile: ConditionsFile): BenchmarkFile['prompts'] {
  return conditionsFile.evals.flatMap((e) =>
    e.prompt === undefined
      ? []
      : [
          {
            eval: e.id,
            prompt: e.prompt,
            messages: e.messages ?? [],
            ...(e.expectations ? { expectations: e.expectations } : {}),
          },
        ],
  );
}

/** benchmark.json's `provenance`: where the campaign's inputs came from. */
function provenanceOf(
  conditionsFile: ConditionsFile,
  tally: RunTally,
  generatedAt: string,
): Provenance {
  const codebaseList = tally.codebases.list();
  return {
    eval_set: conditionsFile.eval_set,
    codebases: codebaseList,
    host_local: codebaseList.some((c) => c.host_local === true),
    image: conditionsFile.image,
    ...servicesOf(tally.services),
    stand_in_sha256: conditionsFile.stand_in_sha256,
    ...(conditionsFile.agent ? { agent: conditionsFile.agent } : {}),
    ...agentsOf(conditionsFile),
    ...tally.reuse.provenance(),
    evalrig_version: conditionsFile.evalrig_version,
    report_evalrig_version: evalrigVersion,
    campaign_created_at: conditionsFile.created_at,
    generated_at: generatedAt,
  };
}

/** Turns the running sums into benchmark.json: stats, comparisons, verdicts. */
async function benchmarkOf(
  dir: string,
  conditionsFile: ConditionsFile,
  tally: RunTally,
  generatedAt: string,
): Promise<BenchmarkFile> {
  const conditions = [...tally.byCondition.entries()].map(([condition, acc]) => ({
    condition,
    ...acc.stats(),
  }));
  const stats = new Map<string, GroupStats>(conditions.map((c) => [c.condition, c]));
  const names = conditions.map((c) => c.condition);
  const pairs = pairsOf(conditionsFile, names);
  const baseline = pairs[0]?.[0] ?? conditionsFile.baseline_condition;
  const provenance = provenanceOf(conditionsFile, tally, generatedAt);
  await Promise.all(tally.gradingReads);
  const gradingSection = await tally.grading.section(dir, pairs);
  const sequential = await readSequentialSection(dir);
  const comparisons = pairs.map(([b, o]) => compare(b, stats.get(b)!, o, stats.get(o)!));
  const measuredRuns = new Map(conditions.map((c) => [c.condition, c.measured]));
  const behaviour = tally.behaviour.section(baseline);
  const evals = [...tally.byEval.values()].map((g) => ({
    eval: g.eval,
    condition: g.condition,
    ...g.acc.stats(),
  }));
  const lines = verdicts(comparisons, stats, gradingSection, evals, behaviour);
  const agents = agentsSection(conditionsFile, stats, lines);
  const failedChecks = tally.failedChecks.section(conditions);
  return {
    schema: 'evalrig/benchmark@1',
    campaign: conditionsFile.campaign,
    generated_at: generatedAt,
    provenance,
    baseline_condition: baseline,
    runs: { total: tally.total, without_record: tally.withoutRecord },
    conditions,
    evals,
    comparisons,
    treatment_warnings: tally.treatment.warnings(),
    treatment: tally.treatment.summary(),
    refusal_warnings: tally.refusals.warnings(),
    verdicts: lines,
    ...(failedChecks.length > 0 ? { failed_checks: failedChecks } : {}),
    ...(agents ? { agents } : {}),
    power_warnings: powerWarnings(comparisons, measuredRuns),
    prompts: promptsOf(conditionsFile),
    ...(gradingSection ? { grading: gradingSection } : {}),
    account: tally.account.account(),
    ...(behaviour ? { behaviour } : {}),
    ...engineSplitOf(tally.byEngine),
    ...(sequential ? { sequential } : {}),
  };
}

/** Renders and checks every page first, then writes them all, so a failure leaves the old files whole. */
async function renderAndWrite(
  dir: string,
  benchmark: BenchmarkFile,
  tally: RunTally,
): Promise<ReportSummary['files']> {
  const {
    benchmark: benchmarkJson,
    baseline: baselinePath,
    reportMd: mdPath,
    reportHtml,
  } = campaignFiles(dir);
  const files = { benchmark: benchmarkJson, baseline: baselinePath, reportMd: mdPath, reportHtml };
  const baselineMd = renderBaseline(benchmark);
  checkMarkdown(files.baseline, baselineMd, [`# Baseline: ${benchmark.campaign}`]);
  const reportMd = renderReportMd(benchmark);
  checkMarkdown(files.reportMd, reportMd, ['## Per condition', '## Comparisons', '## Per eval']);
  const reviews = await readReviews(dir);
  const { timelines, timelineDirs, total } = tally;
  // A small campaign's report shows each run's steps itself; a larger one links to the viewer.
  const embedded = await embedRuns(
    timelines.map((t, k) => ({ ...t, dir: timelineDirs[k]! })),
    total,
    dir,
  );
  const html = renderHtml(benchmark, timelines, total - timelines.length, reviews, embedded);
  checkHtml(files.reportHtml, html, {
    agentMeasures: agentMeasuresOf(benchmark).length,
    numberMeasures: numberMeasuresOf(benchmark).length,
    namedRates: namedRates(benchmark.conditions).length,
  });

  await writeReportFiles(dir, { benchmark, baselineMd, reportMd, reportHtml: html });
  return files;
}

/**
 * Recomputes the campaign's aggregate artifacts from its stored runs, running
 * nothing: benchmark.json, BASELINE.md, report.md and report.html at the top
 * of `outDir`. Streams over runs/<eval>/<condition>/run-NN/run.json one at a
 * time with running sums, so memory stays flat in the number of runs. Every
 * file is checked before it is written.
 *
 * @example
 * const summary = await writeReport('out/campaign-1');
 * console.log(formatSummaryTable(summary));
 * console.log(summary.files.reportHtml);
 */
export async function writeReport(
  outDir: string,
  options: ReportOptions = {},
): Promise<ReportSummary> {
  const dir = path.resolve(outDir);
  const conditionsFile = await conditionsOf(dir);
  const limit = options.timelineLimit ?? 200;
  const generatedAt = (options.now ?? new Date()).toISOString();

  const tally = await tallyRuns(dir, conditionsFile, limit);
  const benchmark = await benchmarkOf(dir, conditionsFile, tally, generatedAt);
  const files = await renderAndWrite(dir, benchmark, tally);

  return {
    outDir: dir,
    files,
    campaign: benchmark.campaign,
    baselineCondition: benchmark.baseline_condition,
    runs: benchmark.runs,
    conditions: benchmark.conditions,
    comparisons: benchmark.comparisons,
    ...(benchmark.provenance.agents ? { agents: benchmark.provenance.agents } : {}),
    ...(benchmark.account ? { account: benchmark.account } : {}),
    broken: tally.broken,
  };
}

/** Each condition's agent, when conditions.json names one per condition (a cross-agent campaign). */
function agentsOf(file: ConditionsFile): { agents?: Record<string, AgentIdentity> } {
  const named = file.conditions.filter((c) => c.agent !== undefined);
  if (named.length === 0) return {};
  return { agents: Object.fromEntries(named.map((c) => [c.name, c.agent!])) };
}
