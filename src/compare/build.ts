import path from 'node:path';
import { assertArtifact, writeArtifact, writeFileAtomic } from '../artifacts/index.js';
import { evalrigVersion } from '../artifacts/index.js';
import { checkMarkdown } from '../report/markdown.js';
import { checkCompareHtml, renderCompareHtml } from './html.js';
import { COMPARE_MD_HEADINGS, renderCompareMd } from './markdown.js';
import { pairGroups } from './pair.js';
import { attribute, provenanceDifferences, sideProvenance } from './provenance.js';
import { readCampaignSide, type CampaignSide } from './read.js';
import type { CompareFile, SideSummary } from './types.js';

export interface CompareOptions {
  /** The comparison's date (default: now). */
  readonly now?: Date;
}

function summary(side: CampaignSide): SideSummary {
  return {
    dir: side.dir,
    campaign: side.benchmark.campaign,
    baseline_condition: side.benchmark.baseline_condition,
    runs: side.benchmark.runs,
    generated_at: side.benchmark.generated_at,
  };
}

function notes(a: CampaignSide, b: CampaignSide): string[] {
  const out: string[] = [];
  if (a.dir === b.dir) out.push('A and B are the same folder: every difference is 0.');
  for (const [name, s] of [
    ['A', a],
    ['B', b],
  ] as const) {
    const missing = s.benchmark.runs.without_record;
    if (missing)
      out.push(
        `${name} has ${missing} run folder${missing === 1 ? '' : 's'} without a record (runs still going, or cut): not in its numbers.`,
      );
  }
  return out;
}

/** The comparison of two campaigns read from their files: pure, nothing read or written. */
export function compareSides(
  a: CampaignSide,
  b: CampaignSide,
  options: CompareOptions = {},
): CompareFile {
  const pa = sideProvenance(a);
  const pb = sideProvenance(b);
  const differences = provenanceDifferences(pa, pb);
  const { groups, oneSided } = pairGroups(a.benchmark, b.benchmark);
  return {
    schema: 'evalrig/compare@1',
    generated_at: (options.now ?? new Date()).toISOString(),
    evalrig_version: evalrigVersion,
    a: summary(a),
    b: summary(b),
    provenance: { a: pa, b: pb, differences, ...attribute(differences) },
    groups,
    one_sided: oneSided,
    notes: notes(a, b),
  };
}

/**
 * Compares two finished campaign folders, A then B: every measure both have,
 * per condition and per (eval, condition), B − A with its 95% interval, and
 * the provenance of each with what differs. Reads each folder's
 * conditions.json and benchmark.json (checked against their schemas); runs
 * nothing, writes nothing.
 *
 * @example
 * const c = await compareCampaigns('out/before', 'out/after');
 * console.log(c.provenance.verdict);
 */
export async function compareCampaigns(
  dirA: string,
  dirB: string,
  options: CompareOptions = {},
): Promise<CompareFile> {
  const a = await readCampaignSide(dirA);
  const b = await readCampaignSide(dirB);
  return compareSides(a, b, options);
}

/** The three renderings of a comparison, each checked (the JSON against its schema). */
export interface CompareRendering {
  readonly json: string;
  readonly md: string;
  readonly html: string;
}

export function renderCompare(c: CompareFile): CompareRendering {
  assertArtifact('compare', c, 'compare.json');
  const md = renderCompareMd(c);
  checkMarkdown('compare.md', md, COMPARE_MD_HEADINGS);
  const html = renderCompareHtml(c);
  checkCompareHtml('compare.html', html);
  return { json: `${JSON.stringify(c, null, 2)}\n`, md, html };
}

/** Writes compare.json, compare.md and compare.html into `outDir`, all checked before any is written. */
export async function writeCompare(
  outDir: string,
  c: CompareFile,
): Promise<{ json: string; md: string; html: string }> {
  const rendered = renderCompare(c);
  const files = {
    json: path.join(outDir, 'compare.json'),
    md: path.join(outDir, 'compare.md'),
    html: path.join(outDir, 'compare.html'),
  };
  await writeArtifact('compare', files.json, c);
  await writeFileAtomic(files.md, rendered.md);
  await writeFileAtomic(files.html, rendered.html);
  return files;
}
