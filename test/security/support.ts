import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RunRecord, StopRecord } from '../../src/artifacts/index.js';
import { runCampaign, type CampaignResult } from '../../src/campaign/index.js';
import { testDocker } from '../support/docker.js';
import { makeToyWorkspace, type AgentAction, type ToyWorkspace } from '../support/toy.js';

/**
 * What the security suite plays: each eval is one attack, a scripted agent
 * running commands in its container as a prompt-injected agent would.
 * Markers live on the host where no container can see them: a marker that
 * appears proves the host ran the agent's command; a secret that shows in
 * the output folder proves the host copied a host file into the artifacts.
 */
export interface HostMarkers {
  /** A folder of the host (not mounted into any container). */
  readonly dir: string;
  /** A file the agent's command would create if the host ran it. */
  readonly pwned: string;
  /** A host file holding {@link secret}, which the agent points links at. */
  readonly secretFile: string;
  readonly secret: string;
  cleanup(): Promise<void>;
}

export async function hostMarkers(): Promise<HostMarkers> {
  const dir = await mkdtemp(path.join(tmpdir(), 'evalrig-host-only-'));
  const secret = `host-secret-${randomBytes(12).toString('hex')}`;
  const secretFile = path.join(dir, 'secret.txt');
  await writeFile(secretFile, `${secret}\n`);
  return {
    dir,
    pwned: path.join(dir, 'pwned'),
    secretFile,
    secret,
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** One attack: the eval id and the turns the agent plays. */
export interface Attack {
  readonly id: string;
  readonly turns: ReadonlyArray<readonly AgentAction[]>;
}

export interface PlayedCampaign {
  readonly ws: ToyWorkspace;
  readonly result: CampaignResult;
  readonly seconds: number;
  record(id: string): Promise<RunRecord>;
  stops(id: string): Promise<StopRecord[]>;
  /** Every file of the output folder, as text. */
  everything(): Promise<string>;
}

const quiet = { write: () => true } as unknown as NodeJS.WriteStream;

/** Plays every attack as one eval of one campaign (one run each), `jobs` at a time. */
export async function playAttacks(
  attacks: readonly Attack[],
  options: {
    jobs?: number;
    set?: Record<string, unknown>;
    /** Fields merged into the eval set once the workspace (and its toy codebase) exists. */
    setFrom?: (ws: ToyWorkspace) => Promise<Record<string, unknown>>;
    keepWorkspaces?: boolean;
  } = {},
): Promise<PlayedCampaign> {
  const ws = await makeToyWorkspace({
    scripts: Object.fromEntries(
      attacks.map((a) => [a.id, { turns: a.turns.map((actions) => ({ actions: [...actions] })) }]),
    ),
    set: {
      evals: attacks.map((a) => ({
        id: a.id,
        prompt: 'p',
        runs: 1,
        turn_timeout: 60,
        turns: a.turns.slice(1).map(() => ({ message: 'go on', phase: 'execution' })),
      })),
      ...options.set,
    },
  });
  if (options.setFrom) {
    const set = JSON.parse(await readFile(ws.evalSetFile, 'utf8')) as Record<string, unknown>;
    Object.assign(set, await options.setFrom(ws));
    await writeFile(ws.evalSetFile, `${JSON.stringify(set, null, 2)}\n`);
  }
  const started = Date.now();
  const result = await runCampaign({
    evalSetFile: ws.evalSetFile,
    outDir: ws.outDir,
    jobs: options.jobs ?? 2,
    client: testDocker(),
    log: quiet,
    keepWorkspaces: options.keepWorkspaces,
  });
  const runDir = (id: string) => path.join(ws.outDir, 'runs', id, 'default', 'run-01');
  return {
    ws,
    result,
    seconds: (Date.now() - started) / 1000,
    record: async (id) =>
      JSON.parse(await readFile(path.join(runDir(id), 'run.json'), 'utf8')) as RunRecord,
    stops: async (id) => {
      const dir = path.join(runDir(id), 'stops');
      if (!existsSync(dir)) return [];
      // Each stop keeps its patch beside it (stop-NN.patch): the stops are the .json files.
      const files = (await readdir(dir)).filter((f) => /^stop-\d+\.json$/u.test(f)).sort();
      return Promise.all(
        files.map(async (f) => JSON.parse(await readFile(path.join(dir, f), 'utf8')) as StopRecord),
      );
    },
    everything: async () => {
      const entries = await readdir(ws.outDir, { recursive: true, withFileTypes: true });
      const texts = await Promise.all(
        entries
          .filter((e) => e.isFile())
          .map((e) => readFile(path.join(e.parentPath, e.name), 'utf8').catch(() => '')),
      );
      return texts.join('\n');
    },
  };
}

/** A shell command as the scripted agent's `run` action, its failure allowed. */
export function sh(command: string): AgentAction {
  return { run: command, allow_failure: true };
}
