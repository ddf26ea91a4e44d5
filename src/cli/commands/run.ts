import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { runCampaign, type CampaignOptions } from '../../campaign/index.js';
import { campaignFiles } from '../../campaign-folder/index.js';
import { InputError } from '../../errors/index.js';
import { gradingErrors } from '../../judge/index.js';
import { accountLines, formatSummaryTable, writeReport } from '../../report/index.js';
import { useScratchFolder } from '../../runtime/index.js';
import { engineAddress, type EngineChoice } from '../../sandbox/index.js';
import { imageRegistryFlag, imageRegistryFor } from './image-registry.js';
import { openView, portNumber } from './view.js';

function positiveInt(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1)
      throw new InputError(`${flag} must be a whole number >= 1, got "${value}"`);
    return n;
  };
}

function list(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ];
}

interface RunFlags {
  out?: string;
  jobs: number;
  runs?: number;
  only?: string[];
  condition?: string[];
  stopAtHandOver?: boolean;
  allowUnloaded?: boolean;
  timeout?: number;
  keepEnvs?: boolean;
  base?: string;
  report: boolean;
  engine?: string[];
  engineMounts?: string[];
  imageRegistry?: string;
  failOnGradingErrors?: boolean;
  view?: boolean;
  viewPort?: number;
  maxCost?: number;
  maxInFlight?: number;
  rpm?: number;
  tpm?: number;
  reuse?: string[];
  untilDecided?: boolean;
  maxRuns?: number;
}

function usd(flag: string) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+(\.\d+)?$/u.test(value.trim()) || !(n > 0))
      throw new InputError(
        `${flag} must be an amount of USD above 0, e.g. 25 or 2.5, got "${value}"`,
      );
    return n;
  };
}

function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/**
 * The engines of `--engine` (in order: images are built on the first), each
 * marked as seeing the host's disk when it is the local engine or is named by
 * `--engine-mounts` too.
 */
export function engineChoices(
  flags: Pick<RunFlags, 'engine' | 'engineMounts'>,
): EngineChoice[] | undefined {
  if (!flags.engine?.length) {
    if (flags.engineMounts?.length)
      throw new InputError('--engine-mounts names engines of --engine');
    return undefined;
  }
  const mounts = new Set(flags.engineMounts ?? []);
  for (const m of mounts) {
    if (!flags.engine.includes(m)) {
      throw new InputError(
        `--engine-mounts ${JSON.stringify(m)} is not one of the --engine values`,
      );
    }
  }
  return flags.engine.map((spec) => {
    const address = engineAddress(spec);
    return { address, mounts: address.local || mounts.has(spec) };
  });
}

/** The engines and, for a cluster, the registry its images are pushed to. */
function engineFlags(flags: RunFlags): Pick<CampaignOptions, 'engines' | 'imageRegistry'> {
  const engines = engineChoices(flags);
  const imageRegistry = imageRegistryFor(engines, flags.imageRegistry);
  return { engines, ...(imageRegistry ? { imageRegistry } : {}) };
}

export function registerRun(program: Command): void {
  const command = program
    .command('run')
    .description('play every (eval, condition, run) of an eval set and record what the agent did')
    .argument('<evals.json>', 'the eval set');
  addRunOptions(command).action(runAction);
}

