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
  const dirs = findGitDirs(cwd, env);
  const notes: CallNotes = { stdin: null, description: null, pr: null, marksReady: false };
  const warnings: string[] = [];
  let repo: RepoContext | undefined;
  let store: Store | undefined;
  let fixedNow: string | undefined;

  const now = (): string => {
    fixedNow ??= toGitHubTime(env.GH_STAND_IN_NOW ? new Date(env.GH_STAND_IN_NOW) : new Date());
    return fixedNow;
  };
  const user = (): string => env.GH_STAND_IN_USER || DEFAULT_USER;
  const getRepo = (): RepoContext => {
    if (!dirs) throw new GhError(NOT_A_GIT_REPOSITORY);
    repo ??= new RepoContext(dirs, cwd, env);
    return repo;
  };
  const getStore = (): Store => {
    if (!dirs) throw new GhError(NOT_A_GIT_REPOSITORY);
    store ??= new Store(dirs.gitDir, () => ({
      now: now(),
      author: user(),
      urlOf: (n) => {
        const name = safeRepoName(getRepo);
        return `https://github.com/${name}/pull/${n}`;
      },
    }));
    return store;
  };
  let stdinRead = false;
  const ctx: Ctx = {
    cwd,
    env,
    notes,
    warnings,
    repo: getRepo,
    store: getStore,
    now,
    user,
    readStdin() {
      if (!stdinRead) {
        notes.stdin = readAllStdin();
        stdinRead = true;
      }
      return notes.stdin ?? '';
    },
  };

  let command: CallRecord['command'] = null;
  let played = true;
  let result: CallResult;
  try {
    const { command: cmd, rest } = dispatch(argv);
    command = cmd.spec.name;
    const args = parseArgs(cmd.spec, rest);
    // `--help` wins over everything the command would check or do (cobra's flag.ErrHelp).
    if (args.help) command = HELP_COMMAND;
    const answer = args.help ? { stdout: helpPage(cmd.spec) } : cmd.run(ctx, args);
    result = {
      stdout: answer.stdout ?? '',
      stderr: warnings.join('') + (answer.stderr ?? ''),
      exitCode: answer.exitCode ?? 0,
    };
  } catch (e) {
    result = { stdout: '', stderr: warnings.join(''), exitCode: 1 };
    if (e instanceof NotPlayedError) {
      played = false;
      result.stderr += `${e.message}\n`;
    } else if (e instanceof GhError) {
      result.exitCode = e.exitCode;
      result.stderr += `${e.message}\n${e.usage ? `\n${e.usage}\n` : ''}`;
    } else {
      // A fault of the stand-in or of a prepared state, not an answer gh would give.
      played = false;
      const message = (e as Error).message;
      result.stderr += message.startsWith('gh stand-in:')
        ? `${message}\n`
        : `gh stand-in: internal error: ${message}\n`;
    }
  }

  if (dirs) {
    let reported: Promise<void> | undefined;
    try {
      const recorded = getStore().record({
        time: env.GH_STAND_IN_NOW ? now() : new Date().toISOString(),
        argv,
        cwd,
        command,
        stdin: notes.stdin,
        description: notes.description,
        exit_code: result.exitCode,
        stdout: result.stdout,
        stderr: result.stderr,
        played,
        marks_ready: notes.marksReady,
        pr: notes.pr,
      });
      // What was recorded is what the call answers (a refusal when the record was damaged).
      const { call } = recorded;
      result = { stdout: call.stdout, stderr: call.stderr, exitCode: call.exit_code };
      const socket = env[RECORDER_ENV];
      if (socket) {
        reported = sendReport(socket, reportMessage(recorded.line, getStore().current()));
      }
    } catch (e) {
      // Not recorded, not done: a call's state change is written with its line or not at all.
      result = {
        stdout: '',
        stderr: `gh stand-in: could not record the call: ${(e as Error).message}; nothing was done\n`,
        exitCode: 1,
      };
    } finally {
      store?.close(reported);
    }
  }
  return result;
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
