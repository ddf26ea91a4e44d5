import { goQuote } from '../cli/quote.js';
import { GhError, NotPlayedError } from '../errors.js';
import { authStatus } from './auth-status.js';
import { prCreate } from './pr-create.js';
import { prEdit } from './pr-edit.js';
import { prList } from './pr-list.js';
import { prReady } from './pr-ready.js';
import { prView } from './pr-view.js';
import { repoView } from './repo-view.js';
import type { Command } from './types.js';
import { version } from './version.js';

export type { Answer, Command } from './types.js';

/** Command words (aliases included) to the command they play. */
const TABLE: Record<string, Command> = {
  'pr create': prCreate,
  'pr new': prCreate,
  'pr edit': prEdit,
  'pr list': prList,
  'pr ls': prList,
  'pr view': prView,
  'pr ready': prReady,
  'repo view': repoView,
  'auth status': authStatus,
};

/** The command an argument line asks for, with the arguments left for its flags. */
export interface Dispatch {
  command: Command;
  rest: string[];
}

/**
 * The subcommands of the groups the stand-in plays in, as gh's source adds them (pkg/cmd/pr/pr.go,
 * pkg/cmd/repo/repo.go, pkg/cmd/auth/auth.go), with their aliases; hidden ones are matched but
 * not listed.
 */
const GROUPS: Record<string, { name: string; aliases?: string[]; hidden?: boolean }[]> = {
  pr: [
    { name: 'list', aliases: ['ls'] },
    { name: 'create', aliases: ['new'] },
    { name: 'status' },
    { name: 'view' },
    { name: 'diff' },
    { name: 'checkout' },
    { name: 'checks' },
    { name: 'review' },
    { name: 'merge' },
    { name: 'update-branch' },
    { name: 'ready' },
    { name: 'comment' },
    { name: 'close' },
    { name: 'reopen' },
    { name: 'edit' },
    { name: 'lock' },
    { name: 'unlock' },
  ],
  repo: [
    { name: 'list', aliases: ['ls'] },
    { name: 'create', aliases: ['new'] },
    { name: 'view' },
    { name: 'clone' },
    { name: 'fork' },
    { name: 'set-default' },
    { name: 'sync' },
    { name: 'edit' },
    { name: 'deploy-key' },
    { name: 'license' },
    { name: 'gitignore' },
    { name: 'rename' },
    { name: 'archive' },
    { name: 'unarchive' },
    { name: 'delete' },
    { name: 'credits', hidden: true },
    { name: 'garden', hidden: true },
  ],
  auth: [
    { name: 'login' },
    { name: 'logout' },
    { name: 'status' },
    { name: 'refresh' },
    { name: 'git-credential', hidden: true },
    { name: 'setup-git' },
    { name: 'token' },
    { name: 'switch' },
  ],
};

/**
 * Finds the command of an argument line. An unknown word after a group gh has (`gh pr bogus`)
 * gets gh's answer; everything else the stand-in does not play, known to gh or not, is refused
 * with {@link NotPlayedError}.
 */
export function dispatch(argv: string[]): Dispatch {
  const [first, second] = argv;
  if ((first === '--version' || first === 'version') && argv.length === 1) {
    return { command: version, rest: [] };
  }
  const command =
    first !== undefined && second !== undefined ? TABLE[`${first} ${second}`] : undefined;
  if (!command) {
    const group = first !== undefined ? GROUPS[first] : undefined;
    if (
      group &&
      second !== undefined &&
      !second.startsWith('-') &&
      !group.some((c) => c.name === second || c.aliases?.includes(second))
    ) {
      throw new GhError(unknownCommand(first ?? '', second, group), 1);
    }
    const words = argv.slice(
      0,
      first !== undefined &&
        !first.startsWith('-') &&
        second !== undefined &&
        !second.startsWith('-')
        ? 2
        : 1,
    );
    throw new NotPlayedError(words.length > 0 ? `"gh ${words.join(' ')}"` : '"gh" with no command');
  }
  return { command, rest: argv.slice(2) };
}

/**
 * gh's `nestedSuggestFunc` (pkg/cmd/root/help.go): the unknown word, cobra's suggestions
 * (Levenshtein distance up to 2, or a prefix), and the group's usage with its commands sorted.
 * Returned without its final newline (the error printer adds it).
 */
function unknownCommand(
  group: string,
  word: string,
  commands: { name: string; hidden?: boolean }[],
): string {
  let out = `unknown command ${goQuote(word)} for "gh ${group}"\n`;
  const visible = commands.filter((c) => !c.hidden);
  const candidates =
    word === 'help'
      ? ['--help']
      : visible
          .filter(
            (c) =>
              levenshtein(word.toLowerCase(), c.name.toLowerCase()) <= 2 ||
              c.name.toLowerCase().startsWith(word.toLowerCase()),
          )
          .map((c) => c.name);
  if (candidates.length > 0) {
    out += '\nDid you mean this?\n' + candidates.map((c) => `\t${c}\n`).join('');
  }
  out += `\nUsage:  gh ${group} <command> [flags]\n\nAvailable commands:\n`;
  out += visible
    .map((c) => c.name)
    .sort()
    .map((n) => `  ${n}\n`)
    .join('');
  return out.slice(0, -1);
}

/** cobra's `ld`: the edit distance of two strings. */
function levenshtein(s: string, t: string): number {
  let prev = Array.from({ length: t.length + 1 }, (_, j) => j);
  for (let i = 1; i <= s.length; i++) {
    const row = [i];
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      row[j] = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
    }
    prev = row;
  }
  return prev[t.length] ?? 0;
}
