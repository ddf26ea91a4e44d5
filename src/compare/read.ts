import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { ConditionsFile } from '../artifacts/index.js';
import {
  notACampaign,
  readBenchmark,
  readConditions,
  type Read,
} from '../campaign-folder/index.js';
import { InputError } from '../errors/index.js';
import type { BenchmarkFile } from '../report/index.js';

/** A folder given to compare is not a finished campaign, or one of its files is wrong. */
export class CompareInputError extends InputError {}

/** A finished campaign as compare needs it: its aggregate and its conditions. */
export interface CampaignSide {
  readonly dir: string;
  readonly benchmark: BenchmarkFile;
  readonly conditions: ConditionsFile;
}

/** The value of a read, or a CompareInputError: its problem, or `missing` when there is none. */
function taken<T>(read: Read<T>, missing: string, fix = ''): T {
  if (read.status === 'ok') return read.value;
  if (read.status === 'missing') throw new CompareInputError(missing);
  throw new CompareInputError(`${read.problem}${fix}`);
}

/**
 * Reads a finished campaign: <dir>/conditions.json (written when it starts)
 * and <dir>/benchmark.json (written when it ends, or by `evalrig report`),
 * each checked against its schema, and the two checked to belong together.
 * Anything else is a CompareInputError naming the file, the JSON pointer and
 * what to do.
 */
export async function readCampaignSide(folder: string): Promise<CampaignSide> {
  const dir = path.resolve(folder);
  const info = await stat(dir).catch(() => null);
  if (info === null) throw new CompareInputError(`${folder} does not exist`);
  if (!info.isDirectory())
    throw new CompareInputError(`${folder} is not a folder (give a campaign's --out folder)`);

  const conditionsRead = await readConditions(dir);
  const conditionsPath = conditionsRead.file;
  const conditions = taken(conditionsRead, notACampaign(conditionsRead, folder));
  const benchmarkRead = await readBenchmark<BenchmarkFile>(dir);
  const benchmarkPath = benchmarkRead.file;
  const recompute = `; run \`evalrig report ${folder}\` to recompute it from the runs`;
  const benchmark = taken(
    benchmarkRead,
    `${benchmarkPath} is missing: the campaign in ${folder} is not finished (still running, cut, or run with --no-report)${recompute}`,
    // Not JSON, or a file of another kind, is not fixed by recomputing: said as it is.
    benchmarkRead.status === 'broken' && / schema at /u.test(benchmarkRead.problem)
      ? recompute
      : '',
  );
  if (benchmark.campaign !== conditions.campaign)
    throw new CompareInputError(
      `${benchmarkPath} /campaign is "${benchmark.campaign}" but ${conditionsPath} /campaign is "${conditions.campaign}": the two files are of different campaigns${recompute}`,
    );
  if (benchmark.provenance.eval_set.sha256 !== conditions.eval_set.sha256)
    throw new CompareInputError(
      `${benchmarkPath} /provenance/eval_set/sha256 is not ${conditionsPath} /eval_set/sha256: benchmark.json is stale${recompute}`,
    );
  return { dir, benchmark, conditions };
}
