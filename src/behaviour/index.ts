/**
 * What the agent did, run by run, as figures read from its trajectory: tool calls by name,
 * shell commands by program, whether it ran the tests (and before its last commit), files
 * read and edited, gh calls. The report aggregates them per condition.
 */
export { runBehaviour, type RunBehaviour } from './run.js';
export { commandLines, programOf, runsTests, simpleCommands, commits } from './commands.js';
export { filesOf, toolAction } from './files.js';
export { passesStepCheck } from './step-checks.js';
export type { ShellCommand, ToolResultReading } from './run.js';
