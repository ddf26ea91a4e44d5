import type { CommandSpec, ParsedArgs } from '../cli/args.js';
import type { Ctx } from '../context.js';
import type { CallRecord } from '../store/index.js';

/** What a command answers when it does not fail (an error is thrown instead). */
export interface Answer {
  stdout?: string;
  stderr?: string;
  exitCode?: number;
}

/** The name a call line records for a command played (the call schema lists them). */
export type PlayedCommand = NonNullable<CallRecord['command']>;

/** A command the stand-in plays. */
export interface Command {
  spec: CommandSpec & { name: PlayedCommand };
  run(ctx: Ctx, args: ParsedArgs): Answer;
}