/** The flags of `evalrig run`, with their parsers and defaults. */
function addRunOptions(command: Command): Command {
  return command
    .option('--out <dir>', 'campaign folder (default: evalrig-out/<eval set name>)')
    .option('--jobs <n>', 'runs at once', positiveInt('--jobs'), 1)
    .option(
      '--runs <n>',
      'runs per (eval, condition), overriding the eval set',
      positiveInt('--runs'),
    )
    .option('--only <ids>', 'only these eval ids (comma-separated)', list)
    .option('--condition <names>', 'only these conditions (comma-separated)', list)
    .option('--stop-at-hand-over', 'end each run at its first hand-over stop')
    .option(
      '--allow-unloaded',
      'play conditions that stage paths their agent does not load (refused otherwise: they compare nothing)',
    )
    .option(
      '--timeout <seconds>',
      'seconds per run, overriding the eval set',
      positiveInt('--timeout'),
    )
    .option('--keep-envs', 'keep every workspace (work tree + origin) under <out>/work')
    .option('--base <image>', 'base image of the test image (default: EVALRIG_BASE_IMAGE)')
    .option('--no-report', 'do not write the report at the end')
    .option(
      '--engine <address>',
      'a Docker engine to run on (unix://, tcp://, ssh://user@host or a context name); repeat to spread runs over several, --jobs on each',
      collect,
    )
    .option(
      '--engine-mounts <address>',
      'an --engine that sees the host paths (bind mounts); any other but the local socket gets archives',
      collect,
    )
    .option(
      '--image-registry <host:port>',
      'with a Kubernetes --engine: the registry its nodes pull from; images are built on the local Docker engine and pushed there',
      imageRegistryFlag,
    )
    .option(
      '--max-cost <usd>',
      "the campaign's budget (agents and judge, list prices): no run or turn starts past it; a resume with more plays the rest",
      usd('--max-cost'),
    )
    .option(
      '--max-in-flight <n>',
      'model calls forwarded at once to each upstream API, all runs together',
      positiveInt('--max-in-flight'),
    )
    .option('--rpm <n>', 'model calls per minute to each upstream API', positiveInt('--rpm'))
    .option('--tpm <n>', 'tokens per minute to each upstream API', positiveInt('--tpm'))
    .option(
      '--fail-on-grading-errors',
      "exit 1 when a run's grading or a blind comparison errored (runs that failed exit 1 anyway)",
    )
    .option(
      '--reuse <folder>',
      "an earlier campaign's folder: a finished run there whose every input is identical (its fingerprint) is copied, not played; repeat for several (the first match wins)",
      collect,
    )
    .option(
      '--until-decided',
      "play in rounds (one run per (eval, condition) each) until a sequential test of the eval set's primary_measure decides: significant, futile, or --max-runs reached",
    )
    .option(
      '--max-runs <n>',
      "with --until-decided: at most this many runs per (eval, condition) (default: the eval set's runs)",
      positiveInt('--max-runs'),
    )
    .option('--view', 'serve the campaign folder on 127.0.0.1 while it plays (see evalrig view)')
    .option('--view-port <n>', 'the port of --view (default: one the system picks)', portNumber);
}

/** Plays the campaign, prints what happened, writes the report, and sets the exit code. */
async function runAction(file: string, flags: RunFlags): Promise<void> {
  const outDir =
    flags.out ?? path.join('evalrig-out', path.basename(path.dirname(path.resolve(file))));
  if (flags.view) {
    await mkdir(outDir, { recursive: true });
    await openView(outDir, flags.viewPort);
  }
  const runs = runsOf(flags);
  const result = await playCampaign(file, outDir, { ...flags, runs });
  if (result.nothingLeft) {
    // One line: the budget's state was said on start; exit as a budget stop does.
    process.stderr.write(
      `evalrig: nothing played: the budget of ${result.maxCostUsd} USD is spent (${result.spentBeforeUsd.toFixed(2)} USD by earlier commands at list prices); give a larger --max-cost to go on\n`,
    );
    return;
  }
  printCounts(result);
  if (flags.report) {
    const summary = await writeReport(result.outDir);
    process.stdout.write(`${formatSummaryTable(summary)}\n`);
    if (summary.account) process.stdout.write(`${accountLines(summary.account).join('\n')}\n`);
    process.stdout.write(`report: ${campaignFiles(result.outDir).reportHtml}\n`);
  } else {
    process.stdout.write(`runs: ${campaignFiles(result.outDir).runs}\n`);
  }
  if (result.failed > 0) process.exitCode = 1;
  const errored = gradingErrors(result.grading);
  if (errored && flags.failOnGradingErrors) {
    process.stderr.write(`evalrig: ${errored}: exit 1 (--fail-on-grading-errors)\n`);
    process.exitCode = 1;
  }
  if (flags.view) {
    process.stderr.write('evalrig view: the campaign is done; still served until Ctrl-C\n');
    await new Promise<never>(() => undefined);
  }
}

