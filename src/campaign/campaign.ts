import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  assertArtifact,
  verifyRunFiles,
  writeArtifact,
  type ConditionsFile,
} from '../artifacts/index.js';
import { version } from '../cli/version.js';
import { loadEvalSet, refuseBeyondEngine, type EvalSet } from '../config/index.js';
import { describeEngines, preflightEngines, shipBaseImage } from './engine-setup.js';
import { sweepQuotas } from '../environment/index.js';
import { EvalrigError, InputError } from '../errors/index.js';
import {
  BodyBudget,
  CAMPAIGN_BODY_BUDGET,
  UpstreamLimiters,
  type UpstreamLimits,
} from '../gateway/index.js';
import { CampaignBudget } from './budget.js';
import { ensureTestImage } from '../image/index.js';
import { stagingWarnings } from '../treatment/index.js';
import { CampaignGrader, describeGradeSummary, type GradeSummary } from '../judge/index.js';
import {
  bounded,
  CreationGate,
  EngineHealth,
  LABELS,
  connectDocker,
  onInterrupt,
  pingDocker,
  startReaper,
  sweepStaleScratch,
  watchEngine,
  type DockerClient,
  type EngineWatchOptions,
} from '../runtime/index.js';
import {
  EnginePool,
  LocalDockerProvider,
  connectEngine,
  enginePoolOf,
  type EngineChoice,
  type Sandbox,
  type SandboxProvider,
} from '../sandbox/index.js';
import {
  materializeCodebase,
  provenanceOf,
  resolveCodebases,
  type ResolvedCodebase,
} from '../source/index.js';
import { prepareCampaignAgent, priceCall, treatmentsOf, upstreamOf } from './agent.js';
import { preflightCommand } from './command-preflight.js';
import { ensureEvalEnvironments, ensureSetups } from './environments.js';
import { CONTAINER, conditionsFile, runLayout } from './layout.js';
import { lockCampaignFolder } from './lock.js';
import { planRuns, type PlannedRun } from './plan.js';
import { runPipeline } from './pool.js';
import { Progress } from './progress.js';
import {
  agentUserOfRuns,
  discardPreparedRun,
  playRun,
  prepareRun,
  repositoryName,
  type CampaignContext,
} from './run-one.js';

export interface CampaignOptions {
  /** Path of evals.json. */
  readonly evalSetFile: string;
  /** Campaign folder (created when missing; resumed when it holds one). */
  readonly outDir: string;
  readonly jobs?: number;
  readonly runs?: number;
  readonly only?: readonly string[];
  readonly conditions?: readonly string[];
  readonly stopAtHandOver?: boolean;
  /** Seconds per run, overriding the eval set. */
  readonly timeoutS?: number;
  readonly keepEnvironments?: boolean;
  /**
   * Runs prepared ahead of the ones playing (environment and container
   * ready). Default: `jobs`. 0 prepares each run only when it starts.
   */
  readonly prepareAhead?: number;
  /** Base image of the test image (default: EVALRIG_BASE_IMAGE, else evalrig's default). */
  readonly baseImage?: string;
  readonly cacheDir?: string;
  readonly client?: DockerClient;
  /**
   * Where the runs' sandboxes start, given the campaign's own client (its
   * health, creation gate and session labels). Default: that engine with its
   * folders mounted (LocalDockerProvider).
   */
  readonly sandboxes?: (client: DockerClient) => SandboxProvider;
  /**
   * Engines to spread the runs over (`--engine`, repeated), `jobs` on each.
   * The first is where images are built (the campaign's client); the others
   * get them shipped. Unset: the one engine of `client` (DOCKER_HOST).
   */
  readonly engines?: readonly EngineChoice[];
  /**
   * This orchestrator's scratch folder (runtime's useScratchFolder): its
   * reaper removes it when the orchestrator dies, and stale ones of dead
   * orchestrators beside it are swept at start.
   */
  readonly scratch?: string;
  /** How the engine is watched for a freeze mid-campaign (tests shorten it). */
  readonly engineWatch?: EngineWatchOptions;
  /** Where warnings and progress go (default stderr). */
  readonly log?: NodeJS.WriteStream;
  /** The campaign's budget in USD (`--max-cost`), overriding the eval set's `max_cost_usd`. */
  readonly maxCostUsd?: number;
  /** Each upstream's limits (`--max-in-flight`, `--rpm`, `--tpm`), over the eval set's. */
  readonly rateLimits?: UpstreamLimits;
}

