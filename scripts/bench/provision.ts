/**
 * Provisioning benchmark: per-workspace time, CPU and disk of
 * prepareWorkspace (the per-commit cache entry's pack hardlinked + checkout
 * + baseline + local origin) against (a) a full copy (`cp -a`) of a
 * checked-out clone per workspace and (b) a plain `git clone --local` +
 * checkout by hand, in the same run, interleaved; the same workspace with
 * the pack copied (what evalrig does when not root) and, as root, with the
 * cache on another filesystem (a tmpfs mounted for the benchmark, removed
 * after); filling the cache (only the commit's objects, in one pack) against
 * the whole-source clone the previous layout made, and checking an entry
 * before reuse; the time to measure a diff of 3 changed files; and the git
 * processes one workspace costs (prepare + one measureDiff), counted from
 * trace2 start events.
 *
 * Two generated shapes (see provision-fixture.ts): `wide` (50,000 files,
 * little history: the checked-out files dominate) and `history` (5,000
 * files, 300 commits: the history weighs as much as the files).
 *
 *   node --import tsx scripts/bench/provision.ts [--runs 5] [--shapes wide,history]
 *                                                [--repo /path/to/any/repo [--ref HEAD]]
 *
 * Goals: provisioning within 1.2x of (b), >= 5x less disk than (a), diff well under a second.
 * Run as root for the cross-filesystem figures (it mounts a tmpfs).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { git } from '../../src/git/index.js';
import {
  materializeCodebase,
  resolveCodebases,
  verifyCacheEntry,
  type ResolvedCodebase,
} from '../../src/source/index.js';
import {
  measureDiff,
  prepareWorkspace,
  sealWorkspace,
  type Seal,
} from '../../src/workspace/index.js';
import { countGitProcesses } from '../../test/integration/workspace/git-processes.js';
import { benchFixture, type FixtureShape } from './provision-fixture.js';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Bytes on disk of the given folders together, each inode counted once. */
function diskBytes(paths: string[]): number {
  const out = execFileSync('du', ['-s', '-c', '-B1', ...paths], { encoding: 'utf8' });
  const total = out.trim().split('\n').pop() ?? '0';
  return Number.parseInt(total, 10);
}

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/**
 * CPU milliseconds used so far by this process and its reaped children (git,
 * cp): /proc/self/stat's utime + stime + cutime + cstime.
 */
function cpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // utime, stime, cutime, cstime: fields 14-17 of the line, counted from "state" (field 3).
  const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
  return (ticks * 1000) / TICKS_PER_SECOND;
}

interface Sample {
  ms: number;
  cpu: number;
}

async function timed<T>(body: () => Promise<T>): Promise<[T, Sample]> {
  const cpu = cpuMs();
  const start = performance.now();
  const value = await body();
  return [value, { ms: performance.now() - start, cpu: cpuMs() - cpu }];
}

