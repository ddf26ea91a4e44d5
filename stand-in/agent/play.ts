import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { PlayError } from './errors.js';
import { findGitDir } from './gitdir.js';
import type { Action } from './script.js';
import { skillActions } from './skill.js';

/** Where the kind of a stop is left, inside the repository's git directory. */
export const STOP_KIND_FILE = path.join('evalrig-agent', 'stop-kind');

/** Nested `follow`s deeper than this are refused (a skill that follows itself). */
const MAX_FOLLOW_DEPTH = 8;

/** What every action of one turn sees. */
export interface TurnContext {
  readonly turn: number;
  readonly prompt: string;
  /** The work tree: every path of the script is relative to it. */
  readonly cwd: string;
  /** One line per action played (stderr in the program). */
  readonly log: (line: string) => void;
  /** The final messages (`say`; stdout in the program). */
  readonly say: (text: string) => void;
}

/** How a list of actions ended: played to the end, or cut by a failing run. */
export type Outcome =
  { readonly exitCode: 0 } | { readonly exitCode: number; readonly failed: string };

/** Replaces {turn} and {prompt}; other braces are left as they are. */
export function fill(text: string, context: Pick<TurnContext, 'turn' | 'prompt'>): string {
  return text.replace(/\{(turn|prompt)\}/g, (_, name: string) =>
    name === 'turn' ? String(context.turn) : context.prompt,
  );
}

/** One line for the log: newlines shown as ⏎, long text cut. */
function brief(text: string, max = 160): string {
  const one = text.replace(/\r?\n/g, '⏎');
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

function within(context: TurnContext, file: string): string {
  return path.resolve(context.cwd, file);
}

/** Clears the previous turn's stop kind, so a turn with no `stop` leaves none. */
export function clearStopKind(cwd: string): void {
  const gitDir = findGitDir(cwd);
  if (gitDir) rmSync(path.join(gitDir, STOP_KIND_FILE), { force: true });
}

function writeStopKind(context: TurnContext, stopKind: string): void {
  const gitDir = findGitDir(context.cwd);
  if (!gitDir) {
    throw new PlayError(`stop ${stopKind}: ${context.cwd} is not inside a git repository`);
  }
  const file = path.join(gitDir, STOP_KIND_FILE);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${stopKind}\n`);
}

function runCommand(context: TurnContext, command: string, stdin: string | undefined): number {
  // The command's output goes to stderr: stdout is the session's final message only.
  const result = spawnSync('sh', ['-c', command], {
    cwd: context.cwd,
    input: stdin,
    stdio: [stdin === undefined ? 'ignore' : 'pipe', 2, 2],
    env: { ...process.env, EVALRIG_TURN: String(context.turn), EVALRIG_PROMPT: context.prompt },
  });
  if (result.error) throw new PlayError(`run ${brief(command)}: ${result.error.message}`);
  if (result.status !== null) return result.status;
  const signals: Record<string, number> = { SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 };
  return 128 + (signals[result.signal ?? ''] ?? 0);
}

/**
 * Plays actions in order, in `context.cwd`. A `run` that fails (and does not
 * allow failure) ends the list with its exit code; nothing after it is played.
 */
export async function playActions(
  actions: readonly Action[],
  context: TurnContext,
  depth = 0,
): Promise<Outcome> {
  for (const action of actions) {
    const outcome = await playAction(action, context, depth);
    if (outcome.exitCode !== 0) return outcome;
  }
  return { exitCode: 0 };
}

async function playAction(action: Action, context: TurnContext, depth: number): Promise<Outcome> {
  const { log } = context;
  if ('write' in action || 'append' in action) {
    const appending = 'append' in action;
    const target = fill(appending ? action.append : action.write, context);
    const content = fill(action.content, context);
    log(`${appending ? 'append' : 'write'} ${target} (${Buffer.byteLength(content)} bytes)`);
    const file = within(context, target);
    mkdirSync(path.dirname(file), { recursive: true });
    (appending ? appendFileSync : writeFileSync)(file, content);
  } else if ('delete' in action) {
    const target = fill(action.delete, context);
    const file = within(context, target);
    const present = existsSync(file);
    log(`delete ${target}${present ? '' : ' (absent: nothing to do)'}`);
    rmSync(file, { recursive: true, force: true });
  } else if ('run' in action) {
    const command = fill(action.run, context);
    const stdin = action.stdin === undefined ? undefined : fill(action.stdin, context);
    log(`run ${brief(command)}${stdin === undefined ? '' : ` <<< ${brief(stdin, 60)}`}`);
    const code = runCommand(context, command, stdin);
    if (code !== 0) {
      if (action.allow_failure) {
        log(`run exited with ${code} (allowed)`);
      } else {
        log(`run exited with ${code}: the turn stops here`);
        return { exitCode: code, failed: command };
      }
    }
  } else if ('say' in action) {
    const text = fill(action.say, context);
    log(`say ${brief(text)}`);
    context.say(text);
  } else if ('stop' in action) {
    const stopKind = fill(action.stop, context);
    log(`stop ${stopKind}`);
    writeStopKind(context, stopKind);
  } else if ('follow' in action) {
    const target = fill(action.follow, context);
    const file = within(context, target);
    if (!existsSync(file)) {
      log(`follow ${target} (absent: nothing to follow)`);
      return { exitCode: 0 };
    }
    if (depth >= MAX_FOLLOW_DEPTH) {
      throw new PlayError(`follow ${target}: more than ${MAX_FOLLOW_DEPTH} nested follows`);
    }
    const steps = skillActions(readFileSync(file, 'utf8'), target);
    log(`follow ${target} (${steps.length} actions)`);
    return playActions(steps, context, depth + 1);
  } else if ('if_exists' in action) {
    const target = fill(action.if_exists, context);
    const present = existsSync(within(context, target));
    log(`if_exists ${target}: ${present ? 'yes, then' : 'no, else'}`);
    return playActions((present ? action.then : action.else) ?? [], context, depth);
  } else {
    log(`sleep ${action.sleep}s`);
    await new Promise((resolve) => setTimeout(resolve, action.sleep * 1000));
  }
  return { exitCode: 0 };
}
