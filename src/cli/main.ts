#!/usr/bin/env node
import { isEvalrigError } from '../errors/index.js';
import { installSignalHandling } from '../runtime/signals.js';
import { version } from './version.js';
import { asksOnlyVersion, registerCommands } from './commands/index.js';

/**
 * The evalrig command line. User mistakes print one clear message and exit
 * non-zero with no stack trace; anything else is a bug and keeps its stack.
 */
export async function main(argv: readonly string[] = process.argv): Promise<number> {
  const args = argv.slice(2);
  // Said at once: the version needs no parser, and a CLI that takes a while to say it feels broken.
  if (asksOnlyVersion(args)) {
    process.stdout.write(`${version}\n`);
    return 0;
  }
  const { Command, CommanderError } = await import('commander');
  const program = new Command('evalrig')
    .description('Run coding-agent evaluations against real codebases in Docker containers.')
    .version(version, '-V, --version')
    .exitOverride()
    .showHelpAfterError('(run with --help for usage)');
  try {
    // Only the verb asked for is loaded: each brings its own heavy modules.
    await registerCommands(program, args);
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

// First of all: a signal that comes however early ends evalrig, never goes unheard.
installSignalHandling();

/** Exits once what was printed has been handed over (pipes are not synchronous everywhere). */
function exitAfterOutput(code: number): void {
  let pending = 2;
  const done = (): void => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write('', done);
  process.stderr.write('', done);
}

// The exit is explicit: a request left waiting on an engine that froze must not
// keep evalrig alive after it has answered.
main().then(
  (code) => exitAfterOutput(code),
  (error: unknown) => {
    process.stderr.write(`evalrig: internal error (a bug, please report it)\n`);
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    exitAfterOutput(70);
  },
);
