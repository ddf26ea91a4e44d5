import {
  bool,
  noArguments,
  notPlayed,
  played,
  str,
  usageOf,
  type CommandSpec,
} from '../cli/args.js';
import { GhError } from '../errors.js';
import { PR_FIELDS, PR_FIELDS_NOT_PLAYED, pick, prFieldValue } from '../fields/index.js';
import { diffSource, JSON_FLAGS, jsonRequest, PR_COMMON_FLAGS, printJson } from './common.js';
import type { Command } from './types.js';

const spec: CommandSpec = {
  name: 'pr list',
  jsonFields: PR_FIELDS,
  flags: [
    played('state', 'string', 's'),
    played('head', 'string', 'H'),
    played('base', 'string', 'B'),
    played('draft', 'bool', 'd'),
    played('limit', 'string', 'L'),
    ...JSON_FLAGS,
    notPlayed('author', 'string', 'A'),
    notPlayed('assignee', 'string', 'a'),
    notPlayed('label', 'string', 'l'),
    notPlayed('search', 'string', 'S'),
    notPlayed('app', 'string'),
    notPlayed('web', 'bool', 'w'),
    ...PR_COMMON_FLAGS,
  ],
};

const STATES = ['open', 'closed', 'merged', 'all'];

/** `gh pr list` (alias `ls`): newest first; tab-separated lines, or `--json`. */
export const prList: Command = {
  spec,
  run(ctx, args) {
    noArguments(spec, args);
    const state = str(args, 'state') ?? 'open';
    if (!STATES.includes(state)) {
      throw new GhError(
        `invalid argument ${JSON.stringify(state)} for "-s, --state" flag: valid values are {open|closed|merged|all}`,
        1,
        usageOf(spec),
      );
    }
    const limitText = str(args, 'limit') ?? '30';
    if (!/^[+-]?\d+$/.test(limitText)) {
      throw new GhError(
        `invalid argument ${JSON.stringify(limitText)} for "-L, --limit" flag: strconv.ParseInt: parsing ${JSON.stringify(limitText)}: invalid syntax`,
        1,
        usageOf(spec),
      );
    }
    const limit = Number(limitText);
    if (limit <= 0) throw new GhError(`invalid value for --limit: ${limit}`, 1, usageOf(spec));
    const json = jsonRequest(args, PR_FIELDS, PR_FIELDS_NOT_PLAYED);

    const repo = ctx.repo();
    const name = repo.repoName();
    const head = str(args, 'head');
    const base = str(args, 'base');
    const draftOnly = bool(args, 'draft');
    const prs = ctx
      .store()
      .read()
      .pull_requests.filter(
        (p) =>
          (state === 'all' || p.state === state.toUpperCase()) &&
          (head === undefined || p.head === head) &&
          (base === undefined || p.base === base) &&
          (!draftOnly || p.draft),
      )
      // Plain code-unit order: localeCompare would load ICU's collator, a third of a call's cost.
      .sort((a, b) =>
        a.created_at < b.created_at ? 1 : a.created_at > b.created_at ? -1 : b.number - a.number,
      )
      .slice(0, limit);

    if (json) {
      const src = { repo: name, diff: diffSource(repo) };
      const rows = prs.map((p) => pick(json.fields, (f) => prFieldValue(f, p, src)));
      return { stdout: printJson(rows, json.jq) };
    }
    const lines = prs.map((p) => {
      const shown = p.state === 'OPEN' && p.draft ? 'DRAFT' : p.state;
      return `${p.number}\t${p.title}\t${p.head}\t${shown}\t${p.created_at}\n`;
    });
    return { stdout: lines.join('') };
  },
};
