/**
 * What `evalrig tasks from-history` gives the mining beside its flags: the environment (its
 * own flags, or an eval set's) and the validation played as a campaign.
 */
import path from 'node:path';
import { runCampaign } from '../../campaign/index.js';
import { readRuns } from '../../campaign-folder/index.js';
import { loadEvalSet } from '../../config/index.js';
import { InputError } from '../../errors/index.js';
import type { MineOptions, ValidationRun } from '../../mine/index.js';
import { useScratchFolder } from '../../runtime/index.js';

export interface FromHistoryFlags {
  ref?: string;
  range?: string;
  paths?: string[];
  tests?: string[];
  max?: string;
  dryRun?: boolean;
  testCommand?: string;
  out?: string;
  environment?: string;
  setup?: string[];
  from?: string;
  rewrite?: string;
  rewriteKeyEnv?: string;
  rewriteModel?: string;
  rewriteMaxCost?: string;
  runs?: string;
  jobs?: string;
  validationOut?: string;
}

/** The environment: `--environment` and `--setup`, or an eval set's (`--from`). */
export async function environmentOf(
  flags: Pick<FromHistoryFlags, 'environment' | 'setup' | 'from'>,
): Promise<Pick<MineOptions, 'environmentDir' | 'dockerfile' | 'setup'>> {
  if (flags.from && (flags.environment || flags.setup))
    throw new InputError(
      "--from takes its eval set's environment and setup: give it without --environment and --setup",
    );
  if (!flags.from)
    return {
      ...(flags.environment ? { environmentDir: path.resolve(flags.environment) } : {}),
      ...(flags.setup ? { setup: flags.setup } : {}),
    };
  const set = await loadEvalSet(flags.from);
  const env = set.evals[0]?.environment;
  if (!env) throw new InputError(`--from ${flags.from}: its evals name no environment to take`);
  return {
    environmentDir: env.context,
    dockerfile: path.relative(env.context, env.dockerfile),
    ...(env.setup.length ? { setup: env.setup } : {}),
  };
}

/** Plays the validation set and gives each eval's run records. */
export async function validate(
  evalSetFile: string,
  outDir: string,
  jobs: number | undefined,
): Promise<Map<string, ValidationRun[]>> {
  // The campaign's scratch folder (TMPDIR meanwhile) goes with it: the rewrite's gateways after
  // it make their sockets in the system's again.
  const before = process.env.TMPDIR;
  try {
    await runCampaign({
      scratch: useScratchFolder(),
      evalSetFile,
      outDir,
      ...(jobs === undefined ? {} : { jobs }),
    });
  } finally {
    if (before === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = before;
  }
  const byEval = new Map<string, ValidationRun[]>();
  for await (const { read } of readRuns(outDir)) {
    if (read.status !== 'ok') continue;
    const r = read.value.record;
    byEval.set(r.eval, [...(byEval.get(r.eval) ?? []), r]);
  }
  return byEval;
}
