/**
 * gh's help pages (pkg/cmd/root/help.go `rootHelpFunc`), as gh 2.78 prints them when stdout is
 * not a terminal: the description, `USAGE`, `ALIASES`, the subcommands by group, `FLAGS`,
 * `INHERITED FLAGS`, `JSON FIELDS`, `ARGUMENTS`, `EXAMPLES` and `LEARN MORE`, each titled
 * section indented by two spaces and followed by a blank line.
 */
import type { CommandSpec } from '../cli/args.js';
import { dedent, flagUsages, indent, useLine } from '../cli/usage.js';
import { HELP_TOPICS, ROOT, type CommandGroup, type SubCommand } from '../commands/tree.js';

const LEARN_MORE =
  'Use `gh <command> <subcommand> --help` for more information about a command.\n' +
  'Read the manual at https://cli.github.com/manual\n' +
  'Learn about exit codes using `gh help exit-codes`\n' +
  'Learn about accessibility experiences using `gh help accessibility`\n';

interface Entry {
  title: string;
  body: string;
}

/**
 * The help page of a command, or of a group when `group` is given (its spec is `group.spec`).
 *
 * @example helpPage(prCreate.spec) // 'Create a pull request on GitHub.\n\n…USAGE\n  gh pr create [flags]\n…'
 */
export function helpPage(spec: CommandSpec, group?: CommandGroup): string {
  const help = spec.help ?? { short: '' };
  const local = spec.flags.filter((f) => !f.inherited);
  const inherited = spec.flags.filter((f) => f.inherited);
  const entries: Entry[] = [];
  let long = help.long || help.short;
  if (long !== '' && local.some((f) => f.long === 'jq')) {
    long =
      long.replace(/\n+$/, '') +
      '\n\nFor more information about output formatting flags, see `gh help formatting`.';
  }
  if (long !== '') entries.push({ title: '', body: long });
  entries.push({ title: 'USAGE', body: useLine(spec) });
  if (help.aliases && help.aliases.length > 0) {
    // gh's BuildAliasList: each alias under its parent's path (no group here has aliases).
    const parent = spec.name.split(' ').slice(0, -1).join(' ');
    const body = help.aliases.map((a) => `gh ${parent} ${a}`).join(', ');
    entries.push({ title: 'ALIASES', body: `${body}\n` });
  }
  if (group) entries.push(...groupedCommands(group));
  if (group === ROOT) entries.push({ title: 'HELP TOPICS', body: helpTopics() });
  if (local.length > 0) entries.push({ title: 'FLAGS', body: dedent(flagUsages(local)) });
  if (inherited.length > 0) {
    entries.push({ title: 'INHERITED FLAGS', body: dedent(flagUsages(inherited)) });
  }
  if (spec.jsonFields) {
    entries.push({ title: 'JSON FIELDS', body: formatSlice([...spec.jsonFields].sort(), 80) });
  }
  if (group?.arguments) entries.push({ title: 'ARGUMENTS', body: group.arguments });
  if (help.example) entries.push({ title: 'EXAMPLES', body: help.example });
  entries.push({ title: 'LEARN MORE', body: LEARN_MORE });
  return entries
    .map((e) =>
      e.title === ''
        ? `${e.body}\n\n`
        : `${e.title}\n${indent(e.body.replace(/^[\r\n]+|[\r\n]+$/g, ''), '  ')}\n\n`,
    )
    .join('');
}

/** `name:` padded to 14 and a space, then the short text (gh's `rpad`). */
function line(c: { name: string; short: string }): string {
  return `${`${c.name}:`.padEnd(14)} ${c.short}`;
}

/** gh's `GroupedCommands`: each group's listed commands sorted by name, then the ungrouped. */
function groupedCommands(group: CommandGroup): Entry[] {
  const listed = group.commands
    .filter((c) => !c.hidden)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const entry = (title: string, cmds: SubCommand[]): Entry[] =>
    cmds.length > 0 ? [{ title: title.toUpperCase(), body: cmds.map(line).join('\n') }] : [];
  return [
    ...group.groups.flatMap((g) =>
      entry(
        g,
        listed.filter((c) => c.group === g),
      ),
    ),
    ...entry(
      group.groups.length > 0 ? 'Additional commands' : 'Available commands',
      listed.filter((c) => c.group === undefined),
    ),
  ];
}

/** The root's help topics: the hidden `accessibility` and `actions` commands and the topics. */
function helpTopics(): string {
  const hidden = ROOT.commands.filter((c) => c.name === 'accessibility' || c.name === 'actions');
  return [...hidden, ...HELP_TOPICS].map(line).sort().join('\n');
}

/**
 * gh's `text.FormatSlice(values, lineLength, 0, "", "", false)`: comma-separated, a line
 * broken before a value that would pass `lineLength`.
 */
export function formatSlice(values: string[], lineLength: number): string {
  if (values.length <= 1) return values[0] ?? '';
  let out = '';
  let len = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] ?? '';
    const last = i === values.length - 1;
    if (len === 0) {
      out += v + (last ? '' : ',');
      len += v.length + (last ? 0 : 1);
    } else if (len + 1 + v.length + (last ? 0 : 1) > lineLength) {
      out += '\n';
      len = 0;
      i--;
    } else {
      out += ` ${v}${last ? '' : ','}`;
      len += 1 + v.length + (last ? 0 : 1);
    }
  }
  return out;
}
