/** A gh command as its source declares it: its flags and its help texts. Types only, below the parser and the usage printer. */

/** pflag's value types, as its usage table names them. */
export type FlagType = 'bool' | 'string' | 'stringSlice' | 'int';

/** One flag of a gh command, as the command's source declares it. */
export interface FlagSpec {
  long: string;
  short?: string;
  type: FlagType;
  /** gh's usage text (a back-quoted word names the value, as pflag reads it). */
  usage: string;
  /** The default value when it is not the type's zero value (pflag prints it). */
  def?: string;
  /** Values an enum flag accepts (matched case-insensitively, as gh's StringEnumFlag does). */
  enum?: readonly string[];
  /** False for flags gh has and the stand-in does not play (refused, recorded as such). */
  played: boolean;
  /** A flag of a parent command (`--repo`, `--help`): parsed, not in the command's own table. */
  inherited?: boolean;
}

/** What gh's help shows of a command besides its flags (cobra's `Short`, `Long`, `Example`). */
export interface CommandHelp {
  short: string;
  /** The description, as gh's `heredoc` leaves it (a final newline included). */
  long?: string;
  example?: string;
  /** cobra's `Aliases` (`ls`), shown with the parent's path (`gh pr ls`). */
  aliases?: readonly string[];
}

/** A command as gh's parser sees it. */
export interface CommandSpec {
  /** The canonical command, as recorded (`pr create`). */
  name: string;
  /** cobra's `Use` of the command (`view [<number> | <url> | <branch>]`). */
  use: string;
  flags: FlagSpec[];
  /** gh's `--json` fields of the command, when it has `--json`. */
  jsonFields?: readonly string[];
  /** Its help page's texts (commands the stand-in answers `--help` for). */
  help?: CommandHelp;
}
