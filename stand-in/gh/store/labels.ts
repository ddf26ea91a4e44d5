/**
 * The labels a repository has in a run: GitHub's default labels (those of a new repository),
 * the state's own `labels` (the harness writes them from the eval's start state), and any label
 * a prepared pull request already carries. GitHub refuses a label the repository lacks.
 */
import type { RepoLabel, State } from './state.js';

/** GitHub's default labels, as a new repository has them. */
export const DEFAULT_LABELS: readonly Required<RepoLabel>[] = [
  { name: 'bug', description: "Something isn't working", color: 'd73a4a' },
  {
    name: 'documentation',
    description: 'Improvements or additions to documentation',
    color: '0075ca',
  },
  { name: 'duplicate', description: 'This issue or pull request already exists', color: 'cfd3d7' },
  { name: 'enhancement', description: 'New feature or request', color: 'a2eeef' },
  { name: 'good first issue', description: 'Good for newcomers', color: '7057ff' },
  { name: 'help wanted', description: 'Extra attention is needed', color: '008672' },
  { name: 'invalid', description: "This doesn't seem right", color: 'e4e669' },
  { name: 'question', description: 'Further information is requested', color: 'd876e3' },
  { name: 'wontfix', description: 'This will not be worked on', color: 'ffffff' },
];

/** GitHub's color of a label made with none given. */
const DEFAULT_COLOR = 'ededed';

/** Every label of the repository, each once (the state's own win over a default of that name). */
export function repoLabelsOf(state: State): Required<RepoLabel>[] {
  const byName = new Map<string, Required<RepoLabel>>();
  const add = (l: RepoLabel): void => {
    byName.set(l.name.toLowerCase(), {
      name: l.name,
      description: l.description ?? '',
      color: (l.color ?? DEFAULT_COLOR).toLowerCase(),
    });
  };
  DEFAULT_LABELS.forEach(add);
  state.labels?.forEach(add);
  for (const pr of state.pull_requests) {
    for (const name of pr.labels ?? []) if (!byName.has(name.toLowerCase())) add({ name });
  }
  return [...byName.values()];
}

/** The repository's label of that name, matched regardless of case (GitHub's `LabelsToIDs`). */
export function findLabel(state: State, name: string): Required<RepoLabel> | undefined {
  const key = name.toLowerCase();
  return repoLabelsOf(state).find((l) => l.name.toLowerCase() === key);
}