interface Figures {
  label: string;
  files: number;
  commits: number;
  cache: number;
  fill: number;
  /** Filling the previous layout: a clone of the whole source (every branch and tag). */
  oldFill: number;
  oldCache: number;
  verifyMs: number;
  ours: Sample;
  plain: Sample;
  copy: Sample;
  copied: Sample;
  crossFs?: Sample;
  disk: { ours: number; plain: number; copy: number; copied: number };
  repoData: { ours: number; copy: number };
  diffMs: number;
  diffCounted: string;
  processes: { prepare: number; diff: number };
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const ms = (value: number): string => `${value.toFixed(0)} ms`;
const x = (value: number): string => `${value.toFixed(2)}x`;

async function bench(label: string, url: string, ref: string, runs: number): Promise<Figures> {
  const work = await mkdtemp(join(tmpdir(), 'evalrig-bench-run-'));
  try {
    const cacheDir = join(work, 'cache');
    const [[resolved]] = await timed(() =>
      resolveCodebases([{ source: { url, ref }, baseDir: process.cwd() }], { cacheDir }),
    );
    const [cachePath, fill] = await timed(() => materializeCodebase(resolved!, { cacheDir }));
    const [, verify] = await timed(() => verifyCacheEntry(cachePath, resolved!.commit));
    const oldCachePath = join(work, 'old-layout.git');
    const [, oldFill] = await timed(() =>
      git(['clone', '-q', '--bare', '--no-local', '--', url, oldCachePath], {
        cwd: work,
        transport: 'any',
      }),
    );
    const oldCache = diskBytes([oldCachePath]);
    await rm(oldCachePath, { recursive: true, force: true });
    // (a) copies a checked-out clone: the per-workspace copy this design replaces.
    const fullClone = join(work, 'full-clone');
    await git(['clone', '-q', '--local', cachePath, fullClone], { cwd: work, transport: 'any' });
    const files = (await git(['ls-files'], { cwd: fullClone })).split('\n').length;
    const commits = Number(await git(['rev-list', '--count', 'HEAD'], { cwd: fullClone }));

    const ours: Sample[] = [];
    const plain: Sample[] = [];
    const copy: Sample[] = [];
    const ownCopy: Sample[] = [];
    const oursDirs: string[] = [];
    const seals: Seal[] = [];
    const plainDirs: string[] = [];
    const copyDirs: string[] = [];
    const copiedDirs: string[] = [];
    const crossFs: Sample[] = [];
    const other = await otherFilesystem(work, resolved!);
    try {
      for (let run = 0; run < runs; run += 1) {
        const root = join(work, `ours-${run}`);
        // Preparing includes the host's seal of the workspace (what measures read).
        const [seal, t1] = await timed(async () => {
          const env = await prepareWorkspace({
            root,
            codebase: { resolved: resolved!, cachePath },
            remote: { owner: 'bench', name: 'large' },
          });
          return sealWorkspace(env, join(root, 'host'), [join(cachePath, 'objects')]);
        });
        ours.push(t1);
        seals.push(seal);
        oursDirs.push(root);

        const byHand = join(work, `plain-${run}`);
        const [, t2] = await timed(async () => {
          await git(['clone', '-q', '--local', '--no-checkout', cachePath, byHand], {
            cwd: work,
            transport: 'any',
          });
          await git(['checkout', '-q', '-B', resolved!.branch, resolved!.commit], { cwd: byHand });
        });
        plain.push(t2);
        plainDirs.push(byHand);

        const copied = join(work, `copy-${run}`);
        const [, t3] = await timed(async () => {
          execFileSync('cp', ['-a', fullClone, copied]);
        });
        copy.push(t3);
        copyDirs.push(copied);

        const ownPack = join(work, `copied-${run}`);
        const [, t4] = await timed(() =>
          prepareWorkspace({
            root: ownPack,
            codebase: { resolved: resolved!, cachePath, sharing: 'copy' },
            remote: { owner: 'bench', name: 'large' },
          }),
        );
        ownCopy.push(t4);
        copiedDirs.push(ownPack);

        if (other) {
          const crossed = join(work, `cross-${run}`);
          const [env, t5] = await timed(() =>
            prepareWorkspace({
              root: crossed,
              codebase: { resolved: resolved!, cachePath: other.cachePath, sharing: 'hardlink' },
              remote: { owner: 'bench', name: 'large' },
            }),
          );
          if (env.objects !== 'copy') throw new Error('a hardlink crossed filesystems');
          crossFs.push(t5);
          // Kept until the end like the others: removing 50,000 files here
          // would slow the next method's run down.
        }
      }
    } finally {
      other?.unmount();
    }

    const base = { cache: diskBytes([cachePath]), full: diskBytes([fullClone]) };
    const disk = {
      ours: (diskBytes([cachePath, ...oursDirs]) - base.cache) / runs,
      plain: (diskBytes([cachePath, ...plainDirs]) - base.cache) / runs,
      copy: (diskBytes([fullClone, ...copyDirs]) - base.full) / runs,
      copied: (diskBytes([cachePath, ...copiedDirs]) - base.cache) / runs,
    };
    // Repository data only (.git and the bare origin): what the cache saves; the
    // checked-out files are the same in every method.
    const repoData = {
      ours:
        (diskBytes([
          cachePath,
          ...oursDirs.flatMap((d) => [join(d, 'work', '.git'), join(d, 'remote')]),
        ]) -
          base.cache) /
        runs,
      copy:
        (diskBytes([join(fullClone, '.git'), ...copyDirs.map((d) => join(d, '.git'))]) -
          diskBytes([join(fullClone, '.git')])) /
        runs,
    };

    // The git processes of one more workspace and one diff, traced apart
    // from the timed runs (tracing has a cost of its own).
    const traced = await countGitProcesses(() =>
      prepareWorkspace({
        root: join(work, 'traced'),
        codebase: { resolved: resolved!, cachePath },
        remote: { owner: 'bench', name: 'large' },
      }),
    );
    const tracedSeal = await sealWorkspace(traced.value, join(work, 'traced', 'host'), [
      join(cachePath, 'objects'),
    ]);
    const tracedDiff = await countGitProcesses(() => measureDiff(tracedSeal));

    // A diff of 3 changed files in one workspace.
    const tree = join(oursDirs[0]!, 'work');
    const changed = (await git(['ls-files'], { cwd: tree }))
      .split('\n')
      .filter((f) => f.endsWith('.ts'))
      .slice(0, 2);
    await appendFile(join(tree, changed[0]!), '// edited\n');
    await writeFile(join(tree, changed[1]!), 'replaced\n');
    await writeFile(join(tree, 'NEW.md'), '# new file\n');
    const diffTimes: number[] = [];
    let last;
    for (let i = 0; i < 5; i += 1) {
      const [measure, t] = await timed(() => measureDiff(seals[0]!));
      diffTimes.push(t.ms);
      last = measure;
    }

    const med = (samples: Sample[]): Sample => ({
      ms: median(samples.map((s) => s.ms)),
      cpu: median(samples.map((s) => s.cpu)),
    });
    return {
      label,
      files,
      commits,
      cache: base.cache,
      fill: fill.ms,
      oldFill: oldFill.ms,
      oldCache,
      verifyMs: verify.ms,
      ours: med(ours),
      plain: med(plain),
      copy: med(copy),
      copied: med(ownCopy),
      ...(crossFs.length > 0 ? { crossFs: med(crossFs) } : {}),
      disk,
      repoData,
      diffMs: median(diffTimes),
      diffCounted: `${last?.files_added}A ${last?.files_modified}M +${last?.lines_added} -${last?.lines_removed}`,
      processes: { prepare: traced.processes.length, diff: tracedDiff.processes.length },
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * As root: a tmpfs mounted for the purpose holding a second cache, so no
 * hardlink from it to the temp folder's filesystem can succeed. `unmount`
 * removes it.
 */
async function otherFilesystem(
  work: string,
  resolved: ResolvedCodebase,
): Promise<{ cachePath: string; unmount: () => void } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const mount = join(work, 'other-fs');
  await mkdir(mount);
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2g', 'evalrig-bench', mount]);
  const unmount = (): void => {
    execFileSync('umount', [mount]);
  };
  try {
    const cachePath = await materializeCodebase(resolved, { cacheDir: join(mount, 'cache') });
    return { cachePath, unmount };
  } catch (error) {
    unmount();
    throw error;
  }
}

/** One row per figure, one column per repository. */
function table(all: Figures[], runs: number): string {
  const rows: Array<[string, (f: Figures) => string]> = [
    ['files / commits', (f) => `${f.files} / ${f.commits}`],
    ['cache (filled once per commit)', (f) => `${mb(f.cache)} in ${ms(f.fill)}`],
    ['  previous layout (whole source)', (f) => `${mb(f.oldCache)} in ${ms(f.oldFill)}`],
    ['  entry checked before reuse', (f) => ms(f.verifyMs)],
    ['provision: evalrig, median time', (f) => ms(f.ours.ms)],
    ['provision: (b) clone --local + checkout', (f) => ms(f.plain.ms)],
    ['  time ratio evalrig / (b)  (goal <= 1.2x)', (f) => x(f.ours.ms / f.plain.ms)],
    ['provision: pack copied (not root)', (f) => ms(f.copied.ms)],
    ['  time ratio copied / (b)', (f) => x(f.copied.ms / f.plain.ms)],
    [
      'provision: cache on another filesystem',
      (f) => (f.crossFs ? `${ms(f.crossFs.ms)} (${x(f.crossFs.ms / f.plain.ms)} of (b))` : 'n/a'),
    ],
    ['provision: (a) cp -a of a clone', (f) => ms(f.copy.ms)],
    ['CPU per env: evalrig / (b)', (f) => `${ms(f.ours.cpu)} / ${ms(f.plain.cpu)}`],
    ['git processes: prepare + measureDiff', (f) => `${f.processes.prepare} + ${f.processes.diff}`],
    ['disk per env: evalrig', (f) => mb(f.disk.ours)],
    ['disk per env: (b)', (f) => mb(f.disk.plain)],
    ['disk per env: pack copied (not root)', (f) => mb(f.disk.copied)],
    ['disk per env: (a) cp -a', (f) => mb(f.disk.copy)],
    ['  (a) / evalrig, all  (goal >= 5x)', (f) => x(f.disk.copy / f.disk.ours)],
    ['repository data per env: evalrig', (f) => mb(f.repoData.ours)],
    ['repository data per env: (a)', (f) => mb(f.repoData.copy)],
    ['  (a) / evalrig, repository data', (f) => x(f.repoData.copy / f.repoData.ours)],
    ['measureDiff, 3 files, median', (f) => ms(f.diffMs)],
    ['  counted', (f) => f.diffCounted],
  ];
  const head = ['', ...all.map((f) => f.label)];
  const body = rows.map(([name, cell]) => [name, ...all.map(cell)]);
  const widths = head.map((_, c) => Math.max(...[head, ...body].map((row) => row[c]!.length)));
  const line = (row: string[]): string =>
    row
      .map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
      .join('   ');
  return [
    `${runs} workspaces per method and repository, interleaved; (a) and (b) made in the same run`,
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
    ...body.map(line),
  ].join('\n');
}

const runs = Number.parseInt(option('--runs') ?? '5', 10);
const shapes = (option('--shapes') ?? 'wide,history').split(',') as FixtureShape[];
const results: Figures[] = [];
for (const shape of shapes) {
  const fixture = await benchFixture(shape);
  console.log(`${shape}: ${fixture.description}`);
  results.push(await bench(shape, fixture.bare, 'main', runs));
}
const extra = option('--repo');
if (extra) results.push(await bench(extra, extra, option('--ref') ?? 'HEAD', runs));
console.log(`\n${table(results, runs)}`);
