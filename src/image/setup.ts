import { createHash, randomBytes } from 'node:crypto';
import { cp, lstat, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { handOverTrees } from '../workspace/index.js';
import { EvalrigError } from '../errors/index.js';
import { git } from '../git/index.js';
import type { ContainerLimits } from '../seam/index.js';

/** The setup commands of an environment failed, or their output could not be kept. */
export class SetupError extends EvalrigError {}

/** What a setup left for every run of one (commit, image, commands): files the codebase ignores. */
export interface SetupOutput {
  /** sha256 of (commit, image id, commands, work-tree path, user). */
  readonly key: string;
  /** The folder holding the kept files, laid out as in the work tree. */
  readonly filesDir: string;
  /** Work-tree paths kept (a folder stands for all it holds), sorted. */
  readonly entries: readonly string[];
  readonly commands: readonly string[];
  /** True when this call ran the commands; false when the cache had them. */
  readonly ran: boolean;
  /** How long the setup container took (0 from the cache). */
  readonly setupMs: number;
}

/**
 * One setup as its runner gets it: the host's checkout `workTree` shared at
 * `containerWorkTree` (and brought back when it ends), the engine's default
 * network, `argv` run as `user` with `HOME` at `home`; then `logArgv` prints
 * the log's last bytes.
 */
export interface SetupRun {
  readonly image: string;
  readonly user: string;
  readonly home: string;
  readonly workTree: string;
  readonly containerWorkTree: string;
  readonly argv: readonly string[];
  readonly logArgv: readonly string[];
  readonly limits?: ContainerLimits;
  readonly labels: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}

/**
 * Where a setup runs (the campaign's sandbox provider: campaign/environments.ts):
 * its exit (null when it timed out) and its log's last bytes.
 */
export type SetupRunner = (
  run: SetupRun,
) => Promise<{ readonly exitCode: number | null; readonly log: string }>;

export interface EnsureSetupOptions {
  readonly runner: SetupRunner;
  /** The image the runs use (tag), and its id (part of the key). */
  readonly image: string;
  readonly imageId: string;
  readonly commands: readonly string[];
  /** The commit and its cached repository (src/source). */
  readonly commit: string;
  readonly cachePath: string;
  /** Where the runs see the work tree: the setup runs at the same path (tools record paths). */
  readonly containerWorkTree: string;
  /** Folder of setup outputs, one per key (made 0700). */
  readonly cacheDir: string;
  /** `uid:gid` the commands run as (the runs' agent user) and its HOME. */
  readonly user: string;
  readonly home: string;
  readonly limits?: ContainerLimits;
  /** Kill the setup after this long (default one hour). */
  readonly timeoutMs?: number;
  /** More labels on the container (a campaign's, so that it is removed with it). */
  readonly labels?: Readonly<Record<string, string>>;
  readonly onProgress?: (line: string) => void;
}

interface Manifest {
  readonly schema: 'evalrig/setup@1';
  readonly key: string;
  readonly commit: string;
  readonly image_id: string;
  readonly commands: readonly string[];
  readonly entries: readonly string[];
  readonly setup_ms: number;
}

const MANIFEST = 'manifest.json';
const LOG_BYTES = 1024 * 1024;
/** Where the setup's output goes inside its sandbox (outside the work tree). */
const LOG_PATH = '/tmp/evalrig-setup.log';
/** Runs each command in order; the first that fails ends the setup with its code. */
const SCRIPT = `exec >${LOG_PATH} 2>&1
mkdir -p "$HOME" 2>/dev/null
for c in "$@"; do
  printf '$ %s\\n' "$c"
  sh -c "$c" || { s=$?; printf 'evalrig: setup command failed (exit %s): %s\\n' "$s" "$c"; exit "$s"; }
done`;

/** The key of one setup output. */
export function setupKey(o: Omit<EnsureSetupOptions, 'runner' | 'cacheDir'>): string {
  return createHash('sha256')
    .update('evalrig setup v1\n')
    .update(JSON.stringify([o.commit, o.imageId, o.commands, o.containerWorkTree, o.user, o.home]))
    .digest('hex');
}

/**
 * Runs an environment's setup commands once per (commit, image, commands):
 * in a checkout of the commit, in a container of the runs' image on the
 * engine's default network (the commands fetch dependencies), as the runs'
 * user, at the path the runs see. What the commands leave that the codebase
 * ignores (node_modules/, .venv/) is kept under `cacheDir/<key>/files`;
 * nothing else they change is. Later calls with the same key return the kept
 * output at once; concurrent callers each build and the first rename wins.
 *
 * Which paths are kept is decided by host-side git over the host's own
 * repository (the cache's) and a scratch index: the checkout's .git, which
 * the commands could write, is never read as configuration.
 */
export async function ensureSetupOutput(options: EnsureSetupOptions): Promise<SetupOutput> {
  const key = setupKey(options);
  const target = path.join(options.cacheDir, key);
  const cached = await readManifest(target);
  if (cached) {
    return {
      key,
      filesDir: path.join(target, 'files'),
      entries: cached.entries,
      commands: cached.commands,
      ran: false,
      setupMs: 0,
    };
  }
  await mkdir(options.cacheDir, { recursive: true, mode: 0o700 });
  const scratch = path.join(
    options.cacheDir,
    `tmp-${key.slice(0, 12)}-${randomBytes(4).toString('hex')}`,
  );
  await mkdir(scratch, { mode: 0o700 });
  try {
    const work = path.join(scratch, 'checkout');
    await git(['clone', '-q', '--local', '--no-checkout', '--', options.cachePath, work], {
      cwd: scratch,
      transport: 'any',
    });
    await git(['checkout', '-q', '--detach', options.commit], { cwd: work });
    // As root, the checkout goes to the commands' user; objects shared with the cache stay root's.
    await handOverTrees([work], options.user);
    const started = Date.now();
    const { exitCode, log } = await runCommands(options, key, work);
    const setupMs = Date.now() - started;
    await writeFile(path.join(scratch, 'setup.log'), log);
    if (exitCode !== 0) {
      throw new SetupError(
        `the environment's setup failed (exit ${exitCode}) on commit ${options.commit.slice(0, 12)}; its output ends with:\n${tail(log)}`,
      );
    }
    const entries = await ignoredEntries(options, scratch, work);
    const filesDir = path.join(scratch, 'files');
    await mkdir(filesDir, { mode: 0o755 });
    for (const entry of entries) await keep(work, filesDir, entry);
    await rm(work, { recursive: true, force: true });
    await rm(path.join(scratch, 'index'), { force: true });
    const manifest: Manifest = {
      schema: 'evalrig/setup@1',
      key,
      commit: options.commit,
      image_id: options.imageId,
      commands: [...options.commands],
      entries,
      setup_ms: setupMs,
    };
    await writeFile(path.join(scratch, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    try {
      await rename(scratch, target);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST' && code !== 'ENOTEMPTY') throw error;
      // Another process kept the same output first: use it, drop ours.
      await rm(scratch, { recursive: true, force: true });
    }
    return {
      key,
      filesDir: path.join(target, 'files'),
      entries,
      commands: manifest.commands,
      ran: true,
      setupMs,
    };
  } catch (error) {
    await rm(scratch, { recursive: true, force: true });
    throw error;
  }
}

async function readManifest(dir: string): Promise<Manifest | undefined> {
  try {
    const parsed = JSON.parse(await readFile(path.join(dir, MANIFEST), 'utf8')) as Manifest;
    return parsed.schema === 'evalrig/setup@1' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function tail(log: string): string {
  const lines = log.trimEnd().split('\n');
  return lines.slice(-20).join('\n').slice(-4000);
}

/** One sandbox on the engine's default network runs every command; its output is the log. */
async function runCommands(
  options: EnsureSetupOptions,
  key: string,
  work: string,
): Promise<{ exitCode: number; log: string }> {
  const timeoutMs = options.timeoutMs ?? 3600_000;
  const r = await options.runner({
    image: options.image,
    user: options.user,
    home: options.home,
    workTree: work,
    containerWorkTree: options.containerWorkTree,
    argv: ['sh', '-c', SCRIPT, 'evalrig-setup', ...options.commands],
    logArgv: ['tail', '-c', String(LOG_BYTES + 1), LOG_PATH],
    ...(options.limits ? { limits: options.limits } : {}),
    labels: { 'evalrig.setup': key, ...options.labels },
    timeoutMs,
  });
  let log = r.log.replace(/\r\n/gu, '\n');
  if (log.length > LOG_BYTES) log = `[evalrig: log cut]\n${log.slice(-LOG_BYTES)}`;
  for (const line of log.split('\n')) if (line.trim()) options.onProgress?.(line);
  if (r.exitCode === null) {
    return { exitCode: 124, log: `${log}\nevalrig: setup killed after ${timeoutMs} ms\n` };
  }
  return { exitCode: r.exitCode, log };
}

/**
 * The bytes of a container's log without a terminal: frames of an 8-byte
 * header (stream, 3 zeros, big-endian length) and their payload, in order.
 */
export function demux(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at + 8 <= raw.length) {
    const size = raw.readUInt32BE(at + 4);
    parts.push(raw.subarray(at + 8, at + 8 + size));
    at += 8 + size;
  }
  return Buffer.concat(parts);
}

/**
 * The paths of the checkout the codebase ignores and does not track, a whole
 * folder as one entry, read with the cache's repository and a scratch index.
 */
async function ignoredEntries(
  options: EnsureSetupOptions,
  scratch: string,
  work: string,
): Promise<string[]> {
  const env = {
    GIT_DIR: options.cachePath,
    GIT_WORK_TREE: work,
    GIT_INDEX_FILE: path.join(scratch, 'index'),
  };
  await git(['read-tree', options.commit], { cwd: scratch, env });
  const out = await git(
    ['ls-files', '-z', '--others', '--ignored', '--exclude-standard', '--directory'],
    { cwd: scratch, env },
  );
  const entries: string[] = [];
  for (const raw of out.split('\0')) {
    if (!raw) continue;
    const entry = raw.replace(/\/+$/u, '');
    const parts = entry.split('/');
    if (parts.some((p) => p === '' || p === '.' || p === '..') || parts[0] === '.git') {
      throw new SetupError(`the setup left a path evalrig will not keep: ${JSON.stringify(raw)}`);
    }
    entries.push(entry);
  }
  return entries.sort();
}

/** Moves one kept path out of the checkout, refusing a parent the commands replaced with a link. */
async function keep(work: string, filesDir: string, entry: string): Promise<void> {
  const parts = entry.split('/');
  let dir = work;
  for (const part of parts.slice(0, -1)) {
    dir = path.join(dir, part);
    const info = await lstat(dir);
    if (!info.isDirectory()) {
      throw new SetupError(`the setup replaced the folder ${path.relative(work, dir)} with a link`);
    }
  }
  const to = path.join(filesDir, entry);
  await mkdir(path.dirname(to), { recursive: true });
  await rename(path.join(work, entry), to);
}

/**
 * Copies a setup's kept files into a run's work tree (after its checkout,
 * before the agent starts). Paths the runner placed (`placed`: overlay,
 * staged paths) win: inside them nothing is overwritten.
 *
 * `link`: hardlink the files instead of copying them, far cheaper for a large
 * node_modules. Only sound when the work tree is the read-only lower layer of
 * an overlay (evalrig as root: src/workspace/quota.ts), so that a write in
 * the run copies the file up and never reaches the cache. Across filesystems
 * it falls back to a copy.
 *
 * @returns how long it took (ms) and whether the files were linked.
 */
export async function placeSetupOutput(
  output: SetupOutput,
  workTree: string,
  placed: readonly string[] = [],
  options: { link?: boolean } = {},
): Promise<{ ms: number; linked: boolean }> {
  const started = Date.now();
  const clashes = (entry: string): boolean =>
    placed.some((p) => p === entry || p.startsWith(`${entry}/`) || entry.startsWith(`${p}/`));
  const plain = output.entries.filter((e) => !clashes(e));
  const careful = output.entries.filter(clashes);
  let linked = false;
  if (plain.length > 0) {
    // One process for all: --parents keeps each entry's place under the work tree.
    const copy = (flags: string) =>
      execa('cp', [flags, '--parents', '-t', workTree, '--', ...plain], {
        cwd: output.filesDir,
        reject: false,
      });
    let r = options.link ? await copy('-al') : undefined;
    linked = r?.exitCode === 0;
    if (r && !linked) {
      // What was linked before the failure goes: a copy must not write through a link.
      await Promise.all(
        plain.map((e) => rm(path.join(workTree, e), { recursive: true, force: true })),
      );
    }
    if (!linked) r = await copy('-a');
    if (r!.exitCode !== 0) {
      throw new SetupError(`copying the setup's output into ${workTree} failed: ${r!.stderr}`);
    }
  }
  for (const entry of careful) {
    await cp(path.join(output.filesDir, entry), path.join(workTree, entry), {
      recursive: true,
      force: false,
      errorOnExist: false,
      verbatimSymlinks: true,
      preserveTimestamps: true,
    });
  }
  return { ms: Date.now() - started, linked };
}
