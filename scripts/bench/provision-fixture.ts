/**
 * The large codebase the provisioning benchmark runs on: a generated
 * repository of about 50,000 files with some history, made with
 * `git fast-import` and kept under the temp folder between runs.
 */
import { existsSync } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git } from '../../src/git/index.js';

export interface BenchFixture {
  /** Bare repository to use as a git source. */
  bare: string;
  files: number;
  commits: number;
}

const DIRS = 500;
const PER_DIR = 100;
const COMMITS = 6;

function fileText(dir: number, file: number, revision: number): string {
  const lines = [`// module d${dir}/f${file} revision ${revision}`];
  for (let line = 0; line < 8; line += 1)
    lines.push(`export const v${line} = ${dir * 1000 + file + line};`);
  return `${lines.join('\n')}\n`;
}

function stream(): string {
  const out: string[] = [];
  let mark = 0;
  for (let commit = 0; commit < COMMITS; commit += 1) {
    const message = commit === 0 ? 'initial import' : `change ${commit}`;
    out.push('commit refs/heads/main', `mark :${(mark += 1)}`);
    out.push(`author bench <bench@localhost> ${1_600_000_000 + commit * 3600} +0000`);
    out.push(`committer bench <bench@localhost> ${1_600_000_000 + commit * 3600} +0000`);
    out.push(`data ${Buffer.byteLength(message)}`, message);
    if (commit > 0) out.push(`from :${mark - 1}`);
    for (let dir = 0; dir < DIRS; dir += 1) {
      for (let file = 0; file < PER_DIR; file += 1) {
        // The first commit adds everything; each later one touches 1 file in 20.
        if (commit > 0 && (dir * PER_DIR + file) % 20 !== commit) continue;
        const text = fileText(dir, file, commit);
        out.push(
          `M 100644 inline src/d${dir}/f${file}.ts`,
          `data ${Buffer.byteLength(text)}`,
          text,
        );
      }
    }
    if (commit === 0) {
      const ignore = 'target/\nnode_modules/\n';
      out.push('M 100644 inline .gitignore', `data ${ignore.length}`, ignore);
    }
  }
  out.push('');
  return out.join('\n');
}

/** Returns the generated repository, generating it the first time. */
export async function benchFixture(): Promise<BenchFixture> {
  const root = join(tmpdir(), 'evalrig-bench-provision');
  const bare = join(root, `large-${DIRS * PER_DIR}-${COMMITS}.git`);
  const result = { bare, files: DIRS * PER_DIR + 1, commits: COMMITS };
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