export interface CampaignResult {
  readonly campaign: string;
  readonly outDir: string;
  readonly planned: number;
  readonly skipped: number;
  readonly played: number;
  readonly failed: number;
  readonly timedOut: number;
  /** Runs that reached one of their limits (`limits`), played now. */
  readonly limitReached: number;
  /** Runs the campaign's budget cut (replayed by a resume with a larger budget). */
  readonly budgetCut: number;
  /** What the agents' calls cost now, at list prices (USD), and the budget. */
  readonly spentUsd: number;
  readonly maxCostUsd?: number;
  /** True when a signal cut the campaign short. */
  readonly interrupted: boolean;
  /** What the judge did, when the eval set has one and expectations to grade. */
  readonly grading?: GradeSummary;
}

function newCampaignId(name: string): string {
  const stamp = new Date().toISOString().replace(/[-:]/gu, '').replace(/\..*$/u, '');
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/gu, '-')
    .replace(/^-|-$/gu, '')
    .slice(0, 40);
  return `${slug || 'campaign'}-${stamp}-${randomBytes(3).toString('hex')}`;
}

/**
 * What is already at the output folder, read without writing anything: a
 * file in its place or a garbled conditions.json is the user's to sort out,
 * named with what to do.
 */
async function existingConditions(outDir: string): Promise<ConditionsFile | undefined> {
  try {
    if (!(await stat(outDir)).isDirectory())
      throw new InputError(
        `--out ${outDir} is a file, not a folder: choose another --out or move the file away`,
      );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw folderError(outDir, error);
  }
  const file = conditionsFile(outDir);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw folderError(outDir, error);
  }
  try {
    const data = JSON.parse(text) as unknown;
    assertArtifact('conditions', data, file);
    return data as ConditionsFile;
  } catch (error) {
    const why = (error as Error).message.split('\n').slice(0, 3).join('; ');
    throw new InputError(
      `${file} is not a campaign's conditions.json (${why}): move ${outDir} away to start afresh, or choose another --out`,
    );
  }
}

const FOLDER_FAULTS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted (immutable?)',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ENOTDIR: 'a file is where a folder should be',
  EEXIST: 'a file is where a folder should be',
  EISDIR: 'a folder is where a file should be',
};

/**
 * A file-system error under the output folder, as the user's problem: the
 * folder, the cause, what to do. Anything else passes through unchanged.
 */
function folderError(outDir: string, error: unknown): unknown {
  if (error instanceof EvalrigError) return error;
  const e = error as NodeJS.ErrnoException;
  const cause = typeof e?.code === 'string' ? FOLDER_FAULTS[e.code] : undefined;
  if (!cause) return error;
  const where = typeof e.path === 'string' ? ` (${e.path})` : '';
  return new EvalrigError(
    `cannot write the campaign folder ${outDir}: ${cause}${where}; make it writable or choose another --out`,
    { cause: error },
  );
}

/**
 * sha256 of a staged path: of the file's bytes, or for a folder of every file's
 * relative path and bytes in sorted order, so a change anywhere in a staged
 * skill folder shows in conditions.json.
 */
async function stagedDigest(from: string): Promise<string> {
  const h = createHash('sha256');
  if ((await stat(from)).isFile()) {
    h.update(await readFile(from));
    return h.digest('hex');
  }
  const entries = await readdir(from, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(from, path.join(e.parentPath ?? e.path, e.name)))
    .sort();
  for (const rel of files) {
    h.update(`${rel}\0`);
    h.update(await readFile(path.join(from, rel)));
    h.update('\0');
  }
  return h.digest('hex');
}

/**
 * A run is finished when its files are whole (run.json and its stops match
 * their schemas and digests) and it did not fail for the harness. A run whose
 * files are broken is replayed, and said so.
 */
async function isFinished(
  outDir: string,
  planned: PlannedRun,
  log: NodeJS.WritableStream,
): Promise<boolean> {
  const layout = runLayout(outDir, planned.key);
  try {
    await stat(layout.runJson);
  } catch {
    return false;
  }
  const checked = await verifyRunFiles(layout.dir);
  if (checked.problem !== undefined) {
    log.write(`evalrig: ${planned.key}: its files are broken (${checked.problem}); replaying it\n`);
    return false;
  }
  const { status, limit } = checked.record;
  // A run cut by the campaign's budget is not finished: a resume (with more budget) plays it.
  if (status === 'limit_reached') return limit !== 'campaign_cost';
  return status === 'completed' || status === 'timed_out';
}

