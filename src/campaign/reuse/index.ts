/**
 * Reuse by fingerprint (`evalrig run --reuse <folder>`): every run's inputs hashed before any
 * plays (recorded in its run.json), and a finished run of an earlier campaign whose every input
 * is identical copied instead of replayed, through src/campaign-folder.
 *
 * ```ts
 * const fp = fingerprintOf(runInputs(sources, planned)); // { sha256, inputs }
 * const decision = await decideRun(await reuseSources(outDir, ['out/first']), planned, fp);
 * if (decision.kind === 'play') console.log(decision.why); // '.claude/skills/tdd/SKILL.md changed'
 * ```
 */
export {
  canonicalJson,
  changedInputs,
  describeInput,
  fingerprintOf,
  hashValue,
  FILE_INPUT,
  NAMED_INPUTS,
  type Fingerprint,
  type FingerprintInputs,
  type InputChanges,
} from './fingerprint.js';
export { FOLDER_CAPS, folderHashes, placedHashes, type FolderHashes } from './files.js';
export { gradingChanges, type JudgeNow } from './grading.js';
export { runInputs, type FileSources, type InputSources } from './inputs.js';
export {
  decideRun,
  describeChanges,
  reuseSources,
  type ReuseSource,
  type RunDecision,
} from './match.js';
export { reuseLine, type Decided } from './say.js';
export { campaignFileInputs, type CampaignFiles } from './sources.js';
