/**
 * `evalrig view`: a campaign folder served on 127.0.0.1, read-only, live while a campaign plays
 * into it: its runs, each run's trajectory, two conditions side by side, and review notes (the
 * one thing it writes). See ./README.md.
 *
 * ```ts
 * const view = await startViewServer({ outDir: 'out/claude-code' });
 * console.log(view.url); // http://127.0.0.1:43117/
 * await view.close();
 * ```
 */
export { startViewServer, type ViewServer, type ViewServerOptions } from './server.js';
export { APP_CSP, REPORT_CSP, VIEW_HOST } from './http.js';
export { resolveInside, pathSegments, isName } from './guard.js';
export {
  parseReviewInput,
  assertReview,
  ReviewError,
  MAX_REVIEW_BYTES,
  type ReviewFile,
  type ReviewInput,
} from '../report/review-file.js';
export { runRows, rowOf, type RunRow } from './rows.js';
export { readReviews } from '../report/reviews.js';
