import { reviewTexts } from '../trajectory/source.js';
import { parseReviewFile, type ReviewFile } from './review-file.js';

/**
 * The review notes of a campaign, in the campaign's order (for the report): read from the
 * reviews folder alone, so a campaign with few notes costs few reads. A file that is not a
 * review is left out.
 */
export async function readReviews(outDir: string): Promise<ReviewFile[]> {
  const found: ReviewFile[] = [];
  for await (const { file, text } of reviewTexts(outDir)) {
    const review = parseReviewFile(text, file);
    if (review) found.push(review);
  }
  return found;
}
