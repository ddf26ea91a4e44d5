// Generated from state.schema.json by scripts/generate-types.mjs: do not edit.
// Change the schema, then run `npm run build` (or node scripts/generate-types.mjs).

/**
 * RFC 3339 in UTC with no fraction of a second, as GitHub prints it.
 */
export type Timestamp = string;
/**
 * The names of its labels, as the repository spells them.
 */
export type Names = string[];
/**
 * The logins assigned to it.
 */
export type Names1 = string[];

/**
 * The pull requests the gh stand-in knows. As the stand-in writes it every field is present; a prepared state written before a run may leave out version, next_number, created_at, updated_at, url and author (see preparedState). Labels (the repository's own, besides GitHub's default labels) and a pull request's labels and assignees are left out when there are none.
 */
export interface GhState {
  version: 1;
  /**
   * The number the next opening gets (greater than every number below).
   */
  next_number: number;
  /**
   * Labels the repository has besides GitHub's default ones (bug, documentation, duplicate, enhancement, good first issue, help wanted, invalid, question, wontfix).
   */
  labels?: RepoLabel[];
  pull_requests: PullRequest[];
}
export interface RepoLabel {
  name: string;
  description?: string;
  color?: string;
}
export interface PullRequest {
  number: number;
  title: string;
  /**
   * The description.
   */
  body: string;
  /**
   * The head branch.
   */
  head: string;
  /**
   * The base branch.
   */
  base: string;
  draft: boolean;
  state: 'OPEN' | 'CLOSED' | 'MERGED';
  created_at: Timestamp;
  updated_at: Timestamp;
  url: string;
  /**
   * The login that opened it.
   */
  author: string;
  labels?: Names;
  assignees?: Names1;
}
