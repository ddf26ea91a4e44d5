import { execa } from 'execa';
import { EvalrigError } from '../errors/index.js';
import { NO_TRANSPORT_OPTIONS, PROTECTED_OPTIONS, gitHome, isolatedEnv } from './isolation.js';

export interface GitOptions {
  /** Folder git runs in. */
  cwd: string;
  /** Text or bytes fed to git's standard input. */
  input?: string | Uint8Array;
  /** Variables set on top of the isolated environment (e.g. GIT_INDEX_FILE for a scratch index). */
  env?: Readonly<Record<string, string>>;
  /** Date for commits made by this call (author and committer); default: a fixed date. */
  date?: string;
  /** Throw a {@link GitError} when git exits non-zero (default true). */
  reject?: boolean;
  /**
   * Keep at most this many bytes of standard output; the rest is read and
   * counted but dropped (see {@link GitResult.stdoutBytes}).
   */
  maxStdoutBytes?: number;
  /**
   * Which transports git may use. `'none'` (the default) disallows every one
   * (`protocol.allow=never`) and lazy fetching, so no repository's config can
   * make git reach out or run a transport command on the host; `'any'` is for
   * the codebase sources alone (ls-remote, clone, fetch, `clone --local`).
   */
  transport?: 'none' | 'any';
  /** Kill git after this long (default {@link DEFAULT_TIMEOUT_MS} by transport). */
  timeoutMs?: number;
}

/** Bounds of a git call: local work is quick, a remote clone may take long. */
export const DEFAULT_TIMEOUT_MS = { none: 5 * 60_000, any: 30 * 60_000 } as const;

export interface GitResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Size of the whole standard output, kept or not. */
  stdoutBytes: number;
  /** True when standard output was cut at `maxStdoutBytes`. */
  stdoutTruncated: boolean;
}

/** git exited non-zero (or could not start). The message quotes the command and git's own words. */
export class GitError extends EvalrigError {
  readonly args: readonly string[];
  readonly cwd: string;
  readonly stderr: string;
  readonly gitExitCode: number;

  constructor(args: readonly string[], cwd: string, exitCode: number, stderr: string) {
    const said = stderr.trim() || '(no output)';
    super(`git ${args.join(' ')} failed in ${cwd} (exit ${exitCode}): ${said}`);
    this.args = args;
    this.cwd = cwd;
    this.stderr = stderr;
    this.gitExitCode = exitCode;
  }
}

/** Subcommands that create a repository and so are given the empty template. */
const CREATES_REPOSITORY = new Set(['clone', 'init']);

/**
 * Runs git, isolated from the operator's configuration: no system or global
 * config (the global file is evalrig's own and only trusts every directory),
 * no inherited GIT_CONFIG_* injection or routing variables, hooks disabled, an
 * empty template for clone and init, a fixed identity, no prompts, LC_ALL=C.
 *
 * @example
 * const { stdout } = await runGit(['rev-parse', 'HEAD'], { cwd: repo });
 * const probe = await runGit(['cat-file', '-e', sha], { cwd: repo, reject: false });
 * if (probe.exitCode !== 0) ...
 */
export async function runGit(args: readonly string[], options: GitOptions): Promise<GitResult> {
  const transport = options.transport ?? 'none';
  const full = [
    ...PROTECTED_OPTIONS,
    ...(transport === 'none' ? NO_TRANSPORT_OPTIONS : []),
    ...withTemplate(args),
  ];
  // An empty GIT_ALLOW_PROTOCOL allows no transport whatever a repository's
  // config says (`protocol.ext.allow=always` there beats `-c protocol.allow`),
  // and git >= 2.44 also refuses to fetch missing objects lazily.
  const extra: Record<string, string> =
    transport === 'none' ? { GIT_ALLOW_PROTOCOL: '', GIT_NO_LAZY_FETCH: '1' } : {};
  if (options.date !== undefined) {
    extra.GIT_AUTHOR_DATE = options.date;
    extra.GIT_COMMITTER_DATE = options.date;
  }
  const env = isolatedEnv(process.env, { ...extra, ...options.env });
  const limit = options.maxStdoutBytes;
  const subprocess = execa('git', full, {
    cwd: options.cwd,
    env,
    extendEnv: false,
    reject: false,
    stripFinalNewline: false,
    ...(options.input === undefined ? { stdin: 'ignore' as const } : { input: options.input }),
    ...(limit === undefined ? {} : { buffer: { stdout: false, stderr: true } }),
    maxBuffer: 512 * 1024 * 1024,
    timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS[transport],
    killSignal: 'SIGKILL',
  });
  let kept: string | undefined;
  let stdoutBytes = 0;
  let truncated = false;
  if (limit !== undefined) {
    const chunks: Buffer[] = [];
    let keptBytes = 0;
    for await (const chunk of subprocess.stdout as AsyncIterable<Buffer>) {
      stdoutBytes += chunk.length;
      if (keptBytes < limit) {
        const part = chunk.subarray(0, limit - keptBytes);
        chunks.push(part);
        keptBytes += part.length;
      }
    }
    truncated = stdoutBytes > limit;
    kept = Buffer.concat(chunks).toString('utf8');
  }
  const result = await subprocess;
  const stdout = kept ?? String(result.stdout ?? '');
  const stderr = String(result.stderr ?? '');
  const exitCode = result.exitCode ?? (result.failed ? 128 : 0);
  if (result.timedOut) {
    throw new GitError(
      args,
      options.cwd,
      128,
      `timed out after ${options.timeoutMs ?? DEFAULT_TIMEOUT_MS[transport]} ms`,
    );
  }
  if (result.failed && result.exitCode === undefined) {
    // git could not be started at all (missing binary, bad cwd).
    throw new GitError(args, options.cwd, exitCode, result.message ?? 'git could not be started');
  }
  if (exitCode !== 0 && options.reject !== false) {
    throw new GitError(args, options.cwd, exitCode, stderr);
  }
  if (limit === undefined) stdoutBytes = Buffer.byteLength(stdout);
  return { stdout, stderr, exitCode, stdoutBytes, stdoutTruncated: truncated };
}

/**
 * Runs git (rejecting on failure) and returns its standard output without the
 * final newline: the shape most callers want.
 *
 * @example
 * const head = await git(['rev-parse', 'HEAD'], { cwd: repo });
 */
export async function git(args: readonly string[], options: GitOptions): Promise<string> {
  const { stdout } = await runGit(args, { ...options, reject: true });
  return stdout.endsWith('\n') ? stdout.slice(0, -1) : stdout;
}

function withTemplate(args: readonly string[]): string[] {
  const [command, ...rest] = args;
  if (command === undefined || !CREATES_REPOSITORY.has(command)) return [...args];
  if (rest.some((arg) => arg.startsWith('--template'))) return [...args];
  return [command, `--template=${gitHome().emptyTemplate}`, ...rest];
}
