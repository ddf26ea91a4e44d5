/**
 * The `prepare` phase of a run: its folders, workspace (checkout, overlay,
 * staged paths, baseline, origin, seeded pull requests), seal, gh recorder and
 * model gateway, handed to the sandbox's user.
 */
import { chmod, lstat, mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic, type GhPullRequest } from '../../artifacts/index.js';
import { ghRecordDir } from '../../collect/index.js';
import {
  canMountQuota,
  handOverTrees,
  mountQuota,
  prepareWorkspace,
  refreshSeal,
  sealWorkspace,
  type Workspace,
} from '../../workspace/index.js';
import { placeSetupOutput } from '../../image/index.js';
import { startGhRecorder, type GhRecorder } from '../../recorder/index.js';
import { campaignFiles, flightFiles } from '../../campaign-folder/index.js';
import { needlesOf } from '../../treatment/index.js';
import { openRunGateway } from '../../gateway/index.js';
import { agentFor, priceCall } from '../agent.js';
import { CampaignBudget } from '../budget.js';
import { RunMeter } from '../run-meter.js';
import type { RunLayout } from '../layout.js';
import type { PlannedRun } from '../plan.js';
import { type CampaignContext, IMAGE_UID, type Opened, type RunPlace } from './context.js';

/** A gh call's report to the host (its line and the state after it) is refused past this size. */
const MAX_REPORT_BYTES = 4 * 1024 * 1024;
/** Calls of one run the host keeps; more are refused and the run marked tampered. */
const MAX_GH_CALLS = 10_000;
/** Harness config folders forced into the baseline when present, even if the codebase ignores them. */
const HARNESS_PATHS = ['.claude', '.codex', '.agents'];

/** Gives the workspace to the container's user (see handOverTrees). */
async function handOverOwnership(env: Workspace): Promise<void> {
  const originRoot = path.dirname(path.dirname(env.originPath));
  await handOverTrees([env.workTree, originRoot], `${IMAGE_UID}:${IMAGE_UID}`);
}

/** Seeds the stand-in's state with the eval's prepared pull requests (no call recorded). */
async function seedPullRequests(
  planned: PlannedRun,
  env: Workspace,
  owner: string,
  repo: string,
): Promise<GhPullRequest[]> {
  const seeds = planned.eval.start?.pull_requests ?? [];
  if (seeds.length === 0) return [];
  const now = new Date().toISOString().replace(/\.\d{3}Z$/u, 'Z');
  const pulls: GhPullRequest[] = seeds.map((s, i) => ({
    number: i + 1,
    title: s.title,
    body: s.body,
    head: s.head ?? env.branch,
    base: s.base ?? env.baseBranch,
    draft: s.draft,
    state: s.state,
    created_at: now,
    updated_at: now,
    url: `https://github.com/${owner}/${repo}/pull/${i + 1}`,
    author: owner,
  }));
  const dir = ghRecordDir(path.join(env.workTree, '.git'));
  await mkdir(dir, { recursive: true });
  await writeFileAtomic(
    path.join(dir, 'state.json'),
    `${JSON.stringify({ version: 1, next_number: pulls.length + 1, pull_requests: pulls }, null, 2)}\n`,
  );
  return pulls;
}

/**
 * Starts the run's gh recorder: a socket in a folder of its own (0711: the
 * container's user may reach the socket, create nothing), mounted read only.
 */
async function startRecorder(layout: RunLayout): Promise<GhRecorder> {
  await mkdir(layout.socketDir, { recursive: true });
  await chmod(layout.socketDir, 0o711);
  return startGhRecorder({
    socketPath: path.join(layout.socketDir, 'gh.sock'),
    maxMessageBytes: MAX_REPORT_BYTES,
    maxCalls: MAX_GH_CALLS,
  });
}

/**
 * Makes `dir` a folder only the orchestrator's user can enter: the
 * workspaces under it are handed to the container's uid, which may also be
 * a real user's on the host.
 */
async function claimPrivateFolder(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const info = await lstat(dir);
  if (!info.isDirectory() || info.uid !== process.getuid?.()) {
    throw new Error(`${dir} must be a folder of evalrig's own user (not a link, not another's)`);
  }
  if ((info.mode & 0o077) !== 0) await chmod(dir, 0o700);
}

