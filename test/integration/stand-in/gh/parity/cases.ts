/**
 * The differential suite's runner: each case is a call whose answer gh's own source (cli/cli at
 * {@link GH_COMMIT}) determines without GitHub, run against the stand-in in a temporary
 * repository, compared byte for byte on stdout, stderr and the exit code.
 */
import { expect } from 'chai';
import { TempRepo, type GhRun } from '../support.js';

/** The cli/cli commit the cases were derived from (v2.60.0 and later revisions of its files). */
export const GH_COMMIT = '44ee17760709bedf1cad7e452e61751489b81a33';

/**
 * The cli/cli commit of the release the stand-in claims, v2.78.0: the help pages, the flags
 * tables, `-R`, labels and assignees cases cite it (`@2.78`).
 */
export const GH_278_COMMIT = '89512590addc159fff0f13acca811d803d592ff9';

/** One differential case. */
export interface ParityCase {
  name: string;
  /** The gh file (and test) the expected answer comes from, at {@link GH_COMMIT}. */
  cite: string;
  /** Prepares the repository (a `feature` branch is pushed unless `bare`). */
  setup?: (repo: TempRepo) => Promise<void>;
  /** Start from `main` only, no `feature` branch. */
  bare?: boolean;
  args: string[];
  input?: string;
  env?: Record<string, string>;
  /** Where to run (default: the work tree). */
  cwd?: (repo: TempRepo) => string;
  want: GhRun;
  /** Further checks on the repository after the call. */
  then?: (repo: TempRepo) => Promise<void>;
}

/** Registers the cases as mocha tests, one fresh repository each. */
export function runCases(title: string, cases: ParityCase[]): void {
  describe(`gh parity: ${title}`, function () {
    for (const c of cases) {
      it(`${c.name} [${c.cite}]`, async () => {
        const repo = await TempRepo.create();
        try {
          if (!c.bare) await repo.branch('feature');
          await c.setup?.(repo);
          const r = await repo.gh(c.args, { input: c.input, env: c.env, cwd: c.cwd?.(repo) });
          expect(r).to.deep.equal(c.want);
          await c.then?.(repo);
        } finally {
          await repo.remove();
        }
      });
    }
  });
}

/** A pull request of a prepared state. */
export function pr(
  number: number,
  head: string,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    number,
    title: `PR ${number}`,
    head,
    base: 'main',
    created_at: `2026-11-0${number}T10:00:00Z`,
    updated_at: `2026-11-0${number}T10:00:00Z`,
    ...extra,
  };
}

/** A successful answer on stdout. */
export const out = (stdout: string): GhRun => ({ stdout, stderr: '', exitCode: 0 });
/** A failure: stderr and exit 1. */
export const err = (stderr: string): GhRun => ({ stdout: '', stderr, exitCode: 1 });

/** A flag error: the message, a blank line, the usage block and the newline gh adds after it. */
export const flagErr = (message: string, usage: string): GhRun => err(`${message}\n\n${usage}\n`);

/**
 * A usage block as gh's `rootUsageFunc` prints it (pkg/cmd/root/help.go): the use line, then
 * pflag's flags table (v1.0.5 `FlagUsages`), dedented and indented by two spaces by go-gh's
 * `text.Indent`, whose `(?m)^` also matches after the last newline (hence the final `  `).
 */
export const usage = (useLine: string, table: string[]): string =>
  `Usage:  ${useLine}\n\nFlags:\n${table.map((l) => `${l}\n`).join('')}  `;

/** `gh pr list`'s flags (pkg/cmd/pr/list/list.go @2.78, pkg/cmdutil/json_flags.go). */
export const PR_LIST_USAGE = usage('gh pr list [flags]', [
  '      --app string        Filter by GitHub App author',
  '  -a, --assignee string   Filter by assignee',
  '  -A, --author string     Filter by author',
  '  -B, --base string       Filter by base branch',
  '  -d, --draft             Filter by draft state',
  '  -H, --head string       Filter by head branch ("<owner>:<branch>" syntax not supported)',
  '  -q, --jq expression     Filter JSON output using a jq expression',
  '      --json fields       Output JSON with the specified fields',
  '  -l, --label strings     Filter by label',
  '  -L, --limit int         Maximum number of items to fetch (default 30)',
  '  -S, --search query      Search pull requests with query',
  '  -s, --state string      Filter by state: {open|closed|merged|all} (default "open")',
  '  -t, --template string   Format JSON output using a Go template; see "gh help formatting"',
  '  -w, --web               List pull requests in the web browser',
]);

