import type { RepoName } from '../git/index.js';
import type { PullRequest, RepoLabel } from '../store/index.js';

/** gh's `--json` fields for pull requests (gh 2.78). */
export const PR_FIELDS = [
  'additions',
  'assignees',
  'author',
  'autoMergeRequest',
  'baseRefName',
  'baseRefOid',
  'body',
  'changedFiles',
  'closed',
  'closedAt',
  'closingIssuesReferences',
  'comments',
  'commits',
  'createdAt',
  'deletions',
  'files',
  'fullDatabaseId',
  'headRefName',
  'headRefOid',
  'headRepository',
  'headRepositoryOwner',
  'id',
  'isCrossRepository',
  'isDraft',
  'labels',
  'latestReviews',
  'maintainerCanModify',
  'mergeCommit',
  'mergeStateStatus',
  'mergeable',
  'mergedAt',
  'mergedBy',
  'milestone',
  'number',
  'potentialMergeCommit',
  'projectCards',
  'projectItems',
  'reactionGroups',
  'reviewDecision',
  'reviewRequests',
  'reviews',
  'state',
  'statusCheckRollup',
  'title',
  'updatedAt',
  'url',
] as const;

/**
 * Fields the stand-in does not compute (GitHub's own judgement or commit objects it does not
 * build): asking for them is refused and recorded as not played.
 */
export const PR_FIELDS_NOT_PLAYED: ReadonlySet<string> = new Set([
  'commits',
  'mergeable',
  'mergeStateStatus',
  'potentialMergeCommit',
]);

/** What the remote and git say about a pull request's commits (computed only when asked). */
export interface PrDiff {
  headRefOid: string;
  baseRefOid: string;
  additions: number;
  deletions: number;
  files: { path: string; additions: number; deletions: number }[];
}

/** What a field's value may depend on besides the record. */
export interface PrFieldSource {
  repo: RepoName;
  diff: (pr: PullRequest) => PrDiff;
  /** The repository's label of a name a pull request carries. */
  label: (name: string) => Required<RepoLabel>;
}

/** The value of one `--json` field, in gh's shape. */
export function prFieldValue(field: string, pr: PullRequest, src: PrFieldSource): unknown {
  const closedAt = pr.state === 'OPEN' ? null : pr.updated_at;
  switch (field) {
    case 'additions':
      return src.diff(pr).additions;
    case 'deletions':
      return src.diff(pr).deletions;
    case 'changedFiles':
      return src.diff(pr).files.length;
    case 'files':
      return src.diff(pr).files;
    case 'headRefOid':
      return src.diff(pr).headRefOid;
    case 'baseRefOid':
      return src.diff(pr).baseRefOid;
    case 'author':
      return { id: userId(pr.author), is_bot: false, login: pr.author, name: '' };
    case 'baseRefName':
      return pr.base;
    case 'headRefName':
      return pr.head;
    case 'body':
      return pr.body;
    case 'closed':
      return pr.state !== 'OPEN';
    case 'closedAt':
      return closedAt;
    case 'mergedAt':
      return pr.state === 'MERGED' ? closedAt : null;
    case 'createdAt':
      return pr.created_at;
    case 'updatedAt':
      return pr.updated_at;
    case 'fullDatabaseId':
      return String(pr.number);
    case 'id':
      return `PR_stand_in_${pr.number}`;
    case 'headRepository':
      return { id: 'R_stand_in', name: src.repo.name };
    case 'headRepositoryOwner':
      return { id: `U_stand_in_${src.repo.owner}`, login: src.repo.owner };
    case 'isCrossRepository':
    case 'maintainerCanModify':
      return false;
    case 'isDraft':
      return pr.draft;
    case 'number':
      return pr.number;
    case 'state':
      return pr.state;
    case 'title':
      return pr.title;
    case 'url':
      return pr.url;
    case 'reviewDecision':
      return '';
    case 'autoMergeRequest':
    case 'mergeCommit':
    case 'mergedBy':
    case 'milestone':
      return null;
    case 'labels':
      return (pr.labels ?? []).map((n) => {
        const l = src.label(n);
        return { color: l.color, description: l.description, id: labelId(l.name), name: l.name };
      });
    case 'assignees':
      return (pr.assignees ?? []).map((login) => ({ id: userId(login), login, name: '' }));
    // Nothing in a run can add these: no review, comment, check or project exists.
    case 'closingIssuesReferences':
    case 'comments':
    case 'latestReviews':
    case 'projectCards':
    case 'projectItems':
    case 'reactionGroups':
    case 'reviewRequests':
    case 'reviews':
    case 'statusCheckRollup':
      return [];
    default:
      throw new Error(`gh stand-in: no value for field ${field}`);
  }
}

/** The stand-in's own node id of a user (not GitHub's). */
function userId(login: string): string {
  return `U_stand_in_${login}`;
}

/** The stand-in's own node id of a label (not GitHub's). */
function labelId(name: string): string {
  return `LA_stand_in_${name.replace(/\s/g, '_')}`;
}
