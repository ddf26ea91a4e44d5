import path from 'node:path';
import type { GhCall, GhPullRequest } from '../artifacts/index.js';
import { compareRecords } from '../recorder/index.js';
import { UntrustedFileError, readUntrustedText } from '../untrusted/index.js';

/** Folder of the gh stand-in's record inside a repository's git directory. */
export const GH_RECORD_DIR = 'gh-stand-in';

/** The stand-in's files are read up to these sizes; larger ones are refused. */
export const MAX_STATE_BYTES = 8 * 1024 * 1024;
export const MAX_CALLS_BYTES = 32 * 1024 * 1024;

export function ghRecordDir(gitDir: string): string {
  return path.join(gitDir, GH_RECORD_DIR);
}

function isPullRequest(value: unknown): value is GhPullRequest {
  const p = value as Record<string, unknown> | null;
  return (
    typeof p === 'object' &&
    p !== null &&
    Number.isSafeInteger(p.number) &&
    typeof p.title === 'string' &&
    typeof p.body === 'string' &&
    typeof p.head === 'string' &&
    typeof p.draft === 'boolean' &&
    typeof p.state === 'string' &&
    typeof p.url === 'string' &&
    isNameList(p.labels) &&
    isNameList(p.assignees)
  );
}

/** A pull request's `labels` or `assignees`: absent, or a list of names. */
function isNameList(value: unknown): boolean {
  return value === undefined || (Array.isArray(value) && value.every((v) => typeof v === 'string'));
}

/** The pull requests of the stand-in's state; none when it never ran. */
export async function readPullRequests(gitDir: string): Promise<GhPullRequest[]> {
  const rel = `${GH_RECORD_DIR}/state.json`;
  const text = await readUntrustedText(gitDir, rel, { maxBytes: MAX_STATE_BYTES });
  if (text === undefined) return [];
  let state: unknown;
  try {
    state = JSON.parse(text);
  } catch {
    throw new UntrustedFileError(path.join(gitDir, rel), 'is not JSON');
  }
  const pulls = (state as { pull_requests?: unknown } | null)?.pull_requests ?? [];
  if (!Array.isArray(pulls) || !pulls.every(isPullRequest)) {
    throw new UntrustedFileError(path.join(gitDir, rel), 'does not hold valid pull requests');
  }
  return pulls;
}

/** The stand-in's calls.jsonl as it is now ('' when it never ran). */
export async function readCallsText(gitDir: string): Promise<string> {
  const rel = `${GH_RECORD_DIR}/calls.jsonl`;
  return (await readUntrustedText(gitDir, rel, { maxBytes: MAX_CALLS_BYTES })) ?? '';
}

/** The calls of a calls.jsonl text, in order. A torn last line (a call still writing) is skipped. */
export function parseCalls(text: string): GhCall[] {
  const calls: GhCall[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const call = JSON.parse(line) as GhCall;
      if (typeof call === 'object' && call !== null && Number.isSafeInteger(call.seq)) {
        calls.push(call);
      }
    } catch {
      // Only a line being appended can be partial; it belongs to the next stop.
    }
  }
  return calls;
}

/** Each text of a call (stdin, description, stdout, stderr, an argument) is kept in a stop up to this size. */
export const MAX_CALL_TEXT_BYTES = 16 * 1024;

function capped(text: string): string {
  if (Buffer.byteLength(text) <= MAX_CALL_TEXT_BYTES) return text;
  const kept = Buffer.from(text).subarray(0, MAX_CALL_TEXT_BYTES).toString('utf8');
  return `${kept.replace(/\uFFFD$/u, '')}\n[evalrig: cut at ${MAX_CALL_TEXT_BYTES} of ${Buffer.byteLength(text)} bytes]`;
}

/** A call with every text the agent chose cut to {@link MAX_CALL_TEXT_BYTES}: what a stop keeps. */
export function capCall(call: GhCall): GhCall {
  const text = (v: string | null | undefined) => (typeof v === 'string' ? capped(v) : v);
  return {
    ...call,
    argv: Array.isArray(call.argv) ? call.argv.slice(0, 256).map((a) => capped(String(a))) : [],
    stdin: text(call.stdin) as GhCall['stdin'],
    description: text(call.description) as GhCall['description'],
    stdout: text(call.stdout) as GhCall['stdout'],
    stderr: text(call.stderr) as GhCall['stderr'],
  };
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

/**
 * Why the in-repository record differs from the host's own copy (calls and
 * pull requests), or nothing when it does not: the agent rewrote, removed,
 * replaced or linked it. Measures read the host's copy either way; this only
 * says the run was tampered with.
 */
export async function recordTampering(
  gitDir: string,
  host: { readonly calls: readonly GhCall[]; readonly pulls: readonly GhPullRequest[] },
): Promise<string[]> {
  const reasons: string[] = [];
  const noted = (what: string, error: unknown) => {
    if (!(error instanceof UntrustedFileError)) throw error;
    reasons.push(`${what}: ${error.reason}`);
  };
  try {
    const comparison = compareRecords(host.calls, await readCallsText(gitDir));
    if (!comparison.same) reasons.push(`calls.jsonl: ${comparison.reason}`);
  } catch (error) {
    noted('calls.jsonl', error);
  }
  try {
    const pulls = await readPullRequests(gitDir);
    if (JSON.stringify(pulls) !== JSON.stringify(host.pulls)) {
      reasons.push('state.json: its pull requests differ from the ones the host was told of');
    }
  } catch (error) {
    noted('state.json', error);
  }
  return reasons;
}
