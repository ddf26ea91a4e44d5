/**
 * Records as a run writes them, built in memory for the specs that read them (measures,
 * message checks): a spec overrides only what it is about.
 */
import type { DiffCounters, PullAtStop, StopRecord } from '../../src/artifacts/index.js';

/** The diff of a run or stop that changed nothing. */
export const NO_DIFF: DiffCounters = {
  files_added: 0,
  files_modified: 0,
  files_deleted: 0,
  lines_added: 0,
  lines_removed: 0,
  untracked: 0,
};

/** Pull request #1 as a stop sees it. */
export function pullAtStop(draft: boolean, described: boolean | null): PullAtStop {
  return {
    number: 1,
    url: 'http://stand-in/acme/toy/pull/1',
    title: 't',
    body: 'b',
    state: 'OPEN',
    draft,
    described,
  };
}

/**
 * A stop: by default planning's turn 1, handed over with a described draft (#1) pushed, nothing
 * changed, no gh call, no final message.
 *
 * @example
 * stopRecord({ turn: 2, phase: 'execution', pull: pullAtStop(true, false) })
 */
export function stopRecord(over: Partial<StopRecord> = {}): StopRecord {
  return {
    turn: 1,
    phase: 'planning',
    exit_code: 0,
    duration_ms: 1000,
    kind: 'awaiting-approval',
    hand_over: true,
    branch: 'feature',
    head: 'a'.repeat(40),
    origin_has_head: true,
    pull: pullAtStop(true, true),
    calls: [],
    diff: NO_DIFF,
    probes: { description: { command: 'x', exit_code: 0, stdout: 'b', stderr: '' } },
    at: '2025-01-01T00:00:00Z',
    ...over,
  };
}
