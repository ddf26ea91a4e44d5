import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  readArtifact,
  writeArtifact,
  type ConditionsFile,
  type RunRecord,
} from '../artifacts/index.js';
import { version } from '../cli/version.js';
import { loadEvalSet, refuseBeyondEngine, type EvalSet } from '../config/index.js';
import { InputError } from '../errors/index.js';
import { sweepQuotas } from '../environment/index.js';
import { ensureTestImage } from '../image/index.js';
import {
  LABELS,
  connectDocker,
  pingDocker,
  removeContainers,
  type DockerClient,
  type RunContainer,
} from '../runtime/index.js';
import {
  materializeCodebase,
  provenanceOf,
  resolveCodebases,
  type ResolvedCodebase,
} from '../source/index.js';
import { ensureEvalEnvironments, ensureSetups } from './environments.js';
import { CONTAINER, conditionsFile, runLayout } from './layout.js';
import { lockCampaignFolder } from './lock.js';
import { planRuns, type PlannedRun } from './plan.js';
import { runPipeline } from './pool.js';
import { Progress } from './progress.js';
import {
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
  /** Where warnings and progress go (default stderr). */
  readonly log?: NodeJS.WriteStream;
}

export interface CampaignResult {
  readonly campaign: string;
  readonly outDir: string;
  readonly planned: number;
  readonly skipped: number;
  readonly played: number;
  readonly failed: number;
  readonly timedOut: number;
  /** True when a signal cut the campaign short. */
  readonly interrupted: boolean;
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

async function existingConditions(outDir: string): Promise<ConditionsFile | undefined> {
  try {
    await stat(conditionsFile(outDir));
  } catch {
    return undefined;
  }
  return readArtifact<ConditionsFile>('conditions', conditionsFile(outDir));
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

/** A run is finished when its run.json exists and it did not fail for the harness. */
async function isFinished(outDir: string, planned: PlannedRun): Promise<boolean> {
  try {
    const record = JSON.parse(
      await readFile(runLayout(outDir, planned.key).runJson, 'utf8'),
    ) as RunRecord;
    return record.status === 'completed' || record.status === 'timed_out';
  } catch {
    return false;
  }
}

/**
 * From an eval set to a folder of recorded runs: validate, resolve codebases,
 * make sure the image exists, then play every (eval, condition, run) in a pool
 * of `jobs`. Finished runs of an earlier campaign in the same folder are
 * skipped; unfinished ones are redone.
 */
export async function runCampaign(options: CampaignOptions): Promise<CampaignResult> {
  const log = options.log ?? process.stderr;
  const evalSet: EvalSet = await loadEvalSet(options.evalSetFile);
  const planned = planRuns(evalSet, {
    only: options.only,
    conditions: options.conditions,
    runs: options.runs,
  });
  const jobs = options.jobs ?? 1;
  if (!Number.isInteger(jobs) || jobs < 1)
    throw new InputError(`--jobs must be a whole number >= 1, got ${jobs}`);
  const outDir = path.resolve(options.outDir);

  // Resolve every codebase before anything is built: a bad source fails the whole command.
  const withCodebase = evalSet.evals.filter(
    (e) => e.codebase && planned.some((p) => p.eval.id === e.id),
  );
  const resolvedList = await resolveCodebases(
    withCodebase.map((e) => ({ source: e.codebase!.source, baseDir: e.codebase!.baseDir })),
  );
  const warned = new Set<string>();
  for (const r of resolvedList) {
    for (const w of r.warnings) {
      if (!warned.has(w)) log.write(`evalrig: warning: ${w}\n`);
      warned.add(w);
    }
  }

  const client = options.client ?? connectDocker();
  await pingDocker(client);
  // Resources this engine cannot give fail every run at it: refuse before anything is created.
  await refuseBeyondEngine(options.evalSetFile, evalSet, () => client.docker.info());

  const previous = await existingConditions(outDir);
  if (previous && previous.eval_set.sha256 !== evalSet.sha256) {
    throw new InputError(
      `${outDir} holds a campaign of another eval set (${previous.eval_set.path}, sha256 ${previous.eval_set.sha256.slice(0, 12)}); choose another --out or remove it`,
    );
  }
  await mkdir(outDir, { recursive: true });
  const release = await lockCampaignFolder(outDir);
  const live = new Set<RunContainer>();
  let interrupted = false;
  let campaign = previous?.campaign ?? newCampaignId(evalSet.name);

  const onSignal = (signal: NodeJS.Signals): void => {
    if (interrupted) return;
    interrupted = true;
    log.write(`\nevalrig: ${signal}: removing this campaign's containers\n`);
    void removeContainers(client, { [LABELS.campaign]: campaign })
      .catch(() => undefined)
      .then(() => sweepQuotas(path.join(outDir, 'work')))
      .catch(() => undefined)
      .finally(async () => {
        await release().catch(() => undefined);
        process.exit(signal === 'SIGINT' ? 130 : 143);
      });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);

  try {
    // A campaign that died left its runs' quotas mounted: unmount them first.
    await sweepQuotas(path.join(outDir, 'work'));
    // A campaign that died left containers behind: find them by label.
    const leftovers = await removeContainers(client, { [LABELS.campaign]: campaign });
    if (leftovers > 0)
      log.write(
        `evalrig: removed ${leftovers} container(s) left by an earlier run of this campaign\n`,
      );

    const image = await ensureTestImage(client, {
      baseImage: options.baseImage,
      onProgress: (line) => log.write(`image: ${line}\n`),
    });
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

    const codebases = new Map<string, { resolved: ResolvedCodebase; cachePath: string }>();
    const byCommit = new Map<string, Promise<string>>();
    await Promise.all(
      withCodebase.map(async (e, i) => {
        const resolved = resolvedList[i] as ResolvedCodebase;
        let cached = byCommit.get(resolved.commit);
        if (!cached) {
          cached = materializeCodebase(resolved, { cacheDir: options.cacheDir });
          byCommit.set(resolved.commit, cached);
        }
        codebases.set(e.id, { resolved, cachePath: await cached });
      }),
    );

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
        };
      }),
      image: environments.record({ tag: image.tag, id: image.id }),
      stand_in_sha256: image.standInSha256,
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
    for (const p of planned) if (!(await isFinished(outDir, p))) todo.push(p);
    const progress = new Progress(todo.length, planned.length - todo.length, log);
    progress.start();