/** The `prepare` phase: the run's folders, workspace, seal, recorder and gateway, in `opened`. */
export async function prepareWorkspaceOf(
  ctx: CampaignContext,
  planned: PlannedRun,
  place: RunPlace,
  opened: Opened,
): Promise<void> {
  const { layout } = place;
  const e = planned.eval;
  const codebase = ctx.codebases.get(e.id);
  // A quota's overlay needs mounts on the host: only for a sandbox that mounts host folders.
  const quotaWanted = ctx.sandboxes.mountsHostFolders && canMountQuota();
  await rm(layout.dir, { recursive: true, force: true });
  await rm(layout.envRoot, { recursive: true, force: true });
  await mkdir(layout.stopsDir, { recursive: true });
  await claimPrivateFolder(campaignFiles(ctx.outDir).work);
  const base = path.join(layout.envRoot, 'base');
  const env = await prepareWorkspace({
    root: base,
    codebase,
    overlay: e.files,
    staged: planned.condition.stage,
    forcedPaths: HARNESS_PATHS,
    remote: { owner: place.owner, name: place.repo },
    originUrl: place.containerOrigin,
    startBranch: e.start?.branch,
    baselineCommit: ctx.evalSet.baseline_commit,
  });
  opened.env = env;
  opened.seededPulls = await seedPullRequests(planned, env, place.owner, place.repo);
  opened.recorder = await startRecorder(layout);
  const setup = ctx.setups?.get(e.id);
  if (setup) {
    // Ignored by the codebase, so out of the baseline and of the diff; placed paths win.
    const placed = [...e.files, ...planned.condition.stage].map((p) => p.to);
    // Linked when the run sees its workspace through an overlay (a write copies up).
    await placeSetupOutput(setup, env.workTree, [...placed, ...HARNESS_PATHS], {
      link: quotaWanted,
    });
  }
  opened.seal = await sealWorkspace(
    env,
    layout.hostDir,
    codebase ? [path.join(codebase.cachePath, 'objects')] : [],
  );
  // Mounted, the host folders are the sandbox's own: handed over here. Copied, the archive says whose.
  if (ctx.sandboxes.mountsHostFolders) await handOverMounted(ctx, place, opened, quotaWanted);
  // The agent's model calls leave the sandbox through this socket alone (network none).
  const agent = agentFor(ctx.agents, planned);
  if (agent) {
    const files = flightFiles(layout.dir);
    const source = agent.sourceFor(planned);
    const meter = new RunMeter(ctx.evalSet.limits, ctx.budget ?? new CampaignBudget(), priceCall);
    opened.meter = meter;
    const limiter = ctx.limiters?.for(source);
    opened.gateway = await openRunGateway({
      source,
      ...(limiter ? { limiter } : {}),
      admit: () => meter.refusal(),
      onCall: (call) => meter.onCall(call),
      logPath: files.calls,
      // The run's flight record: the host's witness of the session.
      record: { blocksPath: files.blocks, manifestPath: files.manifest },
      paths: agent.adapter.gatewayPaths,
      ...(ctx.modelBudget ? { budget: ctx.modelBudget } : {}),
      needles: needlesOf(ctx.treatments?.get(planned.condition.name) ?? []),
      // What the user says is never the harness loading a file, whatever it quotes.
      prompts: [planned.eval.prompt, ...planned.eval.turns.map((t) => t.message)],
    });
  }
}

/**
 * Hands a mounted workspace to the sandbox's user, behind its quota's
 * overlay when there is one (the workspace and seal then point at the view).
 */
async function handOverMounted(
  ctx: CampaignContext,
  place: RunPlace,
  opened: Opened,
  quotaWanted: boolean,
): Promise<void> {
  const base = path.join(place.layout.envRoot, 'base');
  await handOverOwnership(opened.env!);
  if (quotaWanted) {
    const disk = ctx.evalSet.resources.disk_bytes;
    const owner = ctx.quotaOwner ?? 'unowned';
    opened.quota = await mountQuota(place.layout.envRoot, base, disk, owner);
    opened.env = viewOf(opened.env!, base, opened.quota.view);
    opened.seal = { ...opened.seal!, workTree: opened.env.workTree };
  }
  // The hand-over changed every file's ctime: the seal's index learns them now, off the critical path.
  if (place.asRoot) await refreshSeal(opened.seal!);
}

/** The workspace seen through its quota's overlay (`view`) instead of `base`. */
function viewOf(env: Workspace, base: string, view: string): Workspace {
  const moved = (p: string) => path.join(view, path.relative(base, p));
  return { ...env, workTree: moved(env.workTree), originPath: moved(env.originPath) };
}
