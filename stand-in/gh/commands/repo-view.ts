import { atMostOneArgument, notPlayed } from '../cli/args.js';
import { NotPlayedError } from '../errors.js';
import { pick, REPO_FIELDS, REPO_FIELDS_NOT_PLAYED, repoFieldValue } from '../fields/index.js';
import type { RepoContext, RepoName } from '../git/index.js';
import { HELP_FLAG, JSON_FLAGS, jsonRequest, printJson } from './common.js';
import type { Command } from './types.js';

const spec: Command['spec'] = {
  name: 'repo view',
  use: 'view [<repository>]',
  help: {
    short: 'View a repository',
    long: `Display the description and the README of a GitHub repository.

With no argument, the repository for the current directory is displayed.

With \`--web\`, open the repository in a web browser instead.

With \`--branch\`, view a specific branch of the repository.
`,
  },
  jsonFields: REPO_FIELDS,
  flags: [
    notPlayed('web', 'bool', 'w', 'Open a repository in the browser'),
    notPlayed('branch', 'string', 'b', 'View a specific branch of the repository'),
    ...JSON_FLAGS,
    HELP_FLAG,
  ],
};

/** `gh repo view` of the origin repository: `name:`/`description:` lines and the README. */
export const repoView: Command = {
  spec,
  run(ctx, args) {
    const which = atMostOneArgument(args);
    const json = jsonRequest(args, REPO_FIELDS, REPO_FIELDS_NOT_PLAYED);
    const repo = ctx.repo();
    const name = repo.repoName();
    if (which !== undefined && !names(which, name)) {
      throw new NotPlayedError(`"gh repo view" of another repository (${which})`);
    }
    const defaultBranch = (): string => repo.defaultBranch();
    if (json) {
      return {
        stdout: printJson(
          pick(json.fields, (f) => repoFieldValue(f, name, defaultBranch)),
          json.jq,
        ),
      };
    }
    let out = `name:\t${name.owner}/${name.name}\ndescription:\t\n`;
    const readme = readReadme(repo);
    // gh passes the README to Fprintf as its format (pkg/cmd/repo/view/view.go), so its `%`s
    // come out as Go prints verbs given no argument.
    if (readme !== undefined) out += `--\n${goSprintfNoArgs(readme)}\n`;
    return { stdout: out };
  },
};

function names(arg: string, r: RepoName): boolean {
  const m = /^(?:https?:\/\/[^/]+\/|[^/]+\.[^/]+\/)?([^/]+)\/([^/]+?)(?:\.git)?\/?$/.exec(arg);
  return (
    m !== null &&
    m[1]?.toLowerCase() === r.owner.toLowerCase() &&
    m[2]?.toLowerCase() === r.name.toLowerCase()
  );
}

/** The README at the tip of the remote's default branch, as GitHub would show it. */
function readReadme(repo: RepoContext): string | undefined {
  const tip = repo.remoteBranchCommit(repo.defaultBranch());
  if (tip === undefined) return undefined;
  const tree = repo.git(['ls-tree', '--name-only', tip]);
  if (tree.status !== 0) return undefined;
  const file = tree.stdout
    .split('\n')
    .find((f) => /^readme(\.(md|markdown|txt|rst|adoc))?$/i.test(f));
  if (file === undefined) return undefined;
  const blob = repo.git(['cat-file', 'blob', `${tip}:${file}`]);
  return blob.status === 0 ? blob.stdout : undefined;
}

/**
 * Go's `fmt.Sprintf(format)` with no argument: `%%` is `%`, a verb (after flags, width and
 * precision) is `%!v(MISSING)`, a `*` width or precision `%!(BADWIDTH)`/`%!(BADPREC)`, a `%`
 * at the end `%!(NOVERB)`.
 */
export function goSprintfNoArgs(format: string): string {
  let out = '';
  const chars = [...format];
  for (let i = 0; i < chars.length; i++) {
    const c = chars[i] ?? '';
    if (c !== '%') {
      out += c;
      continue;
    }
    i++;
    while (i < chars.length && '+-# 0'.includes(chars[i] ?? '')) i++;
    if (chars[i] === '*') {
      out += '%!(BADWIDTH)';
      i++;
    } else while (i < chars.length && /\d/.test(chars[i] ?? '')) i++;
    if (chars[i] === '.') {
      i++;
      if (chars[i] === '*') {
        out += '%!(BADPREC)';
        i++;
      } else while (i < chars.length && /\d/.test(chars[i] ?? '')) i++;
    }
    if (i >= chars.length) {
      out += '%!(NOVERB)';
      break;
    }
    const verb = chars[i] ?? '';
    out += verb === '%' ? '%' : `%!${verb}(MISSING)`;
  }
  return out;
}
