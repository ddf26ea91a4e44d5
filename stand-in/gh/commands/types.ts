import type { CommandSpec, ParsedArgs } from '../cli/args.js';
import type { Ctx } from '../context.js';

/** What a command answers when it does not fail (an error is thrown instead). */
export interface Answer {
  stdout?: string;
  stderr?: string;
  exitCode?: number;
}

/** A command the stand-in plays. */
export interface Command {
  spec: CommandSpec;
  run(ctx: Ctx, args: ParsedArgs): Answer;
}
