import { NotPlayedError } from '../errors.js';
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
 * Finds the command of an argument line. Everything the stand-in does not play, known to gh
 * or not, is refused with {@link NotPlayedError}.
 */
export function dispatch(argv: string[]): Dispatch {
  const [first, second] = argv;
  if ((first === '--version' || first === 'version') && argv.length === 1) {
    return { command: version, rest: [] };
  }
  const command =
    first !== undefined && second !== undefined ? TABLE[`${first} ${second}`] : undefined;
  if (!command) {
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
