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
    const script = typeof x.script_sha256 === 'string' ? { script_sha256: x.script_sha256 } : {};
    return [
      { model: model!, source: source!, ...script, rubric: rubric!, rubric_sha256: rubric_sha256! },
    ];
  });
}

/** The judges in one line: model, source (a script's sha256), rubric. */
export function judgeLine(p: SideProvenance): string {
  return p.judges
    .map((j) => {
      const script = j.script_sha256 ? ` ${short(j.script_sha256)}` : '';
      return `${j.model} (${j.source}${script}), rubric ${j.rubric} ${short(j.rubric_sha256)}`;
    })
    .join('; ');
}
