/**
 * A model script tried against what a campaign recorded, running nothing: which response each
 * recorded request (an agent's model calls, or the judge's questions) would get, and whether
 * by its `when`, in order, or from a catch-all while responses with a `when` waited
 * (`evalrig try-script`).
 *
 * ```ts
 * const sessions = await recordedSessions('out/campaign', 'judge');
 * const rows = dryRun(await loadModelScript('scripts/judge.json'), sessions);
 * rows.filter((r) => r.how === 'fallback'); // the questions its `when`s missed
 * ```
 */
export { dryRun, responseSummary, tally, type DryRunRow, type RecordedSession } from './play.js';
export { recordedSessions, type SessionKind } from './sessions.js';
