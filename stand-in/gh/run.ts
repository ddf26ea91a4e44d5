import { readFileSync } from 'node:fs';
import { parseArgs } from './cli/args.js';
import { dispatch, HELP_COMMAND } from './commands/index.js';
import type { CallNotes, CallResult, Ctx } from './context.js';
import { GhError, NotPlayedError } from './errors.js';
import { helpPage } from './help/index.js';
import { findGitDirs, NOT_A_GIT_REPOSITORY, RepoContext } from './git/index.js';
import { reportMessage, RECORDER_ENV, sendReport } from './report/index.js';
import { Store, type CallRecord } from './store/index.js';

/** The login the stand-in is logged in as when GH_STAND_IN_USER is not set. */
export const DEFAULT_USER = 'evalrig';

/**
 * Plays one call and records it (when inside a git repository).
 *
 * @param argv the arguments after `gh`
 * @returns what to print and the exit code
 */
export function runCall(argv: string[], cwd: string, env: NodeJS.ProcessEnv): CallResult {
  const call = new CallContext(cwd, env);
  const played = playCall(argv, call);
  return call.dirs ? recordCall(call, argv, played) : played.result;
}

/** One call's context: its repository and store opened lazily, its notes for the record. */
class CallContext implements Ctx {
  readonly dirs: ReturnType<typeof findGitDirs>;
  readonly notes: CallNotes = { stdin: null, description: null, pr: null, marksReady: false };
  readonly warnings: string[] = [];
  private repoContext: RepoContext | undefined;
  private opened: Store | undefined;
  private fixedNow: string | undefined;
  private stdinRead = false;

  constructor(
    readonly cwd: string,
    readonly env: NodeJS.ProcessEnv,
  ) {
    this.dirs = findGitDirs(cwd, env);
  }

  now = (): string => {
    const env = this.env;
    this.fixedNow ??= toGitHubTime(
      env.GH_STAND_IN_NOW ? new Date(env.GH_STAND_IN_NOW) : new Date(),
    );
    return this.fixedNow;
  };
  user = (): string => this.env.GH_STAND_IN_USER || DEFAULT_USER;
  repo = (): RepoContext => {
    if (!this.dirs) throw new GhError(NOT_A_GIT_REPOSITORY);
    this.repoContext ??= new RepoContext(this.dirs, this.cwd, this.env);
    return this.repoContext;
  };
  store = (): Store => {
    if (!this.dirs) throw new GhError(NOT_A_GIT_REPOSITORY);
    this.opened ??= new Store(this.dirs.gitDir, () => ({
      now: this.now(),
      author: this.user(),
      urlOf: (n) => `https://github.com/${safeRepoName(this.repo)}/pull/${n}`,
    }));
    return this.opened;
  };
  readStdin = (): string => {
    if (!this.stdinRead) {
      this.notes.stdin = readAllStdin();
      this.stdinRead = true;
    }
    return this.notes.stdin ?? '';
  };
  /** Closes the store if it was opened (after the report, if one is on its way). */
  close(reported: Promise<void> | undefined): void {
    this.opened?.close(reported);
  }
}

interface PlayedCall {
  readonly command: CallRecord['command'];
  readonly played: boolean;
  readonly result: CallResult;
}

/** Runs the command the arguments name; every failure becomes gh's answer or a refusal. */
function playCall(argv: string[], ctx: CallContext): PlayedCall {
  let command: CallRecord['command'] = null;
  try {
    const { command: cmd, rest } = dispatch(argv);
    command = cmd.spec.name;
    const args = parseArgs(cmd.spec, rest);
    // `--help` wins over everything the command would check or do (cobra's flag.ErrHelp).
    if (args.help) command = HELP_COMMAND;
    const answer = args.help ? { stdout: helpPage(cmd.spec) } : cmd.run(ctx, args);
    const stderr = ctx.warnings.join('') + (answer.stderr ?? '');
    const result = { stdout: answer.stdout ?? '', stderr, exitCode: answer.exitCode ?? 0 };
    return { command, played: true, result };
  } catch (e) {
    return { command, ...failedCall(e, ctx.warnings.join('')) };
  }
}

function failedCall(e: unknown, warnings: string): { played: boolean; result: CallResult } {
  if (e instanceof NotPlayedError) {
    return {
      played: false,
      result: { stdout: '', stderr: `${warnings}${e.message}\n`, exitCode: 1 },
    };
  }
  if (e instanceof GhError) {
    const stderr = `${warnings}${e.message}\n${e.usage ? `\n${e.usage}\n` : ''}`;
    return { played: true, result: { stdout: '', stderr, exitCode: e.exitCode } };
  }
  // A fault of the stand-in or of a prepared state, not an answer gh would give.
  const message = (e as Error).message;
  const text = message.startsWith('gh stand-in:')
    ? `${message}\n`
    : `gh stand-in: internal error: ${message}\n`;
  return { played: false, result: { stdout: '', stderr: warnings + text, exitCode: 1 } };
}

/** Records the call; what was recorded is what the call answers. */
function recordCall(ctx: CallContext, argv: string[], call: PlayedCall): CallResult {
  const { env, notes } = ctx;
  let reported: Promise<void> | undefined;
  try {
    const recorded = ctx.store().record({
      time: env.GH_STAND_IN_NOW ? ctx.now() : new Date().toISOString(),
      argv,
      cwd: ctx.cwd,
      command: call.command,
      stdin: notes.stdin,
      description: notes.description,
      exit_code: call.result.exitCode,
      stdout: call.result.stdout,
      stderr: call.result.stderr,
      played: call.played,
      marks_ready: notes.marksReady,
      pr: notes.pr,
    });
    const socket = env[RECORDER_ENV];
    if (socket) {
      reported = sendReport(socket, reportMessage(recorded.line, ctx.store().current()));
    }
    // A refusal when the record was damaged.
    const { stdout, stderr, exit_code } = recorded.call;
    return { stdout, stderr, exitCode: exit_code };
  } catch (e) {
    // Not recorded, not done: a call's state change is written with its line or not at all.
    return {
      stdout: '',
      stderr: `gh stand-in: could not record the call: ${(e as Error).message}; nothing was done\n`,
      exitCode: 1,
    };
  } finally {
    ctx.close(reported);
  }
}

/** `2026-11-29T19:00:00Z`: GitHub's timestamps have no fraction of a second. */
function toGitHubTime(d: Date): string {
  if (Number.isNaN(d.getTime())) throw new GhError('gh stand-in: GH_STAND_IN_NOW is not a date');
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function safeRepoName(getRepo: () => RepoContext): string {
  try {
    const name = getRepo().repoName();
    return `${name.owner}/${name.name}`;
  } catch {
    return 'OWNER/REPO';
  }
}

function readAllStdin(): string {
  try {
    return readFileSync(0, 'utf8');
  } catch (e) {
    // A closed or absent standard input reads as empty, as gh's io.ReadAll does.
    if (['EAGAIN', 'EOF', 'ENXIO', 'EBADF'].includes((e as NodeJS.ErrnoException).code ?? ''))
      return '';
    throw e;
  }
}
