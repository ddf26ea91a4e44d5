import type { Command } from 'commander';
import { registerDoctor } from './doctor.js';

/** Every verb of the CLI; each lives in its own file. */
export function registerCommands(program: Command): void {
  registerDoctor(program);
}
