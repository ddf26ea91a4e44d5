import type { Command } from 'commander';

type Register = (program: Command) => void;

/**
 * Every verb of the CLI, each in its own file, loaded only when needed: a
 * verb's file imports what it runs (Docker clients, the report, the judge),
 * and `evalrig validate` or `--version` must not pay for the others.
 */
const VERBS: Readonly<Record<string, () => Promise<Register>>> = {
  doctor: async () => (await import('./doctor.js')).registerDoctor,
  image: async () => (await import('./image.js')).registerImage,
  run: async () => (await import('./run.js')).registerRun,
  validate: async () => (await import('./validate.js')).registerValidate,
  plan: async () => (await import('./plan.js')).registerPlan,
  report: async () => (await import('./report.js')).registerReport,
  compare: async () => (await import('./compare.js')).registerCompare,
  grade: async () => (await import('./grade.js')).registerGrade,
  view: async () => (await import('./view.js')).registerView,
  export: async () => (await import('./export.js')).registerExport,
};

const VERSION_FLAGS = new Set(['-V', '--version']);

/** Whether `args` (the command line after the program) asks the version and nothing else. */
export function asksOnlyVersion(args: readonly string[]): boolean {
  return args.length > 0 && args.every((a) => VERSION_FLAGS.has(a));
}

/**
 * The verbs `args` (the command line after the program) needs: the one it
 * names, none when it only asks the version, else every verb (the help lists
 * them all, and an unknown verb is told apart from the known ones).
 *
 * @example
 * verbsFor(['validate', 'evals.json']); // ['validate']
 * verbsFor(['--version']); // []
 */
export function verbsFor(args: readonly string[]): string[] {
  const first = args.find((a) => !a.startsWith('-'));
  if (first !== undefined && Object.hasOwn(VERBS, first) && args[0] === first) return [first];
  if (asksOnlyVersion(args)) return [];
  return Object.keys(VERBS);
}

/** Registers the verbs `args` needs on `program` (every verb when `args` is omitted). */
export async function registerCommands(
  program: Command,
  args: readonly string[] | undefined = undefined,
): Promise<void> {
  const names = args === undefined ? Object.keys(VERBS) : verbsFor(args);
  const registers = await Promise.all(names.map((name) => VERBS[name]!()));
  for (const register of registers) register(program);
}
