/**
 * The README and every page under docs/ are run as a test: what a reader
 * copies must work. Eval-set examples are loaded by evalrig's own loader (or
 * fail with the error stated beside them), `evalrig` command lines are parsed
 * by the CLI's own commander definitions, links and anchors resolve, `npm run`
 * scripts and `scripts/` paths exist. Fast: no engine, no container.
 *
 * A JSON block says what it is in an HTML comment on the line before its
 * fence (invisible once rendered):
 *   <!-- doc-test: eval-set at first/evals.json -->    a whole eval set, at that path beside a copy of examples/
 *   <!-- doc-test: fragment of examples/X/evals.json --> members merged into that example
 *   <!-- doc-test: invalid "words of the error" -->     a whole eval set that must be refused so
 *   <!-- doc-test: model-script -->                     a model stand-in script
 */
import { cp, mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { Command, type Option } from 'commander';
import { registerCommands } from '../../src/cli/commands/index.js';
import { loadEvalSet } from '../../src/config/index.js';
import { loadModelScript } from '../../src/model-stand-in/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

interface Fence {
  readonly lang: string;
  readonly body: string;
  readonly line: number;
  /** What the `<!-- doc-test: … -->` comment before it says, if any. */
  readonly marker?: string;
}

interface Page {
  /** Path from the repository's root, e.g. docs/engines.md. */
  readonly file: string;
  readonly fences: Fence[];
  /** The text outside fences, fences blanked (line numbers kept). */
  readonly prose: string;
  readonly anchors: Set<string>;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to dashes, repeats numbered. */
function slug(heading: string, seen: Map<string, number>): string {
  const base = heading
    .replace(/`/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
  const n = seen.get(base) ?? 0;
  seen.set(base, n + 1);
  return n === 0 ? base : `${base}-${n}`;
}

function parsePage(file: string, text: string): Page {
  const lines = text.split('\n');
  const fences: Fence[] = [];
  const prose: string[] = [];
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let open: { lang: string; start: number; indent: number; marker?: string } | undefined;
  let body: string[] = [];
  lines.forEach((line, i) => {
    const fence = /^(\s*)```(\S*)/.exec(line);
    if (open) {
      prose.push('');
      if (fence && line.trim() === '```') {
        fences.push({
          lang: open.lang,
          body: body.join('\n'),
          line: open.start,
          marker: open.marker,
        });
        open = undefined;
      } else body.push(line.slice(Math.min(open.indent, line.length - line.trimStart().length)));
      return;
    }
    if (fence) {
      const before = lines
        .slice(0, i)
        .reverse()
        .find((l) => l.trim() !== '');
      const marker = /^<!-- doc-test: (.*) -->$/.exec(before?.trim() ?? '')?.[1];
      open = { lang: fence[2] ?? '', start: i + 1, indent: fence[1]?.length ?? 0, marker };
      body = [];
      prose.push('');
      return;
    }
    const heading = /^#{1,6} (.*)$/.exec(line);
    if (heading?.[1]) anchors.add(slug(heading[1].trim(), seen));
    prose.push(line);
  });
  if (open) throw new Error(`${file}:${open.start}: a fence that never closes`);
  return { file, fences, prose: prose.join('\n'), anchors };
}

async function readPages(): Promise<Page[]> {
  const files = [
    'README.md',
    ...(await readdir(path.join(root, 'docs')))
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => `docs/${f}`),
  ];
  return Promise.all(
    files.map(async (f) => parsePage(f, await readFile(path.join(root, f), 'utf8'))),
  );
}

/** Inline code spans of the prose (they may wrap over lines), with their line. */
function codeSpans(page: Page): { text: string; line: number }[] {
  const spans: { text: string; line: number }[] = [];
  for (const m of page.prose.matchAll(/`([^`]+)`/g)) {
    const line = page.prose.slice(0, m.index).split('\n').length;
    spans.push({ text: (m[1] ?? '').replace(/\s+/g, ' ').trim(), line });
  }
  return spans;
}

/** Markdown links of the prose, code spans left out. */
function links(page: Page): { target: string; line: number }[] {
  const text = page.prose.replace(/`[^`]*`/g, (s) => s.replace(/[^\n]/g, ' '));
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => ({
    target: m[1] ?? '',
    line: text.slice(0, m.index).split('\n').length,
  }));
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

