import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ArtifactSchemaError, assertArtifact, type ConditionsFile } from '../artifacts/index.js';
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

// An aggregate is a few MiB at most; a bigger file is not one of evalrig's.
const MAX_BYTES = 64 * 1024 * 1024;

async function readJson(file: string, missing: () => string): Promise<unknown> {
  let text: string;
  try {
    const info = await stat(file);
    if (!info.isFile()) throw new CompareInputError(`${file} is not a file`);
    if (info.size > MAX_BYTES)
      throw new CompareInputError(`${file} is ${info.size} bytes: too big to be evalrig's`);
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof CompareInputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CompareInputError(missing());
    throw new CompareInputError(`cannot read ${file}: ${code ?? (error as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CompareInputError(`${file} is not JSON: ${(error as Error).message}`);
  }
}

/** Checks a file against its schema; the first problem at its JSON pointer, and how many more. */
function validated<T>(
  kind: 'benchmark' | 'conditions',
  file: string,
  data: unknown,
  fix: string,
): T {
  try {
    assertArtifact(kind, data, file);
  } catch (error) {
    if (!(error instanceof ArtifactSchemaError)) throw error;
    const [first, ...rest] = error.problems;
    const more = rest.length
      ? ` (and ${rest.length} more problem${rest.length === 1 ? '' : 's'})`
      : '';
    throw new CompareInputError(
      `${file} does not match the ${kind} schema at ${first ?? '/'}${more}${fix}`,
    );
  }
  return data as T;
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

  const conditionsPath = path.join(dir, 'conditions.json');
  const conditions = validated<ConditionsFile>(
    'conditions',
    conditionsPath,
    await readJson(
      conditionsPath,
      () =>
        `${conditionsPath} is missing: ${folder} is not a campaign folder (evalrig run writes it first)`,
    ),
    '',
  );
  const benchmarkPath = path.join(dir, 'benchmark.json');
  const recompute = `; run \`evalrig report ${folder}\` to recompute it from the runs`;
  const benchmark = validated<BenchmarkFile>(
    'benchmark',
    benchmarkPath,
    await readJson(
      benchmarkPath,
      () =>
        `${benchmarkPath} is missing: the campaign in ${folder} is not finished (still running, cut, or run with --no-report)${recompute}`,
    ),
    recompute,
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
