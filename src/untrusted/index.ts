/**
 * Reading what a run could write (its repository, the gh stand-in's record)
 * as untrusted data: regular files only, no link followed, nothing that can
 * block, sizes capped; git's files parsed and validated without running git.
 */
export {
  UntrustedFileError,
  isRealFolder,
  readUntrustedFile,
  readUntrustedText,
  type UntrustedReadOptions,
} from './read.js';
export { checkObjectFolder, readHead, readRef, type HeadState } from './git-files.js';
export { withoutEscapes } from './terminal.js';
