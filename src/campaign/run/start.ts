/**
 * The `start` phase of a run: its sandbox, started from the run's image with
 * its trees, sockets and the agent's files shared.
 */
import path from 'node:path';
import { GH_RECORDER_ENV } from '../../recorder/index.js';
import { LABELS, type SandboxReservation, type SandboxSpec } from '../../sandbox/index.js';
import { BASELINE_COMMIT } from '../../workspace/index.js';
import { evalSetFolderForRuns } from '../evalset-view.js';
import { CONTAINER } from '../layout.js';
import { serviceSpecsOf } from '../services.js';
import type { PlannedRun } from '../plan.js';
import { agentFor } from '../agent.js';
import { ensureAgentAccount, type AccountMemo } from './account.js';
import type { CampaignContext, Opened, RunPlace } from './context.js';

/**
 * A run with services begins its sandbox's start ahead, as its prepare phase
 * begins: the run's private network and each container's place on it are made
 * on the engine meanwhile (sandbox/docker/services/), off the start's critical path.
 * Undefined when there is nothing to make ahead.
 */
export function reserveSandbox(
  ctx: CampaignContext,
  planned: PlannedRun,
): SandboxReservation | undefined {
  const services = ctx.services?.get(planned.eval.id);
  if (!services || !ctx.sandboxes.reserve) return undefined;
  return ctx.sandboxes.reserve({
    image: runImageOf(ctx, planned),
    labels: sandboxLabels(ctx, planned),
    services: serviceSpecsOf(services),
  });
}

/** What the run's sandbox and everything started beside it carry: reaped by these. */
function sandboxLabels(ctx: CampaignContext, planned: PlannedRun): Record<string, string> {
  return {
    [LABELS.campaign]: ctx.campaign,
    [LABELS.run]: planned.key,
    'evalrig.pid': String(process.pid),
  };
}

/**
 * The `start` phase: the run's sandbox, with its trees, sockets and the
 * agent's binary shared; through its `reservation` when one was made ahead.
 */
export async function startSandbox(
  ctx: CampaignContext,
  planned: PlannedRun,
  place: RunPlace,
  opened: Opened,
  reservation?: SandboxReservation,
): Promise<void> {
  const { evalSet } = ctx;
  const env = opened.env!;
  const agent = agentFor(ctx.agents, planned);
  const agentShares =
    agent && opened.gateway ? agent.shares(opened.gateway.hostDir) : { files: [], sockets: [] };
  const keeper = `${place.keeper}:${place.keeper}`;
  const services = ctx.services?.get(planned.eval.id);
  const image = runImageOf(ctx, planned);
  const evalSetDir = agent ? undefined : await evalSetFolderForRuns(evalSet, ctx.outDir);
  const author = evalSet.baseline_commit.author ?? BASELINE_COMMIT.author;
  const spec: SandboxSpec = {
    // Ready before the sandbox is handed over: the first turn finds them answering.
    ...(services ? { services: serviceSpecsOf(services) } : {}),
    image,
    user: keeper,
    execUser: place.agentUser,
    workingDir: place.containerWorkTree,
    // A session commits; the sandbox has no git identity of its own. It commits as the
    // baseline's author, a developer of the project: a name saying evalrig would be a tell.
    env: {
      HOME: place.home,
      GIT_AUTHOR_NAME: author.name,
      GIT_AUTHOR_EMAIL: author.email,
      GIT_COMMITTER_NAME: author.name,
      GIT_COMMITTER_EMAIL: author.email,
      [GH_RECORDER_ENV]: path.posix.join(CONTAINER.socketDir, 'gh.sock'),
    },
    labels: sandboxLabels(ctx, planned),
    folders: [
      { host: env.workTree, container: place.containerWorkTree, owner: place.agent },
      { host: env.originPath, container: place.containerOrigin, owner: place.agent },
      // A command agent is given the eval set's folder ({eval_set_dir}: its scripts). An adapter
      // agent is not: expectations, judge scripts and other conditions' files are no business
      // of the agent measured (a reward hacker would read them).
      // Check files (a mined task's tests) are left out of it: they are the future.
      ...(evalSetDir
        ? [{ host: evalSetDir, container: CONTAINER.evalSetDir, readOnly: true }]
        : []),
    ],
    sockets: [
      { host: place.layout.socketDir, container: CONTAINER.socketDir, names: ['gh.sock'] },
      ...agentShares.sockets,
    ],
    files: agentShares.files,
    // A copying engine holds the run's host copies to its disk too (a mounted one has its quota).
    diskBytes: evalSet.resources.disk_bytes,
    limits: {
      memoryBytes: evalSet.resources.memory_bytes,
      cpus: evalSet.resources.cpus,
      pids: evalSet.resources.pids,
    },
  };
  opened.sandbox = await (reservation ? reservation.start(spec) : ctx.sandboxes.start(spec));
  ctx.live.add(opened.sandbox);
  // Before the agent's first process: getpwuid answers for its uid (Qwen Code needs it).
  await ensureAgentAccount(opened.sandbox, place.agent, place.home, {
    known: accountsOf(ctx.sandboxes),
    image,
  });
  if (!place.asRoot) await opened.sandbox.exec(['mkdir', '-p', place.home]);
}

/** Each provider's accounts worked out so far (one provider per campaign). */
const accounts = new WeakMap<object, AccountMemo>();

function accountsOf(provider: object): AccountMemo {
  let known = accounts.get(provider);
  if (!known) accounts.set(provider, (known = new Map()));
  return known;
}

/** The image a run starts from: its eval's run image, or that with its agent built in. */
function runImageOf(ctx: CampaignContext, planned: PlannedRun): string {
  const tag = (ctx.images?.get(planned.eval.id) ?? ctx.image).tag;
  return agentFor(ctx.agents, planned)?.imageFor(tag) ?? tag;
}
