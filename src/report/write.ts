import { AccountAccumulator } from './account.js';
import path from 'node:path';
import { evalrigVersion, type AgentIdentity, type ConditionsFile } from '../artifacts/index.js';
import {
  campaignFiles,
  notACampaign,
  readConditions,
  readRuns,
  runLinks,
  writeReportFiles,
} from '../campaign-folder/index.js';
import { InputError } from '../errors/index.js';
import {
  compare,
  comparisonPairs,
  GroupAccumulator,
  messageCheckNames,
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
import { powerWarnings, verdicts } from './verdict.js';
import { readReviews } from './reviews.js';
import { embedRuns } from './embed.js';

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

  const byCondition = new Map<string, GroupAccumulator>(
    conditionsFile.conditions.map((c) => [c.name, new GroupAccumulator()]),
  );
  const byEval = new Map<string, { eval: string; condition: string; acc: GroupAccumulator }>();
  const codebases = new Map<string, CodebaseEntry>();
  const addCodebase = (
    evalId: string,
    c: CodebaseEntry | ConditionsFile['evals'][number]['codebase'],
  ): void => {
    if (!c) return;
    const key = codebaseKey(c);
    const known = codebases.get(key);
    if (!known) codebases.set(key, { ...c, evals: [evalId] });
    else if (!known.evals.includes(evalId))
      codebases.set(key, { ...known, evals: [...known.evals, evalId] });
  };
  for (const e of conditionsFile.evals) addCodebase(e.id, e.codebase);

  // The judge's gradings, read from each run's grading.json (never asked again here).
  const grading = new GradingAccumulator(conditionsFile.conditions.map((c) => c.name));
  const byEngine = new EngineSplit();
  const services = new ServiceSplit();
  // Read beside the loop, a few at a time: most runs have none, and a miss still costs an open.
  const gradingReads: Promise<void>[] = [];
  const treatment = new TreatmentAccumulator();
  const account = new AccountAccumulator();
  grading.onGrading = (g) => account.addGrading(g);
  const timelines: RunTimeline[] = [];
  const timelineDirs: string[] = [];
  let total = 0;
  let withoutRecord = 0;
  const broken: Array<{ run: string; problem: string }> = [];
  for await (const { entry, read } of readRuns(dir)) {
    const run = path.relative(dir, entry.dir);
    if (read.status === 'broken') {
      broken.push({ run, problem: read.problem });
      continue;
    }
    if (read.status === 'missing') {
      withoutRecord++;
      continue;
    }
    // Read and verified whole (the stops too): a damaged stop leaves the run out, named.
    const { record, stops } = read.value;
    total++;
    let cond = byCondition.get(record.condition);
    if (!cond) byCondition.set(record.condition, (cond = new GroupAccumulator()));
    cond.add(record);
    treatment.add(record);
    const key = JSON.stringify([record.eval, record.condition]);
    let group = byEval.get(key);
    if (!group)
      byEval.set(
        key,
        (group = { eval: record.eval, condition: record.condition, acc: new GroupAccumulator() }),
      );
    group.acc.add(record);
    byEngine.add(record);
    services.add(record);
    const pending = Promise.all([
      grading.add(entry.dir, record),
      account.add(entry.dir, record),
    ]).then(() => undefined);
    pending.catch(() => undefined); // awaited below; not "unhandled" meanwhile
    gradingReads.push(pending);
    if (gradingReads.length >= 32) await Promise.all(gradingReads.splice(0));
    if (record.codebase) addCodebase(record.eval, record.codebase);
    if (timelines.length < limit) {
      const files = (await runLinks(entry.dir, record.stops)).map((f) => ({
        label: f.label,
        path: [...run.split(path.sep), f.path].join('/'),
      }));
      timelines.push(toTimeline(record, stops, files));
      timelineDirs.push(entry.dir);
    }
  }
  if (total === 0) {
    const brokenNote = broken.length ? `; broken: ${broken.map((b) => b.run).join(', ')}` : '';
    throw new ReportInputError(
      `${campaignFiles(dir).runs} holds no run.json${withoutRecord ? ` (${withoutRecord} run folders without one)` : ''}${brokenNote}: nothing to report on`,
    );
  }

  const conditions = [...byCondition.entries()].map(([condition, acc]) => ({
    condition,
    ...acc.stats(),
  }));
  const stats = new Map<string, GroupStats>(conditions.map((c) => [c.condition, c]));
  const names = conditions.map((c) => c.condition);
  const pairs = comparisonPairs(names, conditionsFile.baseline_condition);
  const baseline = pairs[0]?.[0] ?? conditionsFile.baseline_condition;
  const codebaseList = [...codebases.values()];
  await Promise.all(gradingReads);
  const gradingSection = await grading.section(dir, pairs);
  const comparisons = pairs.map(([b, o]) => compare(b, stats.get(b)!, o, stats.get(o)!));
  const measuredRuns = new Map(conditions.map((c) => [c.condition, c.measured]));
  const prompts = conditionsFile.evals.flatMap((e) =>
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

  const benchmark: BenchmarkFile = {
    schema: 'evalrig/benchmark@1',
    campaign: conditionsFile.campaign,
    generated_at: generatedAt,
    provenance: {
      eval_set: conditionsFile.eval_set,
      codebases: codebaseList,
      host_local: codebaseList.some((c) => c.host_local === true),
      image: conditionsFile.image,
      ...servicesOf(services),
      stand_in_sha256: conditionsFile.stand_in_sha256,
      ...(conditionsFile.agent ? { agent: conditionsFile.agent } : {}),
      ...agentsOf(conditionsFile),
      evalrig_version: conditionsFile.evalrig_version,
      report_evalrig_version: evalrigVersion,
      campaign_created_at: conditionsFile.created_at,
      generated_at: generatedAt,
    },
    baseline_condition: baseline,
    runs: { total, without_record: withoutRecord },
    conditions,
    evals: [...byEval.values()].map((g) => ({
      eval: g.eval,
      condition: g.condition,
      ...g.acc.stats(),
    })),
    comparisons,
    treatment_warnings: treatment.warnings(),
    verdicts: verdicts(comparisons, stats, gradingSection),
    power_warnings: powerWarnings(comparisons, measuredRuns),
    prompts,
    ...(gradingSection ? { grading: gradingSection } : {}),
    account: account.account(),
    ...engineSplitOf(byEngine),
  };

  const {
    benchmark: benchmarkJson,
    baseline: baselinePath,
    reportMd: mdPath,
    reportHtml,
  } = campaignFiles(dir);
  const files = { benchmark: benchmarkJson, baseline: baselinePath, reportMd: mdPath, reportHtml };
  // Render and check everything before writing anything, so a failure leaves the old files whole.
  const baselineMd = renderBaseline(benchmark);
  checkMarkdown(files.baseline, baselineMd, [`# Baseline: ${benchmark.campaign}`]);
  const reportMd = renderReportMd(benchmark);
  checkMarkdown(files.reportMd, reportMd, ['## Per condition', '## Comparisons', '## Per eval']);
  const reviews = await readReviews(dir);
  // A small campaign's report shows each run's steps itself; a larger one links to the viewer.
  const embedded = await embedRuns(
    timelines.map((t, k) => ({ ...t, dir: timelineDirs[k]! })),
    total,
  );
  const html = renderHtml(benchmark, timelines, total - timelines.length, reviews, embedded);
  checkHtml(files.reportHtml, html, messageCheckNames(conditions).length);

  await writeReportFiles(dir, { benchmark, baselineMd, reportMd, reportHtml: html });

  return {
    outDir: dir,
    files,
    campaign: benchmark.campaign,
    baselineCondition: baseline,
    runs: benchmark.runs,
    conditions: benchmark.conditions,
    comparisons: benchmark.comparisons,
    ...(benchmark.account ? { account: benchmark.account } : {}),
    broken,
  };
}

/** Each condition's agent, when conditions.json names one per condition (a cross-agent campaign). */
function agentsOf(file: ConditionsFile): { agents?: Record<string, AgentIdentity> } {
  const named = file.conditions.filter((c) => c.agent !== undefined);
  if (named.length === 0) return {};
  return { agents: Object.fromEntries(named.map((c) => [c.name, c.agent!])) };
}
