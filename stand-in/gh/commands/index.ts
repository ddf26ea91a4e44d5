import { parseArgs, type CommandSpec, type ParsedArgs } from '../cli/args.js';
import { goQuote } from '../cli/quote.js';
import { GhError, NotPlayedError } from '../errors.js';
import { helpPage } from '../help/index.js';
import { authStatus } from './auth-status.js';
import { prCreate } from './pr-create.js';
import { prEdit } from './pr-edit.js';
import { prList } from './pr-list.js';
import { prReady } from './pr-ready.js';
import { prView } from './pr-view.js';
import { repoView } from './repo-view.js';
import { GROUPS, ROOT, type CommandGroup, type SubCommand } from './tree.js';
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

/** The record's name of a call answered with a help page. */
export const HELP_COMMAND = 'help';

/** A call answered with a help page, whatever its flags (they were parsed already). */
function helpAnswer(spec: CommandSpec, group?: CommandGroup): Dispatch {
  return {
    command: {
      spec: { name: HELP_COMMAND, use: '', flags: [] },
      run: () => ({ stdout: helpPage(spec, group) }),
    },
    rest: [],
  };
}

/** Parses a group's own flags (`gh pr -R x --help`); a line it cannot read is not played. */
function groupFlags(group: CommandGroup, rest: string[], what: string): ParsedArgs {
  try {
    return parseArgs(group.spec, rest);
  } catch (e) {
    if (e instanceof GhError) throw new NotPlayedError(what);
    throw e;
  }
}

/**
 * Finds the command of an argument line. The root and the groups the stand-in plays in answer
 * with their help page when asked (`gh`, `gh --help`, `gh pr`, `gh pr -h`, `gh help pr`), as
 * cobra does for a command that does not run; an unknown word after a group (`gh pr bogus`)
 * gets gh's answer; everything else the stand-in does not play, known to gh or not, is refused
 * with {@link NotPlayedError}.
 */
export function dispatch(argv: string[]): Dispatch {
  const [first, second] = argv;
  if (first === undefined) return helpAnswer(ROOT.spec, ROOT);
  if (first === 'help') return helpCommand(argv.slice(1));
  if (first === 'version' && argv.length === 1) return { command: version, rest: [] };
  if (first.startsWith('-')) return rootFlags(argv);
  const command = second !== undefined ? TABLE[`${first} ${second}`] : undefined;
  if (command) return { command, rest: argv.slice(2) };
  const group = GROUPS[first];
  if (!group) throw new NotPlayedError(`"gh ${first}"`);
  const sub = second !== undefined && !second.startsWith('-') ? second : undefined;
  const what = sub !== undefined ? `"gh ${first} ${sub}"` : `"gh ${first}"`;
  const known = (w: string): boolean =>
    group.commands.some((c) => c.name === w || c.aliases?.includes(w));
  if (sub !== undefined && known(sub)) throw new NotPlayedError(what);
  // cobra: a group runs nothing; with no word it shows its help, with an unknown one it says so.
  const args = groupFlags(group, argv.slice(sub !== undefined ? 2 : 1), what);
  const word = sub ?? args.positional[0];
  if (args.help || word === undefined) return helpAnswer(group.spec, group);
  if (known(word)) throw new NotPlayedError(what);
  throw new GhError(unknownCommand(first, word, group.commands), 1);
}

/** `gh --help`, `gh -h`, `gh --version` (with `--help` too: gh's help function prints it). */
function rootFlags(argv: string[]): Dispatch {
  const what = `"gh ${argv[0] ?? ''}"`;
  const args = groupFlags(ROOT, argv, what);
  if (args.positional.length > 0) throw new NotPlayedError(what);
  if (args.flags.get('version') === true) return { command: version, rest: [] };
  if (args.help) return helpAnswer(ROOT.spec, ROOT);
  throw new NotPlayedError(what);
}

/**
 * `gh help [<command> [<subcommand>]]`: cobra's help command prints the page of the command the
 * words name (aliases resolved); pages of commands the stand-in does not play are refused.
 */
function helpCommand(words: string[]): Dispatch {
  const [first, second, ...more] = words;
  if (first === undefined) return helpAnswer(ROOT.spec, ROOT);
  const group = GROUPS[first];
  if (group && second === undefined) return helpAnswer(group.spec, group);
  const command = second !== undefined ? TABLE[`${first} ${second}`] : undefined;
  if (command && more.length === 0) return helpAnswer(command.spec);
  throw new NotPlayedError(`"gh help ${words.join(' ')}"`);
}

/**
 * gh's `nestedSuggestFunc` (pkg/cmd/root/help.go): the unknown word, cobra's suggestions
 * (Levenshtein distance up to 2, or a prefix), and the group's usage with its commands sorted.
 * Returned without its final newline (the error printer adds it).
 */
function unknownCommand(group: string, word: string, commands: SubCommand[]): string {
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
