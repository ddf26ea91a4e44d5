import { GhError, NotPlayedError } from '../errors.js';
import { jsonFieldsMissing } from '../fields/select.js';

/** One flag of a gh command. */
export interface FlagSpec {
  long: string;
  short?: string;
  /** `bool` flags take no value (`--draft`, `--draft=false`); `string` ones take one. */
  kind: 'bool' | 'string';
  /** False for flags gh has and the stand-in does not play (refused, recorded as such). */
  played: boolean;
}

/** A command as gh's parser sees it. */
export interface CommandSpec {
  /** The canonical command, as recorded (`pr create`). */
  name: string;
  flags: FlagSpec[];
  /** gh's `--json` fields of the command, when it has `--json`. */
  jsonFields?: readonly string[];
}

/** Parsed flags (last value wins) and positional arguments. */
export interface ParsedArgs {
  flags: Map<string, string | boolean>;
  positional: string[];
}

/** gh's usage line for a command, printed after a flag error. */
export function usageOf(spec: CommandSpec): string {
  const args =
    spec.name === 'pr create' || spec.name === 'pr list' ? '' : ' [<number> | <url> | <branch>]';
  const arg = spec.name.startsWith('pr ')
    ? args
    : spec.name === 'repo view'
      ? ' [<repository>]'
      : '';
  return `Usage:  gh ${spec.name}${arg} [flags]`;
}

/**
 * Parses arguments as gh's flag library does: long and short flags, `--flag=value`,
 * `-tvalue`, grouped short booleans (`-dt title`), flags anywhere among the arguments, and
 * `--` ending the flags. Errors are gh's own; a flag gh has but the stand-in does not play
 * is refused once the whole line parsed (a parse error wins, as in gh).
 */
export function parseArgs(spec: CommandSpec, argv: string[]): ParsedArgs {
  const flags = new Map<string, string | boolean>();
  const positional: string[] = [];
  const notPlayed: string[] = [];
  const usage = usageOf(spec);
  const byLong = new Map(spec.flags.map((f) => [f.long, f]));
  const byShort = new Map(spec.flags.filter((f) => f.short).map((f) => [f.short ?? '', f]));

  const set = (f: FlagSpec, value: string | boolean): void => {
    if (!f.played) notPlayed.push(`--${f.long}`);
    flags.set(f.long, value);
  };
  const boolValue = (f: FlagSpec, raw: string): boolean => {
    if (/^(1|t|T|TRUE|true|True)$/.test(raw)) return true;
    if (/^(0|f|F|FALSE|false|False)$/.test(raw)) return false;
    const name = f.short ? `-${f.short}, --${f.long}` : `--${f.long}`;
    throw new GhError(
      `invalid argument ${JSON.stringify(raw)} for "${name}" flag: strconv.ParseBool: parsing ${JSON.stringify(raw)}: invalid syntax`,
      1,
      usage,
    );
  };

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      const f = byLong.get(name);
      if (!f) throw new GhError(`unknown flag: --${name}`, 1, usage);
      if (f.kind === 'bool') set(f, eq < 0 ? true : boolValue(f, arg.slice(eq + 1)));
      else if (eq >= 0) set(f, arg.slice(eq + 1));
      else if (i + 1 < argv.length) set(f, argv[++i] ?? '');
      else throw missingValue(spec, f, `--${f.long}`, usage);
      continue;
    }
    if (arg.startsWith('-') && arg !== '-') {
      for (let j = 1; j < arg.length; j++) {
        const c = arg[j] ?? '';
        const f = byShort.get(c);
        if (!f) throw new GhError(`unknown shorthand flag: '${c}' in ${arg}`, 1, usage);
        if (f.kind === 'bool') {
          if (arg[j + 1] === '=') {
            set(f, boolValue(f, arg.slice(j + 2)));
            break;
          }
          set(f, true);
          continue;
        }
        const rest = arg.slice(j + 1);
        if (rest !== '') set(f, rest.startsWith('=') ? rest.slice(1) : rest);
        else if (i + 1 < argv.length) set(f, argv[++i] ?? '');
        else throw missingValue(spec, f, `'${c}' in ${arg}`, usage);
        break;
      }
      continue;
    }
    positional.push(arg);
  }
  if (notPlayed.length > 0) throw new NotPlayedError(`"gh ${spec.name} ${notPlayed[0]}"`);
  return { flags, positional };
}

function missingValue(spec: CommandSpec, f: FlagSpec, what: string, usage: string): GhError {
  // `--json` alone gets its own answer: the list of fields.
  if (f.long === 'json' && spec.jsonFields) return jsonFieldsMissing(spec.jsonFields);
  return new GhError(`flag needs an argument: ${what}`, 1, usage);
}

/** Reads a string flag. */
export function str(args: ParsedArgs, long: string): string | undefined {
  const v = args.flags.get(long);
  return typeof v === 'string' ? v : undefined;
}

/** Reads a bool flag. */
export function bool(args: ParsedArgs, long: string): boolean {
  return args.flags.get(long) === true;
}

/** Short-hands to declare flags. */
export const played = (long: string, kind: FlagSpec['kind'], short?: string): FlagSpec => ({
  long,
  short,
  kind,
  played: true,
});
export const notPlayed = (long: string, kind: FlagSpec['kind'], short?: string): FlagSpec => ({
  long,
  short,
  kind,
  played: false,
});

/** gh's answer to positional arguments a command does not take. */
export function noArguments(spec: CommandSpec, args: ParsedArgs): void {
  const first = args.positional[0];
  if (first !== undefined) {
    throw new GhError(
      `unknown argument ${JSON.stringify(first)}; please quote all values that have spaces`,
      1,
      usageOf(spec),
    );
  }
}

/** cobra's answer to more than one positional argument. */
export function atMostOneArgument(spec: CommandSpec, args: ParsedArgs): string | undefined {
  if (args.positional.length > 1) {
    throw new GhError(
      `accepts at most 1 arg(s), received ${args.positional.length}`,
      1,
      usageOf(spec),
    );
  }
  return args.positional[0];
}