/** `gh pr create`'s flags (pkg/cmd/pr/create/create.go). */
export const PR_CREATE_USAGE = usage('gh pr create [flags]', [
  '  -a, --assignee login       Assign people by their login. Use "@me" to self-assign.',
  '  -B, --base branch          The branch into which you want your code merged',
  '  -b, --body string          Body for the pull request',
  '  -F, --body-file file       Read body text from file (use "-" to read from standard input)',
  '  -d, --draft                Mark pull request as a draft',
  '      --dry-run              Print details instead of creating the PR. May still push git changes.',
  '  -e, --editor               Skip prompts and open the text editor to write the title and body in. The first line is the title and the remaining text is the body.',
  '  -f, --fill                 Use commit info for title and body',
  '      --fill-first           Use first commit info for title and body',
  '      --fill-verbose         Use commits msg+body for description',
  '  -H, --head branch          The branch that contains commits for your pull request (default [current branch])',
  '  -l, --label name           Add labels by name',
  '  -m, --milestone name       Add the pull request to a milestone by name',
  "      --no-maintainer-edit   Disable maintainer's ability to modify pull request",
  '  -p, --project title        Add the pull request to projects by title',
  '      --recover string       Recover input from a failed run of create',
  '  -r, --reviewer handle      Request reviews from people or teams by their handle',
  '  -T, --template file        Template file to use as starting body text',
  '  -t, --title string         Title for the pull request',
  '  -w, --web                  Open the web browser to create a pull request',
]);

/** `gh pr ready`'s one flag: no shorthand anywhere, so `dedent` leaves two spaces. */
export const PR_READY_USAGE = usage('gh pr ready [<number> | <url> | <branch>] [flags]', [
  '  --undo   Convert a pull request to "draft"',
]);

/** `gh pr view`'s flags (pkg/cmd/pr/view/view.go, pkg/cmdutil/json_flags.go). */
export const PR_VIEW_USAGE = usage('gh pr view [<number> | <url> | <branch>] [flags]', [
  '  -c, --comments          View pull request comments',
  '  -q, --jq expression     Filter JSON output using a jq expression',
  '      --json fields       Output JSON with the specified fields',
  '  -t, --template string   Format JSON output using a Go template; see "gh help formatting"',
  '  -w, --web               Open a pull request in the browser',
]);

/** `gh auth status`'s flags (pkg/cmd/auth/status/status.go). */
export const AUTH_STATUS_USAGE = usage('gh auth status [flags]', [
  '  -a, --active            Display the active account only',
  "  -h, --hostname string   Check only a specific hostname's auth status",
  '  -t, --show-token        Display the auth token',
]);

/** `gh pr edit`'s flags (pkg/cmd/pr/edit/edit.go @2.78): no JSON flags. */
export const PR_EDIT_USAGE = usage('gh pr edit [<number> | <url> | <branch>] [flags]', [
  '      --add-assignee login      Add assigned users by their login. Use "@me" to assign yourself, or "@copilot" to assign Copilot.',
  '      --add-label name          Add labels by name',
  '      --add-project title       Add the pull request to projects by title',
  '      --add-reviewer login      Add reviewers by their login.',
  '  -B, --base branch             Change the base branch for this pull request',
  '  -b, --body string             Set the new body.',
  '  -F, --body-file file          Read body text from file (use "-" to read from standard input)',
  '  -m, --milestone name          Edit the milestone the pull request belongs to by name',
  '      --remove-assignee login   Remove assigned users by their login. Use "@me" to unassign yourself, or "@copilot" to unassign Copilot.',
  '      --remove-label name       Remove labels by name',
  '      --remove-milestone        Remove the milestone association from the pull request',
  '      --remove-project title    Remove the pull request from projects by title',
  '      --remove-reviewer login   Remove reviewers by their login.',
  '  -t, --title string            Set the new title.',
]);

/** `gh repo view`'s flags (pkg/cmd/repo/view/view.go). */
export const REPO_VIEW_USAGE = usage('gh repo view [<repository>] [flags]', [
  '  -b, --branch string     View a specific branch of the repository',
  '  -q, --jq expression     Filter JSON output using a jq expression',
  '      --json fields       Output JSON with the specified fields',
  '  -t, --template string   Format JSON output using a Go template; see "gh help formatting"',
  '  -w, --web               Open a repository in the browser',
]);
