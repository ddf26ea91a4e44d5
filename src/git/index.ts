/**
 * The one way evalrig runs git: isolated from the operator's configuration
 * (see {@link runGit}), with a fixed identity for the commits it makes.
 */
export { git, runGit, GitError, type GitOptions, type GitResult } from './run.js';
export {
  DEFAULT_COMMIT_DATE,
  GLOBAL_CONFIG_TEXT,
  IDENTITY,
  gitHome,
  isolatedEnv,
  type GitHome,
} from './isolation.js';
