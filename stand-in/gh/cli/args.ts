import { GhError, NotPlayedError } from '../errors.js';
import { jsonFieldsMissing } from '../fields/select.js';
import { goQuote } from './quote.js';
import type { CommandSpec, FlagSpec, FlagType } from './spec.js';
import { usageString } from './usage.js';

export type { CommandHelp, CommandSpec, FlagSpec, FlagType } from './spec.js';

/** Parsed flags (last value wins; string slices accumulate) and positional arguments. */
export interface ParsedArgs {
  flags: Map<string, string | boolean>;
  /** Flags given on the line (cobra's `Changed`), in order. */
  changed: FlagSpec[];
  positional: string[];
  /**
   * True when the line asks for the command's help (`--help`, or an undeclared `-h`): gh then
   * prints the help, whatever else the line holds, once the flags before it parsed.
   */
  help: boolean;
}

/** A flag error: gh prints it, a blank line and the command's usage (with its flags table). */
export function flagError(spec: CommandSpec, message: string): GhError {
  return new GhError(message, 1, usageString(spec));
}

/**
 * Parses arguments as gh's flag library (pflag) does: long and short flags, `--flag=value`,
 * `-tvalue`, grouped short booleans (`-dt title`), flags anywhere among the arguments, and
 * `--` ending the flags; enum, bool and int values are checked as they are read, so the first
 * bad flag on the line is the one named. A flag gh has but the stand-in does not play is
 * refused once the whole line parsed (a parse error wins, as in gh), unless the line asks for
 * the help.
 */
export function parseArgs(spec: CommandSpec, argv: string[]): ParsedArgs {
  return new FlagParser(spec, argv).parse();
}

/** One line's parse: what was set so far, read left to right as pflag reads it. */
class FlagParser {
  private readonly flags = new Map<string, string | boolean>();
  private readonly changed: FlagSpec[] = [];
  private readonly positional: string[] = [];
  private readonly notPlayed: string[] = [];
  private readonly byLong: Map<string, FlagSpec>;
  private readonly byShort: Map<string, FlagSpec>;
  /** Set by an undeclared -h: the rest of the line is not read. */
  private askedHelp = false;

  constructor(
    private readonly spec: CommandSpec,
    private readonly argv: string[],
  ) {
    this.byLong = new Map(spec.flags.map((f) => [f.long, f]));
    this.byShort = new Map(spec.flags.filter((f) => f.short).map((f) => [f.short ?? '', f]));
  }

  parse(): ParsedArgs {
    const { argv, flags, changed, positional } = this;
    for (let i = 0; i < argv.length && !this.askedHelp; i++) {
      const arg = argv[i] ?? '';
      if (arg === '--') {
        positional.push(...argv.slice(i + 1));
        break;
      }
      if (arg.startsWith('--')) i = this.longFlag(arg, i);
      else if (arg.startsWith('-') && arg !== '-') i = this.shortFlags(arg, i);
      else positional.push(arg);
    }
    if (this.askedHelp) return { flags, changed, positional, help: true };
    // cobra checks `--help` once the flags parsed, before anything else is looked at.
    const help = flags.get('help') === true;
    if (this.notPlayed.length > 0 && !help) {
      throw new NotPlayedError(`"gh ${this.spec.name} ${this.notPlayed[0]}"`);
    }
    return { flags, changed, positional, help };
  }

  private fail(message: string): never {
    throw flagError(this.spec, message);
  }

  /** `--name`, `--name=value` or `--name value`; returns the index of the last argument read. */
  private longFlag(arg: string, i: number): number {
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    const f = this.byLong.get(name) ?? this.fail(`unknown flag: --${name}`);
    if (f.type === 'bool') this.set(f, eq < 0 ? true : arg.slice(eq + 1));
    else if (eq >= 0) this.set(f, arg.slice(eq + 1));
    else if (i + 1 < this.argv.length) this.set(f, this.argv[++i] ?? '');
    else throw missingValue(this.spec, f, `--${f.long}`);
    return i;
  }

  /** `-d`, grouped `-dt title`, `-tvalue`, `-t=value`; returns the index of the last argument read. */
  private shortFlags(arg: string, i: number): number {
    for (let j = 1; j < arg.length; j++) {
      const c = arg[j] ?? '';
      const f = this.byShort.get(c);
      if (!f) {
        // pflag stops at an undeclared -h and cobra answers with the help (flag.ErrHelp).
        if (c === 'h') {
          this.askedHelp = true;
          return i;
        }
        this.fail(`unknown shorthand flag: '${c}' in ${arg}`);
      }
      if (f.type === 'bool') {
        if (arg[j + 1] !== '=') {
          this.set(f, true);
          continue;
        }
        this.set(f, arg.slice(j + 2));
        return i;
      }
      const rest = arg.slice(j + 1);
      if (rest !== '') this.set(f, rest.startsWith('=') ? rest.slice(1) : rest);
      else if (i + 1 < this.argv.length) this.set(f, this.argv[++i] ?? '');
      else throw missingValue(this.spec, f, `'${c}' in ${arg}`);
      return i;
    }
    return i;
  }

