import type { Command } from 'commander';
import { registerDoctor } from './doctor.js';
import { registerImage } from './image.js';
import { registerRun } from './run.js';
import { registerValidate } from './validate.js';
import { registerPlan } from './plan.js';
import { registerReport } from './report.js';
import { registerCompare } from './compare.js';
import { registerGrade } from './grade.js';

/** Every verb of the CLI; each lives in its own file. */
export function registerCommands(program: Command): void {
  registerDoctor(program);
  registerImage(program);
  registerRun(program);
  registerValidate(program);
  registerPlan(program);
  registerReport(program);
  registerCompare(program);
  registerGrade(program);
}
