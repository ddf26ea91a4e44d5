import { readReviewText, storedRuns } from '../trajectory/source.js';
import { parseReviewFile, type ReviewFile } from './review.js';

/**
 * The review notes of a campaign's runs, in the campaign's order (for the report): only runs
 * that have one; memory holds one run at a time and the notes found.
 */
export async function readReviews(outDir: string): Promise<ReviewFile[]> {
  const found: ReviewFile[] = [];
  for await (const stored of storedRuns(outDir)) {
    const r = stored.record;
    if (r === null) continue;
    const review = parseReviewFile(
      await readReviewText(outDir, r.eval, r.condition, r.run),
      stored.location.dir,
    );
    if (review) found.push(review);
  }
  return found;
}
