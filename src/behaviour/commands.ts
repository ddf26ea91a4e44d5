/**
 * The shell commands in a model's tool call, as the tool's input names them, and what each
 * is: its program (the first word that is not an assignment or a `cd`) and whether it runs
 * the tests. The input is the model's own JSON; anything it does not hold is read as nothing.
 */

/** The fields agents' shell tools put their command in (Claude Code, Codex, Gemini, ...). */
const COMMAND_FIELDS = ['command', 'cmd', 'commandLine', 'script'] as const;

/** A program that runs its argument as a shell script: `bash -lc "npm test"` is `npm test`. */
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash']);

/** The shell command lines a tool call's input holds, or none. */
export function commandLines(input: string): string[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(input);
  } catch {
    return [];
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return [];
  const fields = parsed as Record<string, unknown>;
  for (const f of COMMAND_FIELDS) {
    const v = fields[f];
    if (typeof v === 'string' && v.trim() !== '') return [v];
    if (Array.isArray(v) && v.every((a) => typeof a === 'string') && v.length > 0) {
      const argv = v as string[];
      const script = argv.findIndex((a) => /^-[a-z]*c$/u.test(a));
      if (SHELLS.has(basename(argv[0]!)) && script > 0 && argv[script + 1] !== undefined)
        return [argv[script + 1]!];
      return [argv.join(' ')];
    }
  }
  return [];
}

const basename = (p: string): string => p.slice(p.lastIndexOf('/') + 1);

/** A command line's simple commands: split at `&&`, `||`, `;`, `|` and new lines outside quotes. */
export function simpleCommands(line: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote !== null) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"') {
        // An escaped character inside double quotes never closes them.
        current += c + (line[i + 1] ?? '');
        i++;
        continue;
      }
      current += c;
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    if (c === ';' || c === '\n' || c === '|' || (c === '&' && line[i + 1] === '&')) {
      parts.push(current);
      current = '';
      if ((c === '&' || c === '|') && line[i + 1] === c) i++;
      continue;
    }
    current += c;
  }
  parts.push(current);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** The words of a simple command, quotes taken off; assignments and `sudo`/`env` skipped. */
function words(command: string): string[] {
  const all = command.match(/"[^"]*"|'[^']*'|\S+/gu) ?? [];
  const plain = all.map((w) => w.replace(/^["']|["']$/gu, ''));
  let i = 0;
  while (
    i < plain.length &&
    (/^[A-Za-z_][A-Za-z0-9_]*=/u.test(plain[i]!) ||
      ['sudo', 'env', 'time', 'exec'].includes(plain[i]!))
  )
    i++;
  return plain.slice(i);
}

/** The program of a simple command ("git", "npm"), or null for a `cd` or nothing. */
export function programOf(command: string): string | null {
  const w = words(command);
  if (w.length === 0 || w[0] === 'cd') return null;
  return basename(w[0]!);
}

/** The usual ways of running a project's tests, as the first words of a command. */
const TEST_COMMANDS: readonly RegExp[] = [
  /^(npm|pnpm|yarn|bun) (run )?test\b/u,
  /^(npm|pnpm|yarn|bun) run test:/u,
  /^npx (jest|mocha|vitest|ava|tap)\b/u,
  /^(jest|mocha|vitest|pytest|tox|nox|rspec|phpunit)\b/u,
  /^python3? -m (pytest|unittest)\b/u,
  /^(go|cargo|dotnet|mix|swift) test\b/u,
  /^(make|just) (test|check)\b/u,
  /^(mvn|\.\/mvnw|gradle|\.\/gradlew) (\S+ )*test\b/u,
  /^node (--test\b|\S*test\S*\.[cm]?js\b)/u,
  /^deno test\b/u,
];

/** Whether a simple command runs the tests. */
export function runsTests(command: string): boolean {
  const line = words(command).join(' ');
  return TEST_COMMANDS.some((re) => re.test(line));
}

/** Whether a simple command makes a commit. */
export function commits(command: string): boolean {
  const w = words(command);
  return w[0] !== undefined && basename(w[0]) === 'git' && w.slice(1).some((a) => a === 'commit');
}
