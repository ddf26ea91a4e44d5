/**
 * The campaign folder's layout is src/campaign-folder's: the names the campaign uses are taken
 * from there. What is here is the container's side of a run.
 */
export {
  conditionsFile,
  runLayout,
  stopFileName,
  stopPatchPath,
  transcriptName,
  turnOutputName,
  type RunLayout,
} from '../campaign-folder/index.js';

/** Where things are mounted inside a run's container. */
export const CONTAINER = {
  evalSetDir: '/evalset',
  workRoot: '/work',
  remoteRoot: '/remote',
  home: '/home/evalrig',
  /** The run's sockets to the host (read only). */
  socketDir: '/run/evalrig',
} as const;
