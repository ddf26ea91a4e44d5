/**
 * The usage block gh prints after a flag error (pkg/cmd/root/help.go `rootUsageFunc`): the
 * command's use line, then its own flags as pflag's `FlagUsages` lays them out, dedented and
 * indented by two spaces.
 */
import type { CommandSpec, FlagSpec } from './spec.js';

/** `Usage:  gh pr list [flags]` and the `Flags:` table, as cobra's `UsageString` returns it. */
export function usageString(spec: CommandSpec): string {
  let out = `Usage:  ${useLine(spec)}`;
  const local = spec.flags.filter((f) => !f.inherited);
  if (local.length > 0) out += `\n\nFlags:\n${indent(dedent(flagUsages(local)), '  ')}`;
  return out;
}

/** cobra's `UseLine`: the command path, its `Use` arguments, and `[flags]`. */
export function useLine(spec: CommandSpec): string {
  const parent = spec.name.split(' ').slice(0, -1).join(' ');
  const line = `gh ${parent ? `${parent} ` : ''}${spec.use}`;
  // Every gh command has flags (`--help` is inherited from the root).
  return line.includes('[flags]') ? line : `${line} [flags]`;
}

/** pflag's `FlagUsages` (v1.0.5, no wrapping): sorted by name, usages aligned. */
export function flagUsages(flags: FlagSpec[]): string {
  const lines = [...flags]
    .sort((a, b) => (a.long < b.long ? -1 : a.long > b.long ? 1 : 0))
    .map((f) => {
      let left = f.short ? `  -${f.short}, --${f.long}` : `      --${f.long}`;
      const { name, usage } = unquoteUsage(f);
      if (name !== '') left += ` ${name}`;
      let right = usage;
      if (f.def !== undefined)
        right += f.type === 'string' ? ` (default "${f.def}")` : ` (default ${f.def})`;
      return { left, right };
    });
  const max = Math.max(...lines.map((l) => l.left.length + 1));
  // Go's Fprintln(left, spacing, usage): the two separators are spaces too.
  return lines.map((l) => `${l.left} ${' '.repeat(max - l.left.length)} ${l.right}\n`).join('');
}

function unquoteUsage(f: FlagSpec): { name: string; usage: string } {
  const m = /^([^`]*)`([^`]*)`(.*)$/s.exec(f.usage);
  if (m) return { name: m[2] ?? '', usage: `${m[1]}${m[2]}${m[3]}` };
  const byType: Record<FlagSpec['type'], string> = {
    bool: '',
    string: 'string',
    stringSlice: 'strings',
    int: 'int',
  };
  return { name: byType[f.type], usage: f.usage };
}

/** gh's `dedent` (pkg/cmd/root/help.go): removes the smallest indentation of non-empty lines. */
export function dedent(s: string): string {
  const lines = s.split('\n');
  let min = -1;
  for (const l of lines) {
    if (l === '') continue;
    const n = l.length - l.replace(/^ +/, '').length;
    if (min === -1 || n < min) min = n;
  }
  if (min <= 0) return s;
  const prefix = ' '.repeat(min);
  const out = lines.map((l) => (l.startsWith(prefix) ? l.slice(min) : l)).join('\n') + '\n';
  return out.slice(0, -1);
}

/** go-gh's `text.Indent`: Go's `(?m)^` also matches after the final newline. */
export function indent(s: string, prefix: string): string {
  if (s.trim() === '') return s;
  return s.replace(/^/gm, prefix);
}