const at = (page: Page, line: number): string => `${page.file}:${line}`;

describe('docs: the README and docs/ pages', function () {
  let pages: Page[];

  before(async () => {
    pages = await readPages();
  });

  it('keeps the README a five-minute read that links every docs page', async () => {
    const readme = pages.find((p) => p.file === 'README.md')!;
    const words = readme.prose.split(/\s+/).filter(Boolean).length;
    const inFences = readme.fences.reduce((n, f) => n + f.body.split(/\s+/).length, 0);
    expect(words + inFences, 'words at 230 a minute').to.be.at.most(5 * 230);
    const linked = new Set(links(readme).map((l) => l.target.split('#')[0]));
    for (const page of pages.filter((p) => p.file.startsWith('docs/')))
      expect(linked, `README links ${page.file}`).to.include(page.file);
  });

  it('resolves every relative link and anchor', async () => {
    const byFile = new Map(pages.map((p) => [p.file, p]));
    const problems: string[] = [];
    for (const page of pages) {
      for (const { target, line } of links(page)) {
        if (/^[a-z]+:/.test(target)) continue;
        const [file = '', anchor] = target.split('#');
        const resolved = file
          ? path.posix.normalize(path.posix.join(path.posix.dirname(page.file), file))
          : page.file;
        if (!(await exists(path.join(root, resolved))))
          problems.push(`${at(page, line)}: ${target}: no such file`);
        else if (anchor !== undefined && !byFile.get(resolved)?.anchors.has(anchor))
          problems.push(`${at(page, line)}: ${target}: no heading #${anchor} in ${resolved}`);
      }
    }
    expect(problems).to.deep.equal([]);
  });

  it('names only npm scripts of package.json and scripts/ paths that exist', async () => {
    const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const problems: string[] = [];
    let checked = 0;
    for (const page of pages) {
      const texts = [
        ...codeSpans(page),
        ...page.fences.filter((f) => f.lang === 'sh').map((f) => ({ text: f.body, line: f.line })),
      ];
      for (const { text, line } of texts) {
        for (const m of text.matchAll(/\bnpm run (?:--silent )?([\w:-]+)/g)) {
          checked++;
          if (!(m[1]! in pkg.scripts))
            problems.push(`${at(page, line)}: npm run ${m[1]}: no such script`);
        }
        for (const m of text.matchAll(/(?<![\w./-])scripts\/[\w./-]*[\w/]/g)) {
          checked++;
          if (!(await exists(path.join(root, m[0]))))
            problems.push(`${at(page, line)}: ${m[0]}: no such path`);
        }
      }
    }
    expect(problems).to.deep.equal([]);
    expect(checked, 'commands found').to.be.greaterThan(10);
  });

  it('names in the performance table only benchmarks that scripts/bench holds, each with its command', async () => {
    const perf = pages.find((p) => p.file === 'docs/performance.md')!;
    const named = new Set([...perf.prose.matchAll(/^\| `([\w-]+\.ts)`/gm)].map((m) => m[1]!));
    const commands = perf.fences
      .filter((f) => f.lang === 'sh')
      .map((f) => f.body)
      .join('\n');
    expect(named.size).to.be.greaterThan(10);
    for (const bench of named) {
      expect(await exists(path.join(root, 'scripts/bench', bench)), bench).to.equal(true);
      expect(commands, `a command reruns ${bench}`).to.include(`scripts/bench/${bench}`);
    }
  });

  it('writes every evalrig command line with real verbs and real flags of the CLI', async () => {
    const lines: { page: Page; line: number; words: string[]; synopsis: boolean }[] = [];
    for (const page of pages) {
      for (const span of codeSpans(page)) {
        if (/^evalrig [a-z]/.test(span.text))
          lines.push({ page, line: span.line, words: shellWords(span.text), synopsis: true });
      }
      for (const fence of page.fences.filter((f) => f.lang === 'sh')) {
        for (const [i, command] of shellCommands(fence.body)) {
          if (command[0] === 'evalrig')
            lines.push({
              page,
              line: fence.line + i,
              words: command,
              synopsis: isSynopsis(command),
            });
        }
      }
    }
    const found = await Promise.all(
      lines.map(async ({ page, line, words, synopsis }) =>
        (await checkCommandLine(words.slice(1), synopsis)).map(
          (p) => `${at(page, line)}: ${words.join(' ')}: ${p}`,
        ),
      ),
    );
    const problems = found.flat();
    expect(problems).to.deep.equal([]);
    expect(lines.length, 'command lines found').to.be.greaterThan(20);
  });

  describe('eval-set and model-script examples', function () {
    let scratch: string;

    before(async () => {
      scratch = await mkdtemp(path.join(tmpdir(), 'evalrig-docs-'));
    });
    after(() => rm(scratch, { recursive: true, force: true }));

    it('marks every JSON block with what it is, and each one holds', async () => {
      let n = 0;
      for (const page of pages) {
        for (const [i, fence] of page.fences.entries()) {
          if (fence.lang !== 'json') continue;
          const where = at(page, fence.line);
          if (!fence.marker)
            expect.fail(`${where}: a JSON block with no <!-- doc-test: … --> before it`);
          const next = page.fences[i + 1];
          const shown = next?.lang === 'text' && !next.marker ? next.body : undefined;
          const dir = path.join(scratch, String(n++));
          await checkJsonExample({ ...fence, marker: fence.marker }, dir, where, shown).catch(
            (error: Error) => expect.fail(`${where}: ${fence.marker}: ${error.message}`),
          );
        }
      }
      expect(n, 'JSON examples found').to.be.greaterThan(4);
    });

    it('finds every example folder the pages name, and its eval set valid', async () => {
      const folders = new Set<string>();
      for (const page of pages) {
        const text = [page.prose, ...page.fences.map((f) => f.body)].join('\n');
        for (const m of text.matchAll(/examples\/([\w-]+)/g)) folders.add(m[1]!);
      }
      expect(folders.size).to.be.greaterThan(3);
      for (const folder of folders) {
        const dir = path.join(root, 'examples', folder);
        expect(await exists(dir), `examples/${folder}`).to.equal(true);
        const evals = path.join(dir, 'evals.json');
        if (await exists(evals)) await loadEvalSet(evals, { env: {} });
      }
    });
  });
});

