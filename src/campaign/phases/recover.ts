/**
 * The `recover` phase of a campaign: the judge made ready (its key read, its
 * script checked) before anything runs, and what a campaign that died in this
 * folder left behind (its runs' quotas, its containers) removed.
 */
import type { EvalSet } from '../../config/index.js';
import { campaignFiles } from '../../campaign-folder/index.js';
import { sweepQuotas } from '../../workspace/index.js';
import { CampaignGrader } from '../../judge/index.js';
import { LABELS, type SandboxProvider } from '../../sandbox/index.js';
import { judgeGateway, type CampaignSpending } from './spending.js';

export async function recoverCampaign(
  outDir: string,
  evalSet: EvalSet,
  sandboxes: SandboxProvider,
  campaign: string,
  log: NodeJS.WritableStream,
  spending: CampaignSpending,
): Promise<CampaignGrader | undefined> {
  // The judge is made ready (its key read, its script checked) before anything runs.
  // It shares its upstream's limiter with the runs, and spends from the same budget.
  const grader = await CampaignGrader.prepare(evalSet, {
    campaign,
    outDir,
    log,
    gateway: judgeGateway(spending),
  });
  // A campaign that died left its runs' quotas mounted: unmount them first.
  await sweepQuotas(campaignFiles(outDir).work);
  // A campaign that died left containers behind: find them by label.
  const leftovers = await sandboxes.reap({ [LABELS.campaign]: campaign });
  if (leftovers > 0)
    log.write(
      `evalrig: removed ${leftovers} container(s) left by an earlier run of this campaign\n`,
    );
  return grader;
}