  private set(f: FlagSpec, raw: string | boolean): void {
    if (!f.played) this.notPlayed.push(`--${f.long}`);
    if (!this.changed.includes(f)) this.changed.push(f);
    const value = this.checked(f, raw);
    const before = this.flags.get(f.long);
    // A string slice (`--json`) appends on each use, comma-separated values included.
    this.flags.set(
      f.long,
      f.type === 'stringSlice' && typeof before === 'string' ? `${before},${value}` : value,
    );
  }

  /** The value as the flag's type reads it; the first bad one on the line is the one named. */
  private checked(f: FlagSpec, raw: string | boolean): string | boolean {
    const name = f.short ? `-${f.short}, --${f.long}` : `--${f.long}`;
    const invalid = (why: string): never =>
      this.fail(`invalid argument ${goQuote(String(raw))} for "${name}" flag: ${why}`);
    if (f.type === 'bool') {
      if (typeof raw === 'boolean') return raw;
      if (/^(1|t|T|TRUE|true|True)$/.test(raw)) return true;
      if (/^(0|f|F|FALSE|false|False)$/.test(raw)) return false;
      return invalid(`strconv.ParseBool: parsing ${goQuote(raw)}: invalid syntax`);
    }
    const value = String(raw);
    if (f.enum && !f.enum.some((o) => o.toLowerCase() === value.toLowerCase())) {
      invalid(`valid values are {${f.enum.join('|')}}`);
    }
    if (f.type === 'int' && !/^[+-]?(0[xX][0-9a-fA-F]+|0[oO]?[0-7]+|0[bB][01]+|\d+)$/.test(value)) {
      invalid(`strconv.ParseInt: parsing ${goQuote(value)}: invalid syntax`);
    }
    return value;
  }
}

function missingValue(spec: CommandSpec, f: FlagSpec, what: string): GhError {
  // `--json` alone gets its own answer (gh's JSON flag error function): the list of fields.
  if (f.long === 'json' && what === '--json' && spec.jsonFields) {
    return jsonFieldsMissing(spec.jsonFields);
  }
  return flagError(spec, `flag needs an argument: ${what}`);
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

/** True when the flag was given on the line, whatever its value (cobra's `Changed`). */
export function given(args: ParsedArgs, long: string): boolean {
  return args.flags.has(long);
}

interface FlagOptions {
  def?: string;
  enum?: readonly string[];
  inherited?: boolean;
}

/** Declares a flag the stand-in plays. */
export const played = (
  long: string,
  type: FlagType,
  short: string | undefined,
  usage: string,
  opts: FlagOptions = {},
): FlagSpec => ({ long, short, type, usage, played: true, ...opts });

/** Declares a flag gh has and the stand-in does not play. */
export const notPlayed = (
  long: string,
  type: FlagType,
  short: string | undefined,
  usage: string,
  opts: FlagOptions = {},
): FlagSpec => ({ long, short, type, usage, played: false, ...opts });

/**
 * gh's `NoArgsQuoteReminder` (pkg/cmdutil/args.go): every stray argument named at once, and
 * the quoting hint only when a flag that takes a value was given.
 */
export function noArguments(spec: CommandSpec, args: ParsedArgs): void {
  const stray = args.positional;
  if (stray.length === 0) return;
  let message =
    stray.length === 1
      ? `unknown argument ${goQuote(stray[0] ?? '')}`
      : `unknown arguments [${stray.map(goQuote).join(' ')}]`;
  if (args.changed.some((f) => f.type !== 'bool')) {
    message += '; please quote all values that have spaces';
  }
  throw flagError(spec, message);
}

/** cobra's `MaximumNArgs(1)`: a plain error, no usage block. */
export function atMostOneArgument(args: ParsedArgs): string | undefined {
  if (args.positional.length > 1) {
    throw new GhError(`accepts at most 1 arg(s), received ${args.positional.length}`);
  }
  return args.positional[0];
}

/** cobra's `ExactArgs(0)`: a plain error, no usage block. */
export function exactlyNoArguments(args: ParsedArgs): void {
  if (args.positional.length > 0) {
    throw new GhError(`accepts 0 arg(s), received ${args.positional.length}`);
  }
}

/**
 * Reads a string-slice flag as pflag does: each value is one CSV record (`bug,"help wanted"`),
 * the values of repeated flags added up; an empty value adds nothing.
 */
export function list(args: ParsedArgs, long: string): string[] {
  const v = args.flags.get(long);
  if (typeof v !== 'string' || v === '') return [];
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < v.length; i++) {
    const c = v[i];
    if (quoted) {
      if (c === '"' && v[i + 1] === '"') field += v[++i];
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      out.push(field);
      field = '';
    } else field += c;
  }
  out.push(field);
  return out;
}
