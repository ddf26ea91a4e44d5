import type { RepoName } from '../git/index.js';

/** gh's `--json` fields for `repo view` (gh 2.78). */
export const REPO_FIELDS = [
  'archivedAt',
  'assignableUsers',
  'codeOfConduct',
  'contactLinks',
  'createdAt',
  'defaultBranchRef',
  'deleteBranchOnMerge',
  'description',
  'diskUsage',
  'forkCount',
  'fundingLinks',
  'hasDiscussionsEnabled',
  'hasIssuesEnabled',
  'hasProjectsEnabled',
  'hasWikiEnabled',
  'homepageUrl',
  'id',
  'isArchived',
  'isBlankIssuesEnabled',
  'isEmpty',
  'isFork',
  'isInOrganization',
  'isMirror',
  'isPrivate',
  'isSecurityPolicyEnabled',
  'isTemplate',
  'isUserConfigurationRepository',
  'issueTemplates',
  'issues',
  'labels',
  'languages',
  'latestRelease',
  'licenseInfo',
  'mentionableUsers',
  'mergeCommitAllowed',
  'milestones',
  'mirrorUrl',
  'name',
  'nameWithOwner',
  'openGraphImageUrl',
  'owner',
  'parent',
  'primaryLanguage',
  'projects',
  'projectsV2',
  'pullRequestTemplates',
  'pullRequests',
  'pushedAt',
  'rebaseMergeAllowed',
  'repositoryTopics',
  'securityPolicyUrl',
  'sshUrl',
  'squashMergeAllowed',
  'stargazerCount',
  'templateRepository',
  'updatedAt',
  'url',
  'usesCustomOpenGraphImage',
  'viewerCanAdminister',
  'viewerDefaultCommitEmail',
  'viewerDefaultMergeMethod',
  'viewerHasStarred',
  'viewerPermission',
  'viewerPossibleCommitEmails',
  'viewerSubscription',
  'visibility',
  'watchers',
] as const;

/** The repository fields the stand-in plays; every other one is refused as not played. */
const PLAYED = [
  'defaultBranchRef',
  'description',
  'id',
  'isArchived',
  'isFork',
  'isMirror',
  'isPrivate',
  'isTemplate',
  'name',
  'nameWithOwner',
  'owner',
  'parent',
  'sshUrl',
  'url',
  'viewerPermission',
] as const;

export const REPO_FIELDS_NOT_PLAYED: ReadonlySet<string> = new Set(
  REPO_FIELDS.filter((f) => !(PLAYED as readonly string[]).includes(f)),
);

/** The value of one repository field; the stand-in's repository is public, no fork, yours. */
export function repoFieldValue(
  field: string,
  repo: RepoName,
  defaultBranch: () => string,
): unknown {
  switch (field) {
    case 'defaultBranchRef':
      return { name: defaultBranch() };
    case 'description':
      return '';
    case 'id':
      return `R_stand_in_${repo.owner}_${repo.name}`;
    case 'isArchived':
    case 'isFork':
    case 'isMirror':
    case 'isPrivate':
    case 'isTemplate':
      return false;
    case 'name':
      return repo.name;
    case 'nameWithOwner':
      return `${repo.owner}/${repo.name}`;
    case 'owner':
      return { id: `U_stand_in_${repo.owner}`, login: repo.owner };
    case 'parent':
      return null;
    case 'sshUrl':
      return `git@github.com:${repo.owner}/${repo.name}.git`;
    case 'url':
      return `https://github.com/${repo.owner}/${repo.name}`;
    case 'viewerPermission':
      return 'ADMIN';
    default:
      throw new Error(`gh stand-in: no value for field ${field}`);
  }
}
