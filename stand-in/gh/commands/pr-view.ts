import { atMostOneArgument, notPlayed, type CommandSpec } from '../cli/args.js';
import { PR_FIELDS, PR_FIELDS_NOT_PLAYED, pick, prFieldValue } from '../fields/index.js';
import {
  diffSource,
  JSON_FLAGS,
  jsonRequest,
  PR_COMMON_FLAGS,
  numberOf,
  printJson,
  selectPr,
} from './common.js';
import type { Command } from './types.js';

const spec: CommandSpec = {
  name: 'pr view',
  use: 'view [<number> | <url> | <branch>]',
  jsonFields: PR_FIELDS,
  flags: [
    notPlayed('web', 'bool', 'w', 'Open a pull request in the browser'),
    notPlayed('comments', 'bool', 'c', 'View pull request comments'),
    ...JSON_FLAGS,
    ...PR_COMMON_FLAGS,
  ],
};

/** `gh pr view [<number>|<url>|<branch>]`: `key:\tvalue` lines then the body, or `--json`. */
export const prView: Command = {
  spec,
  run(ctx, args) {
    const selector = atMostOneArgument(args);
    const json = jsonRequest(args, PR_FIELDS, PR_FIELDS_NOT_PLAYED);
    const repo = ctx.repo();
    const name = repo.repoName();
    // gh answers `--json number` for a number or URL without asking GitHub (shared/finder.go).
    const only = json && json.fields.length === 1 && json.fields[0] === 'number';
    const number = only ? numberOf(ctx, selector, name) : undefined;
    if (number !== undefined) {
      ctx.notes.pr = number;
      return { stdout: printJson({ number }, json?.jq) };
    }
    const pr = selectPr(ctx, ctx.store().read(), name, selector);
    ctx.notes.pr = pr.number;
    const src = { repo: name, diff: diffSource(repo) };
    if (json)
      return {
        stdout: printJson(
          pick(json.fields, (f) => prFieldValue(f, pr, src)),
          json.jq,
        ),
      };
    const diff = src.diff(pr);
    const lines = [
      `title:\t${pr.title}`,
      `state:\t${pr.state === 'OPEN' && pr.draft ? 'DRAFT' : pr.state}`,
      `author:\t${pr.author}`,
      'labels:\t',
      'assignees:\t',
      'reviewers:\t',
      'projects:\t',
      'milestone:\t',
      `number:\t${pr.number}`,
      `url:\t${pr.url}`,
      `additions:\t${diff.additions}`,
      `deletions:\t${diff.deletions}`,
      'auto-merge:\tdisabled',
      '--',
      pr.body,
    ];
    return { stdout: lines.join('\n') + '\n' };
  },
};
