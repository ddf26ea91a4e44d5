/**
 * Provisioning benchmark: per-environment time and disk of prepareEnvironment
 * (clone --local from the per-commit cache + baseline + local origin) against
 * (a) a full copy (`cp -a`) of a checked-out clone per environment and
 * (b) a plain `git clone --local` + checkout by hand, in the same run,
 * interleaved; and the time to measure a diff of 3 changed files.
 *
 *   node --import tsx scripts/bench/provision.ts [--runs 5] [--repo /path/to/any/repo]
 *
 * Goals: provisioning within 1.2x of (b), >= 5x less disk than (a), diff well under a second.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile, appendFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { git } from '../../src/git/index.js';
import { materializeCodebase, resolveCodebases } from '../../src/source/index.js';
import { measureDiff, prepareEnvironment } from '../../src/environment/index.js';
import { benchFixture } from './provision-fixture.js';

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

async function timed<T>(body: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await body();
  return [value, performance.now() - start];
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const ms = (value: number): string => `${value.toFixed(0)} ms`;

async function bench(label: string, url: string, ref: string, runs: number): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), 'evalrig-bench-run-'));
  try {
    const cacheDir = join(work, 'cache');
    const [[resolved], resolveMs] = await timed(() =>
      resolveCodebases([{ source: { url, ref }, baseDir: process.cwd() }], { cacheDir }),
    );
    const [cachePath, fillMs] = await timed(() => materializeCodebase(resolved!, { cacheDir }));
    // (a) copies a checked-out clone: the per-environment copy this design replaces.
    const fullClone = join(work, 'full-clone');
    await git(['clone', '-q', '--local', cachePath, fullClone], { cwd: work });
    const files = (await git(['ls-files'], { cwd: fullClone })).split('\n').length;

    const ours: number[] = [];
    const plain: number[] = [];
    const copy: number[] = [];
    const oursDirs: string[] = [];
    const plainDirs: string[] = [];
    const copyDirs: string[] = [];
    for (let run = 0; run < runs; run += 1) {
      const root = join(work, `ours-${run}`);
      const [, t1] = await timed(() =>
        prepareEnvironment({
          root,
          codebase: { resolved: resolved!, cachePath },
          remote: { owner: 'bench', name: 'large' },
        }),
      );
      ours.push(t1);
      oursDirs.push(root);

      const byHand = join(work, `plain-${run}`);
      const [, t2] = await timed(async () => {
        await git(['clone', '-q', '--local', '--no-checkout', cachePath, byHand], { cwd: work });
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
    }

    const base = { cache: diskBytes([cachePath]), full: diskBytes([fullClone]) };
    const disk = {
      ours: (diskBytes([cachePath, ...oursDirs]) - base.cache) / runs,
      plain: (diskBytes([cachePath, ...plainDirs]) - base.cache) / runs,
      copy: (diskBytes([fullClone, ...copyDirs]) - base.full) / runs,
    };

    // Repository data only (.git and the bare origin): what the cache saves; the
    // checked-out files are the same in every method.
    const gitOnly = {
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

    // A diff of 3 changed files in one environment.
    const tree = join(oursDirs[0]!, 'work');
    const changed = (await git(['ls-files'], { cwd: tree }))
      .split('\n')
      .filter((f) => f.endsWith('.ts'))
      .slice(0, 2);
    const diffTimes: number[] = [];
    await appendFile(join(tree, changed[0]!), '// edited\n');
    await writeFile(join(tree, changed[1]!), 'replaced\n');
    await writeFile(join(tree, 'NEW.md'), '# new file\n');
    let last;
    for (let i = 0; i < 5; i += 1) {
      const [measure, t] = await timed(() => measureDiff(tree));
      diffTimes.push(t);
      last = measure;
    }

    const m = { ours: median(ours), plain: median(plain), copy: median(copy) };
    console.log(
      `\n== ${label}: ${files} files, commit ${resolved!.commit.slice(0, 12)}, ${runs} runs each, interleaved`,
    );
    console.log(
      `resolve ${ms(resolveMs)}; cache fill (once per commit) ${ms(fillMs)}; cache ${mb(base.cache)}`,
    );
    console.log('method                               median time   disk per env');
    console.log(
      `evalrig prepareEnvironment           ${ms(m.ours).padStart(11)}   ${mb(disk.ours).padStart(10)}`,
    );
    console.log(
      `(b) git clone --local + checkout     ${ms(m.plain).padStart(11)}   ${mb(disk.plain).padStart(10)}`,
    );
    console.log(
      `(a) cp -a of a checked-out clone     ${ms(m.copy).padStart(11)}   ${mb(disk.copy).padStart(10)}`,
    );
    console.log(`time ratio evalrig / (b): ${(m.ours / m.plain).toFixed(2)}x   (goal <= 1.2x)`);
    console.log(`time ratio evalrig / (a): ${(m.ours / m.copy).toFixed(2)}x`);
    console.log(
      `disk ratio (a) / evalrig: ${(disk.copy / disk.ours).toFixed(1)}x less disk, work tree included   (goal >= 5x)`,
    );
    console.log(
      `repository data per env (.git + origin): evalrig ${mb(gitOnly.ours)}, (a) ${mb(gitOnly.copy)}: ` +
        `${(gitOnly.copy / gitOnly.ours).toFixed(1)}x less`,
    );
    console.log(
      `measureDiff, 3 changed files: median ${ms(median(diffTimes))} (goal well under 1 s); ` +
        `counted ${last?.files_added} added, ${last?.files_modified} modified, +${last?.lines_added} -${last?.lines_removed}`,
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

const runs = Number.parseInt(option('--runs') ?? '5', 10);
const fixture = await benchFixture();
await bench(`generated repository (${fixture.commits} commits)`, fixture.bare, 'main', runs);
const extra = option('--repo');
if (extra) await bench(`repository ${extra}`, extra, option('--ref') ?? 'HEAD', runs);
