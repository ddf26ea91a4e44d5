#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { isEvalrigError } from '../errors/index.js';
import { version } from './version.js';
import { registerCommands } from './commands/index.js';

/**
 * The evalrig command line. User mistakes print one clear message and exit
 * non-zero with no stack trace; anything else is a bug and keeps its stack.
 */
export async function main(argv: readonly string[] = process.argv): Promise<number> {
  const program = new Command('evalrig')
    .description('Run coding-agent evaluations against real codebases in Docker containers.')
    .version(version, '-V, --version')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)');
  registerCommands(program);
  try {
    await program.parseAsync([...argv]);
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 1 ? 2 : error.exitCode;
    if (isEvalrigError(error)) {
      process.stderr.write(`evalrig: ${error.message}\n`);
      return error.exitCode;
    }
    throw error;
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`evalrig: internal error (a bug, please report it)\n`);
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 70;
  },
);
