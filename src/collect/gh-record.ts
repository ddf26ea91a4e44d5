import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { GhCall, GhPullRequest } from '../artifacts/index.js';

/** Folder of the gh stand-in's record inside a repository's git directory. */
export const GH_RECORD_DIR = 'gh-stand-in';

export function ghRecordDir(gitDir: string): string {
  return path.join(gitDir, GH_RECORD_DIR);
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** The pull requests of the stand-in's state; none when it never ran. */
export async function readPullRequests(gitDir: string): Promise<GhPullRequest[]> {
  const text = await readIfExists(path.join(ghRecordDir(gitDir), 'state.json'));
  if (text === undefined) return [];
  const state = JSON.parse(text) as { pull_requests?: GhPullRequest[] };
  return state.pull_requests ?? [];
}

/** The stand-in's calls.jsonl as it is now ('' when it never ran). */
export async function readCallsText(gitDir: string): Promise<string> {
  return (await readIfExists(path.join(ghRecordDir(gitDir), 'calls.jsonl'))) ?? '';
}

/** The calls of a calls.jsonl text, in order. A torn last line (a call still writing) is skipped. */
export function parseCalls(text: string): GhCall[] {
  const calls: GhCall[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      calls.push(JSON.parse(line) as GhCall);
    } catch {
      // Only a line being appended can be partial; it belongs to the next stop.
    }
  }
  return calls;
}

/** Every call recorded so far, in order. */
export async function readCalls(gitDir: string): Promise<GhCall[]> {
  return parseCalls(await readCallsText(gitDir));
}

/**
 * The pull request gh would pick for `branch`: open ones first, newest first
 * (gh-facts §3).
 */
export function pullRequestOfBranch(
  pulls: readonly GhPullRequest[],
  branch: string,
): GhPullRequest | undefined {
  const mine = pulls.filter((p) => p.head === branch);
  const open = mine.filter((p) => p.state === 'OPEN');
  const pool = open.length > 0 ? open : mine;
  return [...pool].sort((a, b) => b.number - a.number)[0];
}