/** Splits a shell text into commands (by line continuation, `&&`, `;`, `|`), with each one's line offset. */
function shellCommands(text: string): [number, string[]][] {
  const out: [number, string[]][] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let joined = lines[i] ?? '';
    while (joined.endsWith('\\') && i + 1 < lines.length)
      joined = joined.slice(0, -1) + ' ' + lines[++i];
    const words = shellWords(joined);
    let current: string[] = [];
    for (const w of [...words, '&&']) {
      if (['&&', '||', ';', '|'].includes(w)) {
        if (current.length) out.push([start, current]);
        current = [];
      } else current.push(w);
    }
  }
  return out;
}

/** Shell words: quotes kept together, a `#` comment dropped. */
function shellWords(text: string): string[] {
  const words: string[] = [];
  for (const m of text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) {
    if (m[3]?.startsWith('#')) break;
    words.push(m[1] ?? m[2] ?? m[3] ?? '');
  }
  return words;
}

/** A usage line (`[--out DIR]`, `<evals.json>`, `ADDRESS...`) rather than a command to paste. */
function isSynopsis(words: string[]): boolean {
  return words.some((w) => /^[[<]|[\]>]$|\.\.\.|…|^[A-Z]+$/.test(w));
}

/**
 * The CLI as main builds it with no arguments (every verb registered), made
 * to throw instead of exiting and to print nothing. A fresh one per line:
 * parsing leaves option values behind.
 */
async function cli(): Promise<Command> {
  const program = new Command('evalrig')
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut: () => {} });
  await registerCommands(program);
  return program;
}

