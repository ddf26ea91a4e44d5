/**
 * What `evalrig tasks from-history` gives the mining beside its flags: the validation, played
 * as a campaign.
 */
import { runCampaign } from '../../campaign/index.js';
import { readRuns } from '../../campaign-folder/index.js';
import type { ValidationRun } from '../../mine/index.js';
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