    const ctx: CampaignContext = {
      campaign,
      outDir,
      evalSet,
      client,
      image: { tag: image.tag, id: image.id },
      images: environments.images,
      setups,
      codebases,
      stopAtHandOver: Boolean(options.stopAtHandOver),
      timeoutS: options.timeoutS,
      keepEnvironments: Boolean(options.keepEnvironments),
      maxOutputBytes: 1024 * 1024,
      maxPatchBytes: 1024 * 1024,
      live,
      removals: [],
    };
    let failed = 0;
    let timedOut = 0;
    let played = 0;
    await runPipeline(
      todo,
      jobs,
      {
        prepare: (p) => prepareRun(ctx, p),
        play: async (prepared) => {
          const outcome = await playRun(ctx, prepared);
          if (interrupted) return;
          played++;
          if (outcome.status === 'failed') failed++;
          if (outcome.status === 'timed_out') timedOut++;
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
      () => interrupted,
      options.prepareAhead ?? jobs,
    );
    await Promise.all(ctx.removals);
    progress.end();
    return {
      campaign,
      outDir,
      planned: planned.length,
      skipped: planned.length - todo.length,
      played,
      failed,
      timedOut,
      interrupted,
    };
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (!interrupted) {
      await Promise.all([...live].map((c) => c.remove().catch(() => undefined)));
      await release();
    }
  }
}
