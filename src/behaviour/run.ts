/**
 * What one run's agent did, as figures, from its trajectory (the host's record: the model
 * gateway's tool calls, the gh record, the stops' diffs). Never from the agent's own stream.
 */
import type { ToolStep, Trajectory } from '../trajectory/index.js';
import { commandLines, commits, programOf, runsTests, simpleCommands } from './commands.js';
import { filesOf } from './files.js';

export interface RunBehaviour {
  /** Whether a model's calls were witnessed (a command agent's run has none). */
  readonly witnessed: boolean;
  readonly model_calls: number;
  readonly tool_calls: number;
  readonly by_tool: Readonly<Record<string, number>>;
  readonly shell_commands: number;
  readonly by_program: Readonly<Record<string, number>>;
  readonly ran_tests: boolean;
  /** A test command before the last `git commit`; null when the run made no commit. */
  readonly tests_before_last_commit: boolean | null;
  readonly files_read: number;
  readonly files_edited: number;
  /** Files the last stop's diff counts (added, modified, deleted), or null with no stop. */
  readonly files_changed: number | null;
  readonly gh_calls: number;
  /** Each shell command in order, and whether the tool call holding it ended well. */
  readonly commands: readonly ShellCommand[];
  /** The files the tools read, and the files `cat`, `head`, `sed` ... named, in order. */
  readonly reads: readonly string[];
}

export interface ShellCommand {
  readonly text: string;
  /**
   * Whether the tool's result says the call ended well: not marked an error, and a zero exit
   * where the result writes one (Codex). false with no result witnessed: nothing says it did.
   */
  readonly ok: boolean;
}

/** How the run's agent writes its tool results: its refusals and a shell call's exit code. */
export interface ToolResultReading {
  refused(result: string): boolean;
  exitCode(result: string): number | null;
}

/** An agent with no known forms: nothing refused, no exit code in the text. */
const PLAIN: ToolResultReading = { refused: () => false, exitCode: () => null };

/** A tool call's end as its result says it: refused (it ran nothing), ended well or not. */
function outcomeOf(step: ToolStep, reading: ToolResultReading): 'refused' | boolean {
  if (step.output === null) return false;
  if (reading.refused(step.output)) return 'refused';
  if (step.is_error === true) return false;
  const code = reading.exitCode(step.output);
  return code === null || code === 0;
}

/** Programs whose arguments are files they read. */
const READERS = new Set(['cat', 'head', 'tail', 'less', 'more', 'sed', 'nl', 'bat']);

const bump = (m: Record<string, number>, k: string): void => {
  m[k] = (m[k] ?? 0) + 1;
};

/**
 * The run's figures. A call its agent refused (its own policy, `reading.refused`) ran nothing:
 * it counts as a tool call the model asked for, never as a command run, a file read or edited.
 */
export function runBehaviour(t: Trajectory, reading: ToolResultReading = PLAIN): RunBehaviour {
  const byTool: Record<string, number> = {};
  const byProgram: Record<string, number> = {};
  const read = new Set<string>();
  const edited = new Set<string>();
  let modelCalls = 0;
  let shell = 0;
  let gh = 0;
  let firstTest: number | null = null;
  let lastCommit: number | null = null;
  let filesChanged: number | null = null;
  let order = 0;
  const commands: ShellCommand[] = [];
  const reads: string[] = [];
  for (const step of t.steps) {
    if (step.kind === 'model') modelCalls++;
    else if (step.kind === 'gh') gh++;
    else if (step.kind === 'stop') {
      const d = step.diff;
      filesChanged = d.files_added + d.files_modified + d.files_deleted;
    } else if (step.kind === 'tool') {
      bump(byTool, step.name);
      const outcome = outcomeOf(step, reading);
      if (outcome === 'refused') continue;
      const files = filesOf(step.name, step.input);
      for (const f of files.read) {
        read.add(f);
        reads.push(f);
      }
      for (const f of files.edited) edited.add(f);
      for (const line of commandLines(step.input)) {
        for (const command of simpleCommands(line)) {
          order++;
          const program = programOf(command);
          if (program === null) continue;
          shell++;
          commands.push({ text: command, ok: outcome });
          if (READERS.has(program))
            reads.push(
              ...command
                .split(/\s+/u)
                .slice(1)
                .filter((w) => !w.startsWith('-')),
            );
          bump(byProgram, program);
          if (runsTests(command) && firstTest === null) firstTest = order;
          if (commits(command)) lastCommit = order;
        }
      }
    }
  }
  return {
    witnessed: modelCalls > 0,
    model_calls: modelCalls,
    tool_calls: Object.values(byTool).reduce((a, b) => a + b, 0),
    by_tool: byTool,
    shell_commands: shell,
    by_program: byProgram,
    ran_tests: firstTest !== null,
    tests_before_last_commit:
      lastCommit === null ? null : firstTest !== null && firstTest < lastCommit,
    files_read: read.size,
    files_edited: edited.size,
    files_changed: filesChanged,
    gh_calls: gh,
    commands,
    reads,
  };
}
