import { EvalrigError } from '../errors/index.js';
import type { ObjectSharing, ResolvedCodebase } from '../source/index.js';

/** A host file or folder placed into the work tree. */
export interface PlacedPath {
  /** Absolute host path (file or folder). */
  from: string;
  /** Path relative to the work tree. */
  to: string;
}

/** What one (eval, condition, run) workspace is made of. */
export interface WorkspaceSpec {
  /** Folder to create the workspace in (must not exist, or be empty). */
  root: string;
  /**
   * The codebase checkout; absent: a fresh `git init` repository holding only
   * the overlay. `cachePath` is what `materializeCodebase` returned;
   * `sharing` overrides how its pack is given (default: `defaultSharing()`,
   * hardlinks only when evalrig is root).
   */
  codebase?: { resolved: ResolvedCodebase; cachePath: string; sharing?: ObjectSharing };
  /** The eval's files, copied on top of the checkout. */
  overlay?: ReadonlyArray<PlacedPath>;
  /** The condition's staged paths, copied after the overlay. */
  staged?: ReadonlyArray<PlacedPath>;
  /** More work-tree paths forced into the baseline when present (harness config folders, e.g. '.claude'). */
  forcedPaths?: readonly string[];
  /** The local bare origin lives at `<root>/remote/<owner>/<name>.git`. */
  remote: { owner: string; name: string };
  /** URL `origin` is set to (default: the host path of the bare repository), e.g. where a container sees it. */
  originUrl?: string;
  /** A prepared state: this branch is created at the baseline, checked out and pushed to origin. */
  startBranch?: string;
  /** The baseline commit's message and identity; what is left out is {@link BASELINE_COMMIT}'s. */
  baselineCommit?: {
    message?: string;
    author?: { name: string; email: string };
  };
}

/** A prepared task repository. */
export interface Workspace {
  /** `<root>/work`. */
  workTree: string;
  /** Host path of the bare origin. */
  originPath: string;
  /** Branch checked out. */
  branch: string;
  /** The codebase branch (what a pull request targets). */
  baseBranch: string;
  /** Commit of refs/evalrig/baseline. */
  baseline: string;
  /** With a codebase: how the cache's pack was given (`copy` when any file was copied). */
  objects?: ObjectSharing;
}

/** How much changed in a work tree since its baseline. */
export interface DiffCounts {
  files_added: number;
  files_modified: number;
  files_deleted: number;
  lines_added: number;
  lines_removed: number;
  /** Non-ignored files not in the repository's index. */
  untracked: number;
}

/** What changed in a work tree since its baseline: the counts and the patch. */
export interface DiffMeasure extends DiffCounts {
  /** Patch against the baseline, untracked files included, capped; a cut is marked in the text. */
  patch: string;
  patch_truncated: boolean;
  /** Size of the whole patch, kept or not. */
  patch_bytes: number;
}

/** A workspace cannot be made or measured (a bad spec, a folder in the way, no baseline). */
export class WorkspaceError extends EvalrigError {}

/** The ref every workspace's baseline commit is marked with. */
export const BASELINE_REF = 'refs/evalrig/baseline';

/**
 * The baseline commit's message and identity (author and committer) by default: what an
 * ordinary project's commit would say. The agent reads it in git log, and a commit naming
 * evalrig or an evaluation would tell it that it is evaluated (a commit-style skill even
 * imitated it).
 */
export const BASELINE_COMMIT = {
  message: 'Add project files',
  author: { name: 'Alex Morgan', email: 'alex@example.com' },
} as const;
