/**
 * What the fault tests share: the compiled CLI as a child process (no loader
 * in the way of signals and timings: `npm test` builds first), a campaign's
 * stored records, its containers, and a seeded random source so that a trial
 * that failed can be replayed.
 */
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa, type ResultPromise } from 'execa';
import type { RunRecord } from '../../src/artifacts/index.js';
import { LABELS, listContainers, type DockerClient } from '../../src/runtime/index.js';
import { seededUniform } from '../../src/seeded/index.js';

/** The one seeded generator, by the name these tests use. */
export const seeded = seededUniform;

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CLI = path.join(REPO, 'dist', 'src', 'cli', 'main.js');

/** The compiled CLI; `env` is added to this process's environment. */
export function cli(
  args: readonly string[],
  env: Record<string, string> = {},
  options: { detached?: boolean } = {},
): ResultPromise<{ reject: false }> {
  return execa('node', [CLI, ...args], {
    reject: false,
    env: { ...env, CI: '1' },
    detached: options.detached,
  }) as ResultPromise<{ reject: false }>;
}

export async function readJson<T>(file: string): Promise<T> {
  return JSON.parse(await readFile(file, 'utf8')) as T;
}

/** Every run.json of a campaign folder, with its folder. */
export async function runRecords(
  outDir: string,
): Promise<Array<{ dir: string; record: RunRecord }>> {
  const found: Array<{ dir: string; record: RunRecord }> = [];
  const runs = path.join(outDir, 'runs');
  if (!existsSync(runs)) return found;
  for (const e of await readdir(runs))
    for (const c of await readdir(path.join(runs, e)))
      for (const r of await readdir(path.join(runs, e, c))) {
        const dir = path.join(runs, e, c, r);
        const file = path.join(dir, 'run.json');
        if (existsSync(file)) found.push({ dir, record: await readJson<RunRecord>(file) });
      }
  return found;
}

/** The campaign id of a folder, once conditions.json is written. */
export async function campaignOf(outDir: string): Promise<string | undefined> {
  const file = path.join(outDir, 'conditions.json');
  if (!existsSync(file)) return undefined;
  return (await readJson<{ campaign: string }>(file)).campaign;
}

/** Containers of the campaign written in `outDir` (0 when it has none yet). */
export async function campaignContainers(client: DockerClient, outDir: string): Promise<number> {
  const campaign = await campaignOf(outDir);
  if (!campaign) return 0;
  return (await listContainers(client, { [LABELS.campaign]: campaign })).length;
}

/** Polls `check` every 100 ms until it holds; fails after `ms`. */
export async function waitFor(
  check: () => Promise<boolean> | boolean,
  ms = 120_000,
  what = 'the condition',
): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not hold within ${ms} ms`);
}