/**
 * Removes the campaign's sandboxes until a listing finds none: a container
 * whose removal another call already started (409) is still listed until
 * that removal ends, and must not be counted gone before.
 */
async function removeAll(sandboxes: SandboxProvider, campaign: string): Promise<void> {
  while ((await sandboxes.reap({ [LABELS.campaign]: campaign })) > 0)
    await new Promise((resolve) => setTimeout(resolve, 100));
}

/** Waits for `work` until `deadline` (epoch ms): true when it succeeded in time. */
async function until(work: Promise<unknown>, deadline: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
  });
  const done = work.then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([done, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The campaign's budget and its limiters per upstream: flags over the eval set. */
function spendingOf(
  evalSet: EvalSet,
  options: CampaignOptions,
): { budget: CampaignBudget; limiters: UpstreamLimiters } {
  const max = options.maxCostUsd ?? evalSet.max_cost_usd;
  if (max !== undefined && !(Number.isFinite(max) && max > 0))
    throw new InputError(`--max-cost must be a number of USD above 0, got ${max}`);
  const r = evalSet.rate_limits;
  const limits: UpstreamLimits = {
    maxInFlight: options.rateLimits?.maxInFlight ?? r.max_in_flight,
    requestsPerMinute: options.rateLimits?.requestsPerMinute ?? r.requests_per_minute,
    tokensPerMinute: options.rateLimits?.tokensPerMinute ?? r.tokens_per_minute,
  };
  for (const [flag, v] of Object.entries(limits)) {
    if (v !== undefined && !(Number.isInteger(v) && v >= 1))
      throw new InputError(`the upstream limit ${flag} must be a whole number >= 1, got ${v}`);
  }
  return { budget: new CampaignBudget(max), limiters: new UpstreamLimiters(limits) };
}

/**
 * From an eval set to a folder of recorded runs: validate, resolve codebases,
 * make sure the image exists, then play every (eval, condition, run) in a pool
 * of `jobs`. Finished runs of an earlier campaign in the same folder are
 * skipped; unfinished ones are redone.
 */
export async function runCampaign(options: CampaignOptions): Promise<CampaignResult> {
  const outDir = path.resolve(options.outDir);
  try {
    return await campaignIn(outDir, options);
  } catch (error) {
    throw folderError(outDir, error);
  }
}

async function campaignIn(outDir: string, options: CampaignOptions): Promise<CampaignResult> {
  const log = options.log ?? process.stderr;
  const evalSet: EvalSet = await loadEvalSet(options.evalSetFile);
  const planned = planRuns(evalSet, {
    only: options.only,
    conditions: options.conditions,
    runs: options.runs,
  });
  // A real API's key is read now: an unset variable refuses the campaign before anything exists.
  upstreamOf(evalSet, planned);
  // What each condition stages, to be seen reaching the model; said first when it cannot.
  for (const w of await stagingWarnings(evalSet)) {
    log.write(`evalrig: warning: ${evalSet.file}#${w.pointer}: ${w.message}\n`);
  }
  const treatments = await treatmentsOf(evalSet);
  const { budget, limiters } = spendingOf(evalSet, options);
  const jobs = options.jobs ?? 1;
  if (!Number.isInteger(jobs) || jobs < 1)
    throw new InputError(`--jobs must be a whole number >= 1, got ${jobs}`);
  const previous = await existingConditions(outDir);

  // Resolve every codebase before anything is built: a bad source fails the whole command.
  const withCodebase = evalSet.evals.filter(
    (e) => e.codebase && planned.some((p) => p.eval.id === e.id),
  );
  const resolvedList = await resolveCodebases(
    withCodebase.map((e) => ({ source: e.codebase!.source, baseDir: e.codebase!.baseDir })),
    { cacheDir: options.cacheDir },
  );
  const warned = new Set<string>();
  for (const r of resolvedList) {
    for (const w of r.warnings) {
      if (!warned.has(w)) log.write(`evalrig: warning: ${w}\n`);
      warned.add(w);
    }
  }

  const first = options.engines?.[0];
  const base = options.client ?? (first ? connectEngine(first.address) : connectDocker());
  await pingDocker(base);
  // This campaign's own view of the engine: its health, its gate on creations,
  // and the session label its reaper removes by.
  const session = randomBytes(8).toString('hex');
  const gate = new CreationGate();
  const health = new EngineHealth();
  const client: DockerClient = {
    ...base,
    health,
    gate,
    labels: { ...base.labels, [LABELS.session]: session },
  };
  // Today's one engine, its folders mounted: where every run's sandbox starts.
  // Several engines, or one that cannot see the host's disk: a pool over them, `jobs` runs on each.
  const engines = options.engines ?? [];
  const spread = engines.length > 1 || (engines.length === 1 && !engines[0]!.mounts);
  const sandboxes =
    options.sandboxes?.(client) ??
    (spread
      ? enginePoolOf(client, engines, jobs, options.engineWatch)
      : new LocalDockerProvider(client));
  const slots = sandboxes instanceof EnginePool ? sandboxes.slots : jobs;
  // Who each engine is. Resources an engine cannot give fail every run at it: refuse before anything is created.
  const described = await describeEngines(sandboxes, options.evalSetFile, evalSet);
  if (described.length === 0)
    await refuseBeyondEngine(options.evalSetFile, evalSet, () => client.docker.info());

  if (previous && previous.eval_set.sha256 !== evalSet.sha256) {
    throw new InputError(
      `${outDir} holds a campaign of another eval set (${previous.eval_set.path}, sha256 ${previous.eval_set.sha256.slice(0, 12)}); choose another --out or remove it`,
    );
  }
  await mkdir(outDir, { recursive: true });
  const release = await lockCampaignFolder(outDir);
  const live = new Set<Sandbox>();
  let interrupted = false;
  let campaign = previous?.campaign ?? newCampaignId(evalSet.name);
  // Started before the first container: whatever ends this process, they go.
  const reaper = startReaper(
    client,
    { [LABELS.session]: session },
    { scratch: options.scratch, mounts: path.join(outDir, 'work') },
  );
  // The other engines' containers too, where the reaper can reach them (sockets, tcp://, TLS; not ssh://).
  const otherReapers =
    sandboxes instanceof EnginePool
      ? sandboxes
          .clients()
          .slice(1)
          .filter((c) => c.endpoint)
          .map((c) => startReaper(c, { [LABELS.session]: session }))
      : [];
  if (options.scratch) sweepStaleScratch(path.dirname(options.scratch));
  const stopWatch = watchEngine(client, options.engineWatch);

  const unregister = onInterrupt(async (signal, deadline) => {
    interrupted = true;
    gate.close();
    log.write(`\nevalrig: ${signal}: removing this campaign's containers\n`);
    // Creations in flight land first, so the removal by label sees them.
    await until(gate.settled(), deadline - 1500);
    const removed = await until(removeAll(sandboxes, campaign), deadline - 300);
    if (!removed) {
      log.write(
        `evalrig: the Docker engine at ${client.where} did not answer: containers labelled ${LABELS.campaign}=${campaign} may remain; evalrig's reaper keeps removing them for a minute, else: docker rm -f $(docker ps -aq --filter label=${LABELS.campaign}=${campaign})\n`,
      );
    }
    // Quotas of the runs in flight: unmounted before exit (a killed orchestrator's, at the next start).
    await until(sweepQuotas(path.join(outDir, 'work')), deadline - 200);
    await until(release(), deadline);
  });
  try {
    // The judge is made ready (its key read, its script checked) before anything runs.
    const grader = await CampaignGrader.prepare(evalSet, {
      campaign,
      outDir,
      log,
      // The judge shares its upstream's limiter with the runs, and spends from the same budget.
      gateway: (source) => {
        const limiter = limiters.for(source);
        return {
          ...(limiter ? { limiter } : {}),
          onCall: (call) => void budget.spendCall(call, 'judge', priceCall),
        };
      },
    });
    // A campaign that died left its runs' quotas mounted: unmount them first.
    await sweepQuotas(path.join(outDir, 'work'));
    // A campaign that died left containers behind: find them by label.
    const leftovers = await sandboxes.reap({ [LABELS.campaign]: campaign });
    if (leftovers > 0)
      log.write(
        `evalrig: removed ${leftovers} container(s) left by an earlier run of this campaign\n`,
      );

    // An engine named first may lack the base image another engine (or the machine's) has.
    if (options.engines?.length) {
      const others = sandboxes instanceof EnginePool ? sandboxes.clients().slice(1) : [];
      await shipBaseImage(client, others, options.baseImage, log);
    }
    // A build may take minutes: no time bound, but an engine lost meanwhile ends the wait.
    const image = await bounded(
      client,
      'the test image check',
      () =>
        ensureTestImage(client, {
          baseImage: options.baseImage,
          onProgress: (line) => log.write(`image: ${line}\n`),
        }),
      Infinity,
    );
    if (image.built) log.write(`evalrig: built test image ${image.tag}\n`);
    if (previous && previous.image.id !== image.id) {
      // Each run.json keeps the image it ran in; say that the campaign now mixes two.
      log.write(
        `evalrig: warning: runs finished earlier in ${outDir} used image ${previous.image.tag}; the runs played now use ${image.tag} (each run.json records its own)\n`,
      );
    }

    // The evals that name an environment get its image (evalrig's layers over it).
    const plannedEvals = evalSet.evals.filter((e) => planned.some((p) => p.eval.id === e.id));
    const environments = await ensureEvalEnvironments(client, evalSet, plannedEvals, {
      baseImage: options.baseImage,
      log,
    });

    // Every image a run starts from must be runnable where it runs (locally: there, the same id).
    const runImages = new Map([image, ...environments.images.values()].map((i) => [i.tag, i.id]));
    for (const [tag, id] of runImages) await sandboxes.ensureImage({ tag, id });
    // A locked-down container on every engine, while the agent and setups get ready; awaited before any run.
    const preflight = preflightEngines(sandboxes, {
      image: image.tag,
      evalSet,
      labels: { [LABELS.campaign]: campaign },
      log,
    });
    preflight.catch(() => undefined);

    const codebases = new Map<string, { resolved: ResolvedCodebase; cachePath: string }>();
    const byCommit = new Map<string, Promise<string>>();
    await Promise.all(
      withCodebase.map(async (e, i) => {
        const resolved = resolvedList[i] as ResolvedCodebase;
        let cached = byCommit.get(resolved.commit);
        if (!cached) {
          cached = materializeCodebase(resolved, {
            cacheDir: options.cacheDir,
            onWarning: (w) => log.write(`evalrig: warning: ${w}\n`),
          });
          byCommit.set(resolved.commit, cached);
        }
        codebases.set(e.id, { resolved, cachePath: await cached });
      }),
    );

    // An adapter agent is installed and must answer in every image before anything is played.
    const agent = await prepareCampaignAgent({
      client,
      evalSet,
      planned,
      images: [image.tag, ...[...environments.images.values()].map((i) => i.tag)],
      campaign,
      log,
    });
    // A command agent's program must exist in every image its runs start it in.
    if (!agent) {
      await preflightCommand({
        sandboxes,
        evalSet,
        planned,
        imageOf: (p) => environments.images.get(p.eval.id)?.tag ?? image.tag,
        user: agentUserOfRuns(),
        campaign,
      });
    }

    // Setup commands run once per (commit, image), before any run; every run reuses their output.
    const setups = await ensureSetups({
      client,
      evalSet,
      evals: plannedEvals,
      images: environments.images,
      codebases,
      containerWorkTree: (e) =>
        path.posix.join(CONTAINER.workRoot, repositoryName(evalSet, codebases.get(e.id)?.resolved)),
      cacheDir: options.cacheDir,
      campaign,
      log,
    });

    const engineRecords = await preflight;
    const conditions: ConditionsFile = {
      schema: 'evalrig/conditions@1',
      campaign,
      eval_set: { name: evalSet.name, path: evalSet.file, sha256: evalSet.sha256 },
      baseline_condition: evalSet.baseline_condition,
      conditions: await Promise.all(
        evalSet.conditions.map(async (c) => ({
          name: c.name,
          ...(c.description === undefined ? {} : { description: c.description }),
          stage: await Promise.all(
            c.stage.map(async (s) => ({
              from: path.relative(evalSet.dir, s.from),
              to: s.to,
              sha256: await stagedDigest(s.from),
            })),
          ),
          env: Object.keys(c.env).sort(),
          agent_args: [...c.agent_args],
        })),
      ),
      evals: evalSet.evals.map((e) => {
        const cb = codebases.get(e.id);
        return {
          id: e.id,
          runs: options.runs ?? e.runs,
          turns: 1 + e.turns.length,
          ...(cb ? { codebase: provenanceOf(cb.resolved) } : {}),
          prompt: e.prompt,
          messages: e.turns.map((t) => ({ message: t.message, phase: t.phase })),
          ...(e.expectations.length > 0 ? { expectations: e.expectations } : {}),
          message_checks: e.message_checks.map((c) => c.name),
        };
      }),
      image: environments.record({ tag: image.tag, id: image.id }),
      ...(engineRecords.size > 0 ? { engines: [...engineRecords.values()] } : {}),
      stand_in_sha256: image.standInSha256,
      ...(agent ? { agent: agent.identity } : {}),
      evalrig_version: version,
      created_at: previous?.created_at ?? new Date().toISOString(),
      options: {
        jobs,
        stop_at_hand_over: Boolean(options.stopAtHandOver),
        ...(options.only ? { only: [...options.only] } : {}),
        ...(options.conditions ? { conditions: [...options.conditions] } : {}),
      },
    };
    await writeArtifact('conditions', conditionsFile(outDir), conditions);
    campaign = conditions.campaign;

    const todo: PlannedRun[] = [];
    for (const p of planned) if (!(await isFinished(outDir, p, log))) todo.push(p);
    const progress = new Progress(todo.length, planned.length - todo.length, log);
    progress.start();

    const ctx: CampaignContext = {
      campaign,
      outDir,
      evalSet,
      sandboxes,
      image: { tag: image.tag, id: image.id },
      images: environments.images,
      setups,
      codebases,
      stopAtHandOver: Boolean(options.stopAtHandOver),
      timeoutS: options.timeoutS,
      keepEnvironments: Boolean(options.keepEnvironments),
      maxOutputBytes: 1024 * 1024,
      maxPatchBytes: 1024 * 1024,
      ...(agent ? { agent, modelBudget: new BodyBudget(CAMPAIGN_BODY_BUDGET), treatments } : {}),
      engines: engineRecords,
      budget,
      limiters,
      live,
      removals: [],
      cut: () => interrupted,
    };
    let failed = 0;
    let timedOut = 0;
    let limitReached = 0;
    let budgetCut = 0;
    let played = 0;
    const lostInFlight: string[] = [];
    await runPipeline(
      todo,
      slots,
      {
        prepare: (p) => prepareRun(ctx, p),
        play: async (prepared) => {
          const outcome = await playRun(ctx, prepared);
          if (interrupted) return;
          if (health.lost && outcome.status === 'failed') {
            lostInFlight.push(prepared.planned.key);
            return;
          }
          played++;
          // Graded off the run's critical path; the sweep below awaits it (and reports a failure).
          if (grader && outcome.status !== 'failed') {
            const p = prepared.planned;
            grader.gradeRun(p.eval.id, p.condition.name, p.run).catch(() => undefined);
          }
          if (outcome.status === 'failed') failed++;
          if (outcome.status === 'timed_out') timedOut++;
          if (outcome.record.limit === 'campaign_cost') budgetCut++;
          else if (outcome.status === 'limit_reached') limitReached++;
          const r = outcome.record;
          const detail = r.error ? `failed: ${r.error}` : r.status;
          progress.finished(
            prepared.planned.key,
            detail,
            r.duration_ms / 1000,
            r.status === 'failed',
          );
        },
        discard: (prepared) => discardPreparedRun(ctx, prepared),
      },
      () => interrupted || health.lost !== undefined,
      options.prepareAhead ?? slots,
    );
    await Promise.all(ctx.removals);
    progress.end();
    if (health.lost) {
      const notStarted = todo.length - played - lostInFlight.length;
      throw new EvalrigError(
        `${health.lost.message}: the campaign stopped; ${lostInFlight.length} run(s) in flight recorded as failed by the engine (${lostInFlight.join(', ') || 'none'}), ${notStarted} not started; run the same command again once the engine answers to finish them`,
        { exitCode: 1, cause: health.lost },
      );
    }
    // Every finished run is graded (the ones played now, earlier ones without a good grading),
    // then the blind comparisons: unchanged answers come from their files, no call.
    let grading: GradeSummary | undefined;
    if (grader && !interrupted) {
      grading = await grader.sweep();
      log.write(`evalrig: ${describeGradeSummary(grading)}\n`);
    }
    return {
      campaign,
      outDir,
      planned: planned.length,
      skipped: planned.length - todo.length,
      played,
      failed,
      timedOut,
      limitReached,
      budgetCut,
      spentUsd: budget.spent(),
      ...(budget.maxUsd === undefined ? {} : { maxCostUsd: budget.maxUsd }),
      interrupted,
      ...(grading ? { grading } : {}),
    };
  } finally {
    stopWatch();
    if (interrupted) {
      // The signal's clean-up owns the exit; nothing more happens here.
      await new Promise<never>(() => {});
    }
    unregister();
    await Promise.all([...live].map((c) => c.remove().catch(() => undefined)));
    await release();
    reaper.release();
    for (const r of otherReapers) r.release();
  }
}