/** The runs per (eval, condition): --runs, or with --until-decided the maximum --max-runs. */
export function runsOf(
  flags: Pick<RunFlags, 'runs' | 'maxRuns' | 'untilDecided'>,
): number | undefined {
  if (flags.maxRuns !== undefined && !flags.untilDecided)
    throw new InputError(
      '--max-runs is the most --until-decided may play: give --until-decided too, or --runs for a fixed number',
    );
  if (flags.untilDecided && flags.runs !== undefined)
    throw new InputError(
      '--runs and --until-decided conflict: --until-decided stops when its test decides; give its maximum with --max-runs',
    );
  return flags.untilDecided ? flags.maxRuns : flags.runs;
}

type CampaignResult = Awaited<ReturnType<typeof runCampaign>>;

/** Runs the campaign with the flags' settings, in a scratch folder removed afterwards. */
async function playCampaign(
  file: string,
  outDir: string,
  flags: RunFlags,
): Promise<CampaignResult> {
  // Temporary folders of this run go in one scratch folder its reaper removes if it dies.
  const scratch = useScratchFolder();
  return runCampaign({
    scratch,
    evalSetFile: file,
    outDir,
    jobs: flags.jobs,
    runs: flags.runs,
    only: flags.only,
    conditions: flags.condition,
    stopAtHandOver: flags.stopAtHandOver,
    allowUnloaded: flags.allowUnloaded,
    timeoutS: flags.timeout,
    keepWorkspaces: flags.keepEnvs,
    baseImage: flags.base,
    ...engineFlags(flags),
    ...(flags.maxCost === undefined ? {} : { maxCostUsd: flags.maxCost }),
    rateLimits: {
      maxInFlight: flags.maxInFlight,
      requestsPerMinute: flags.rpm,
      tokensPerMinute: flags.tpm,
    },
    ...(flags.reuse ? { reuse: flags.reuse } : {}),
    ...(flags.untilDecided ? { untilDecided: true } : {}),
  }).finally(() => rm(scratch, { recursive: true, force: true }));
}

/**
 * Who had control of the failed runs, when any failed: the harness's are played again by the
 * same command, the others count against their condition.
 */
function failedByWords(result: CampaignResult): string {
  const by = result.failedBy;
  if (!by || result.failed === 0) return '';
  const words = [
    by.harness > 0 ? `${by.harness} by the harness, replayed on resume` : '',
    by.model_api > 0 ? `${by.model_api} by the model API, counted` : '',
    by.agent > 0 ? `${by.agent} while the agent had control, counted` : '',
  ].filter((w) => w !== '');
  return words.length > 0 ? ` (${words.join('; ')})` : '';
}

/** The campaign's counts on stderr, and what the budget cut, if anything. */
function printCounts(result: CampaignResult): void {
  const reused = result.reused > 0 ? `${result.reused} reused (unchanged), ` : '';
  const counts = `${result.played} played, ${reused}${result.skipped} skipped (already finished), ${result.failed} failed${failedByWords(result)}, ${result.timedOut} timed out`;
  const limited = result.limitReached > 0 ? `, ${result.limitReached} reached a limit` : '';
  const notPlayed = result.sequential?.notPlayed
    ? `, ${result.sequential.notPlayed} not played (decided)`
    : '';
  const again = result.retried
    ? `, ${result.retried} played once more after a harness failure`
    : '';
  process.stderr.write(
    `evalrig: campaign ${result.campaign}: ${counts}${limited}${notPlayed}${again}\n`,
  );
  if (result.budgetCut > 0) {
    process.stderr.write(
      `evalrig: the budget of ${result.maxCostUsd} USD is spent (${(result.spentBeforeUsd + result.spentUsd).toFixed(2)} USD by the campaign at list prices, ${result.spentUsd.toFixed(2)} by this command): ${result.budgetCut} run(s) cut; run the same command with a larger --max-cost to play them\n`,
    );
  }
}
