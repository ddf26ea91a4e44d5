// evalrig-agent: the scripted agent, a stand-in for a coding session that plays
// a JSON script of actions per turn, deterministically. See README.md.
import { parseArgs, USAGE } from './args.js';
import { PlayError, ScriptError, UsageError } from './errors.js';
import { clearStopKind, playActions } from './play.js';
import { loadScript } from './script.js';

const NAME = 'evalrig-agent';

function log(line: string): void {
  process.stderr.write(`${NAME}: ${line}\n`);
}

/** Plays one turn; resolves to the process's exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv);
  if (args.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const script = loadScript(args.script);
  const turn = script.turns[args.turn - 1];
  if (turn === undefined) {
    log(`turn ${args.turn}: the script has ${script.turns.length} turn(s); nothing to do`);
    return 0;
  }
  const cwd = process.cwd();
  clearStopKind(cwd);
  log(`turn ${args.turn}: ${turn.actions.length} action(s) from ${args.script}`);
  const outcome = await playActions(turn.actions, {
    turn: args.turn,
    prompt: args.prompt,
    cwd,
    log,
    say: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  });
  return outcome.exitCode;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof ScriptError || error instanceof UsageError || error instanceof PlayError) {
      process.stderr.write(`${NAME}: ${error.message}\n`);
      process.exitCode = error.exitCode;
      return;
    }
    process.stderr.write(`${NAME}: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
    process.exitCode = 70;
  },
);