/** The verb a command line names (`image build` included) and the words after it. */
function findVerb(program: Command, words: string[]): { command?: Command; rest: string[] } {
  let command: Command | undefined;
  let rest = words;
  for (;;) {
    const next = (command ?? program).commands.find((c) => c.name() === rest[0]);
    if (!next) return { command, rest };
    command = next;
    rest = rest.slice(1);
  }
}

const flagsOf = (command: Command): string[] =>
  command.options
    .flatMap((o: Option) => [o.long, o.short])
    .filter((f): f is string => Boolean(f))
    .concat(['-h', '--help']);

/** What is wrong with `evalrig <words>`: an unknown verb or flag, or (when not a synopsis) what the parser refuses. */
async function checkCommandLine(words: string[], synopsis: boolean): Promise<string[]> {
  const program = await cli();
  const { command, rest } = findVerb(program, words);
  if (!command || command.commands.length > 0) return [`no such verb (${words[0]})`];
  const flags = flagsOf(command);
  const problems = rest
    .map(
      (w) =>
        w
          .replace(/^\[/, '')
          .replace(/[\]…]|\.\.\.$/g, '')
          .split('=')[0]!,
    )
    .filter((w) => /^--?[a-zA-Z]/.test(w) && !flags.includes(w))
    .map((w) => `${command.name()} has no flag ${w}`);
  if (synopsis || problems.length) return problems;
  try {
    const { operands, unknown } = command.parseOptions([...rest]);
    if (unknown.length) return [`not understood: ${unknown.join(' ')}`];
    const args = command.registeredArguments;
    const variadic = args.some((a) => a.variadic);
    const required = args.filter((a) => a.required).length;
    if (operands.length < required)
      return [`${required} operand(s) expected, got ${operands.length}`];
    if (!variadic && operands.length > args.length)
      return [`too many operands: ${operands.join(' ')}`];
  } catch (error) {
    return [`refused: ${(error as Error).message}`];
  }
  return [];
}

/**
 * Checks one JSON example as its marker says, in `dir` (a fresh folder). An
 * invalid example's refusal, when the page shows it in a text block right
 * after, must be exactly what evalrig prints for a file named evals.json.
 */
async function checkJsonExample(
  { body, marker }: { body: string; marker: string },
  dir: string,
  where: string,
  shown?: string,
): Promise<void> {
  await mkdir(dir, { recursive: true });
  if (marker === 'model-script') {
    const file = path.join(dir, 'script.json');
    await writeFile(file, body);
    await loadModelScript(file);
    return;
  }
  await cp(path.join(root, 'examples'), path.join(dir, 'examples'), { recursive: true });
  const placed = /^eval-set at (\S+)$/.exec(marker);
  const fragment = /^fragment of (examples\/\S+)$/.exec(marker);
  const invalid = /^invalid "(.+)"$/.exec(marker);
  if (placed) {
    await loadAt(dir, placed[1]!, body);
    // Its "$schema", read from where the page says to save it, names the real schema.
    const schema = (JSON.parse(body) as { $schema?: string }).$schema;
    if (schema) {
      const from = path.join(root, path.dirname(placed[1]!), schema);
      expect(await exists(from), `${where}: $schema ${schema}`).to.equal(true);
    }
  } else if (fragment) {
    const base = JSON.parse(await readFile(path.join(root, fragment[1]!), 'utf8')) as object;
    const members = JSON.parse(`{${body}}`) as object;
    await loadAt(dir, fragment[1]!, JSON.stringify({ ...base, ...members }));
  } else if (invalid) {
    const file = path.join(dir, 'bad/evals.json');
    const refused = await loadAt(dir, 'bad/evals.json', body).then(
      () => undefined,
      (error: Error) => error.message.replaceAll(file, 'evals.json'),
    );
    expect(refused, `${where}: must be refused`).to.be.a('string').and.include(invalid[1]);
    if (shown !== undefined) expect(`evalrig: ${refused}`, where).to.equal(shown.trimEnd());
  } else expect.fail(`${where}: unknown doc-test marker "${marker}"`);
}

async function loadAt(dir: string, file: string, text: string): Promise<void> {
  const target = path.join(dir, file);
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, text);
  await loadEvalSet(target, { env: {} });
}
