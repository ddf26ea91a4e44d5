import { UsageError } from './errors.js';

export interface AgentArgs {
  readonly script: string;
  readonly turn: number;
  readonly prompt: string;
  readonly help: boolean;
}

export const USAGE = `usage: evalrig-agent --script <file.json> --turn <n> [--prompt <text>]

Plays the actions of turn n (1 = the first) of a script, in the current
directory. Other arguments are ignored, so that the agent command of an eval
set can pass what it passes to a real agent.`;

const VALUED = new Set(['--script', '--turn', '--prompt']);

/**
 * Reads `--script`, `--turn` and `--prompt` (also as `--name=value`). Any
 * other argument is ignored; a missing or malformed one is a UsageError.
 */
export function parseArgs(argv: readonly string[]): AgentArgs {
  const values = new Map<string, string>();
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') help = true;
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (!VALUED.has(name)) continue;
    const value = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined) throw new UsageError(`${name} needs a value\n${USAGE}`);
    values.set(name, value);
  }
  if (help) return { script: '', turn: 0, prompt: '', help };
  const script = values.get('--script');
  if (!script) throw new UsageError(`--script is required\n${USAGE}`);
  const rawTurn = values.get('--turn');
  if (rawTurn === undefined) throw new UsageError(`--turn is required\n${USAGE}`);
  if (!/^[1-9]\d*$/.test(rawTurn)) {
    throw new UsageError(`--turn must be a whole number from 1, not "${rawTurn}"`);
  }
  return { script, turn: Number(rawTurn), prompt: values.get('--prompt') ?? '', help };
}
