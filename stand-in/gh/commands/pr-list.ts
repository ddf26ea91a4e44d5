import { bool, flagError, given, noArguments, notPlayed, played, str } from '../cli/args.js';
import { NotPlayedError } from '../errors.js';
import { PR_FIELDS, PR_FIELDS_NOT_PLAYED, pick, prFieldValue } from '../fields/index.js';
import {
  diffSource,
  JSON_FLAGS,
  jsonRequest,
  labelSource,
  PR_COMMON_FLAGS,
  printJson,
} from './common.js';
import { baseRepo } from './repo-override.js';
import type { Command } from './types.js';

const spec: Command['spec'] = {
  name: 'pr list',
  use: 'list',
  help: {
    short: 'List pull requests in a repository',
    long: `List pull requests in a GitHub repository. By default, this only lists open PRs.

The search query syntax is documented here:
<https://docs.github.com/en/search-github/searching-on-github/searching-issues-and-pull-requests>
`,
    example: `# List PRs authored by you
$ gh pr list --author "@me"

# List PRs with a specific head branch name
$ gh pr list --head "typo"

# List only PRs with all of the given labels
$ gh pr list --label bug --label "priority 1"

# Filter PRs using search syntax
$ gh pr list --search "status:success review:required"

# Find a PR that introduced a given commit
$ gh pr list --search "<SHA>" --state merged
`,
    aliases: ['ls'],
  },
  jsonFields: PR_FIELDS,
  flags: [
    played('web', 'bool', 'w', 'List pull requests in the web browser'),
    played('limit', 'int', 'L', 'Maximum number of items to fetch', { def: '30' }),
    played('state', 'string', 's', 'Filter by state: {open|closed|merged|all}', {
      def: 'open',
      enum: ['open', 'closed', 'merged', 'all'],
    }),
    played('base', 'string', 'B', 'Filter by base branch'),
    played(
      'head',
      'string',
      'H',
      'Filter by head branch ("<owner>:<branch>" syntax not supported)',
    ),
    notPlayed('label', 'stringSlice', 'l', 'Filter by label'),
    notPlayed('author', 'string', 'A', 'Filter by author'),
    played('app', 'string', undefined, 'Filter by GitHub App author'),
    notPlayed('assignee', 'string', 'a', 'Filter by assignee'),
    notPlayed('search', 'string', 'S', 'Search pull requests with `query`'),
    played('draft', 'bool', 'd', 'Filter by draft state'),
    ...JSON_FLAGS,
    ...PR_COMMON_FLAGS,
  ],
};

/** `gh pr list` (alias `ls`): newest first; tab-separated lines, or `--json`. */
export const prList: Command = {
  spec,
  run(ctx, args) {
    noArguments(spec, args);
    const json = jsonRequest(args, PR_FIELDS, PR_FIELDS_NOT_PLAYED);
    const limit = parseGoInt(str(args, 'limit') ?? '30');
    if (limit < 1) throw flagError(spec, `invalid value for --limit: ${limit}`);
    if (given(args, 'author') && given(args, 'app')) {
      throw flagError(spec, 'specify only `--author` or `--app`');
    }
    if (given(args, 'app')) throw new NotPlayedError('"gh pr list --app"');
    if (bool(args, 'web')) throw new NotPlayedError('"gh pr list --web"');
    // gh lower-cases the state; closed asks GitHub for CLOSED and MERGED (pkg/cmd/pr/list/http.go).
    const state = (str(args, 'state') ?? 'open').toLowerCase();
    const states = {
      open: ['OPEN'],
      closed: ['CLOSED', 'MERGED'],
      merged: ['MERGED'],
      all: ['OPEN', 'CLOSED', 'MERGED'],
    }[state] as string[];
    // `--draft` is a nil-able bool: absent keeps all, `--draft=false` keeps non-drafts only.
    const draft = given(args, 'draft') ? bool(args, 'draft') : undefined;

    const name = baseRepo(ctx, args);
    const repo = ctx.repo();
    const head = str(args, 'head');
    const base = str(args, 'base');

    const record = ctx.store().read();
    const prs = record.pull_requests
      .filter(
        (p) =>
          states.includes(p.state) &&
          (!head || p.head === head) &&
          (!base || p.base === base) &&
          (draft === undefined || p.draft === draft),
      )
      // Plain code-unit order: localeCompare would load ICU's collator, a third of a call's cost.
      .sort((a, b) =>
        a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : b.number - a.number,
      )
      .slice(0, limit);

    if (json) {
      const src = { repo: name, diff: diffSource(repo), label: labelSource(record) };
      const rows = prs.map((p) => pick(json.fields, (f) => prFieldValue(f, p, src)));
      return { stdout: printJson(rows, json.jq) };
    }
    const lines = prs.map((p) => {
      const shown = p.state === 'OPEN' && p.draft ? 'DRAFT' : p.state;
      return `${p.number}\t${removeExcessiveWhitespace(p.title)}\t${p.head}\t${shown}\t${p.created_at}\n`;
    });
    return { stdout: lines.join('') };
  },
};

/** pflag's int: strconv.ParseInt with base 0 (checked for syntax while parsing). */
function parseGoInt(text: string): number {
  const m = /^([+-]?)(0[xX]|0[oO]|0[bB]|0(?=\d))?(.+)$/.exec(text);
  const radix = { '0x': 16, '0o': 8, '0b': 2, '0': 8 }[(m?.[2] ?? '').toLowerCase()] ?? 10;
  const n = parseInt(m?.[3] ?? text, radix);
  return m?.[1] === '-' ? -n : n;
}

/** gh's `text.RemoveExcessiveWhitespace`: trimmed, runs of Go's `\s` made one space. */
function removeExcessiveWhitespace(s: string): string {
  return s
    .replace(/^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/, '')
    .replace(/[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/, '')
    .replace(/[\t\n\f\r ]+/g, ' ');
}
