import { atMostOneArgument, notPlayed, type CommandSpec } from '../cli/args.js';
import { PR_FIELDS, PR_FIELDS_NOT_PLAYED, pick, prFieldValue } from '../fields/index.js';
import {
  diffSource,
  JSON_FLAGS,
  jsonRequest,
  PR_COMMON_FLAGS,
  printJson,
  selectPr,
} from './common.js';
import type { Command } from './types.js';

const spec: CommandSpec = {
  name: 'pr view',
  jsonFields: PR_FIELDS,
  flags: [
    ...JSON_FLAGS,
    notPlayed('comments', 'bool', 'c'),
    notPlayed('web', 'bool', 'w'),
    ...PR_COMMON_FLAGS,
  ],
};

/** `gh pr view [<number>|<url>|<branch>]`: `key:\tvalue` lines then the body, or `--json`. */
export const prView: Command = {
  spec,
  run(ctx, args) {
    const selector = atMostOneArgument(spec, args);
    const json = jsonRequest(args, PR_FIELDS, PR_FIELDS_NOT_PLAYED);
    const repo = ctx.repo();
    const name = repo.repoName();
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
