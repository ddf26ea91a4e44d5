/** The judges that graded a campaign's runs, as compare records and compares them. */
import type { CampaignSide } from './read.js';
import type { SideProvenance } from './types.js';

const short = (hash: string): string => hash.replace(/^sha256:/, '').slice(0, 12);

/** The judges of benchmark.json's `grading` (written when runs were graded), read by shape. */
export function judgesOf(side: CampaignSide): SideProvenance['judges'] {
  const grading = (side.benchmark as unknown as { grading?: { judges?: unknown } }).grading;
  const judges = Array.isArray(grading?.judges) ? (grading.judges as unknown[]) : [];
  return judges.flatMap((j) => {
    const x = j as Record<string, unknown>;
    const fields = [x.model, x.source, x.rubric, x.rubric_sha256];
    if (!fields.every((f) => typeof f === 'string')) return [];
    const [model, source, rubric, rubric_sha256] = fields as string[];
    const hashes = Array.isArray(x.scripts_sha256) ? x.scripts_sha256 : [];
    const strings = hashes.filter((h): h is string => typeof h === 'string');
    const script = strings.length > 0 ? { scripts_sha256: strings } : {};
    return [
      { model: model!, source: source!, ...script, rubric: rubric!, rubric_sha256: rubric_sha256! },
    ];
  });
}

/** The judges in one line: model, source (a script's sha256), rubric. */
export function judgeLine(p: SideProvenance): string {
  return p.judges
    .map((j) => {
      const script = (j.scripts_sha256 ?? []).map((s) => ` ${short(s)}`).join(',');
      return `${j.model} (${j.source}${script}), rubric ${j.rubric} ${short(j.rubric_sha256)}`;
    })
    .join('; ');
}
