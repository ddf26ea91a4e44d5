/**
 * Playing a toy workspace's campaign in-process, and reading what it wrote: what the
 * integration specs of the campaign, the judge and the message checks share.
 */
import { readFile } from 'node:fs/promises';
import {
  runCampaign,
  type CampaignOptions,
  type CampaignResult,
} from '../../src/campaign/index.js';
import { testDocker } from './docker.js';
import type { ToyWorkspace } from './toy.js';

/** A log that swallows the campaign's progress lines. */
export const QUIET = { write: () => true } as unknown as NodeJS.WriteStream;

/**
 * Plays the workspace's eval set into its out folder with the tests' Docker client, quietly;
 * `options` adds to or overrides that (jobs, keepWorkspaces, ...).
 *
 * @example
 * const result = await playCampaign(ws, { jobs: 2 });
 */
export function playCampaign(
  ws: ToyWorkspace,
  options: Partial<CampaignOptions> = {},
): Promise<CampaignResult> {
  return runCampaign({
    evalSetFile: ws.evalSetFile,
    outDir: ws.outDir,
    client: testDocker(),
    log: QUIET,
    ...options,
  });
}

export async function readJson<T>(file: string): Promise<T> {
  return JSON.parse(await readFile(file, 'utf8')) as T;
}

/** A JSON-lines file's records (calls.jsonl, model-calls.jsonl, a transcript). */
export async function readJsonLines<T>(file: string): Promise<T[]> {
  return (await readFile(file, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
}
