/**
 * The generated codebases the provisioning benchmark runs on, made with
 * `git fast-import` and kept under the temp folder between runs:
 *
 * - `wide`: about 50,000 files and little history (6 commits, each touching
 *   1 file in 20): the checked-out files dominate the disk;
 * - `history`: 5,000 files and 300 commits, each rewriting 300 lines across
 *   20 files: the packed history weighs as much as the checked-out files,
 *   as in a real project.
 */
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git } from '../../src/git/index.js';
import { seededUniform as random } from '../../src/seeded/index.js';

export type FixtureShape = 'wide' | 'history';

export interface BenchFixture {
  shape: FixtureShape;
  /** Bare repository to use as a git source. */
  bare: string;
  files: number;
  commits: number;
  /** One line on what the shape is. */
  description: string;
}

/** A repository as a fast-import stream, written a line at a time. */
class Stream {
  readonly parts: string[] = [];
  private mark = 0;

  commit(message: string, time: number, files: ReadonlyArray<[string, string]>): void {
    const out = this.parts;
    out.push('commit refs/heads/main', `mark :${(this.mark += 1)}`);
    out.push(`author bench <bench@localhost> ${time} +0000`);
    out.push(`committer bench <bench@localhost> ${time} +0000`);
    out.push(`data ${Buffer.byteLength(message)}`, message);
    if (this.mark > 1) out.push(`from :${this.mark - 1}`);
    for (const [path, text] of files) {
      out.push(`M 100644 inline ${path}`, `data ${Buffer.byteLength(text)}`, text);
    }
  }

  text(): string {
    return `${this.parts.join('\n')}\n`;
  }
}

const IGNORE = 'target/\nnode_modules/\n';

function wideStream(dirs: number, perDir: number, commits: number): string {
  const text = (dir: number, file: number, revision: number): string => {
    const lines = [`// module d${dir}/f${file} revision ${revision}`];
    for (let line = 0; line < 8; line += 1)
      lines.push(`export const v${line} = ${dir * 1000 + file + line};`);
    return `${lines.join('\n')}\n`;
  };
  const stream = new Stream();
  for (let commit = 0; commit < commits; commit += 1) {
    const files: Array<[string, string]> = [];
    for (let dir = 0; dir < dirs; dir += 1) {
      for (let file = 0; file < perDir; file += 1) {
        // The first commit adds everything; each later one touches 1 file in 20.
        if (commit > 0 && (dir * perDir + file) % 20 !== commit) continue;
        files.push([`src/d${dir}/f${file}.ts`, text(dir, file, commit)]);
      }
    }
    if (commit === 0) files.push(['.gitignore', IGNORE]);
    stream.commit(
      commit === 0 ? 'initial import' : `change ${commit}`,
      1_600_000_000 + commit * 3600,
      files,
    );
  }
  return stream.text();
}

function historyStream(
  files: number,
  linesPerFile: number,
  commits: number,
  filesPerCommit: number,
  linesPerFileChanged: number,
): string {
  const next = random(42);
  const word = (): string => Math.floor(next() * 0xffffffff).toString(36);
  // Code-like lines with enough entropy that packing cannot make them vanish.
  const line = (): string =>
    `  const ${word()} = call${Math.floor(next() * 100)}(${word()}, '${word()}${word()}', ${Math.floor(next() * 1e6)});`;
  const contents: string[][] = [];
  const path = (i: number): string => `src/m${Math.floor(i / 50)}/f${i % 50}.ts`;
  const stream = new Stream();
  const initial: Array<[string, string]> = [['.gitignore', IGNORE]];
  for (let i = 0; i < files; i += 1) {
    contents.push(Array.from({ length: linesPerFile }, line));
    initial.push([path(i), `${contents[i]!.join('\n')}\n`]);
  }
  stream.commit('initial import', 1_600_000_000, initial);
  for (let commit = 1; commit < commits; commit += 1) {
    const changed = new Map<number, string>();
    while (changed.size < filesPerCommit) {
      const i = Math.floor(next() * files);
      if (changed.has(i)) continue;
      const body = contents[i]!;
      for (let k = 0; k < linesPerFileChanged; k += 1)
        body[Math.floor(next() * body.length)] = line();
      changed.set(i, `${body.join('\n')}\n`);
    }
    stream.commit(
      `change ${commit}`,
      1_600_000_000 + commit * 3600,
      [...changed].map(([i, text]) => [path(i), text]),
    );
  }
  return stream.text();
}

const SHAPES: Record<
  FixtureShape,
  { files: number; commits: number; description: string; stream: () => string }
> = {
  wide: {
    files: 50_000 + 1,
    commits: 6,
    description: '50,000 files of 9 lines, 6 commits each touching 1 file in 20',
    stream: () => wideStream(500, 100, 6),
  },
  history: {
    files: 5_000 + 1,
    commits: 300,
    description: '5,000 files of 40 lines, 300 commits each rewriting 300 lines across 20 files',
    stream: () => historyStream(5_000, 40, 300, 20, 15),
  },
};

/** Returns the generated repository of that shape, generating it the first time. */
export async function benchFixture(shape: FixtureShape = 'wide'): Promise<BenchFixture> {
  const { files, commits, description, stream } = SHAPES[shape];
  const root = join(tmpdir(), 'evalrig-bench-provision');
  const name =
    shape === 'wide' ? `large-${files - 1}-${commits}` : `${shape}-${files - 1}-${commits}`;
  const bare = join(root, `${name}.git`);
  const result = { shape, bare, files, commits, description };
  if (existsSync(join(bare, 'refs', 'heads', 'main')) || existsSync(join(bare, 'packed-refs')))
    return result;
  await mkdir(root, { recursive: true });
  const temp = `${bare}.tmp-${process.pid}`;
  await rm(temp, { recursive: true, force: true });
  await git(['init', '-q', '--bare', '-b', 'main', temp], { cwd: root });
  await git(['fast-import', '--quiet'], { cwd: temp, input: stream() });
  await git(['repack', '-adq'], { cwd: temp });
  await rename(temp, bare);
  return result;
}
