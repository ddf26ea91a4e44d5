import type { Command } from 'commander';
import { OVERVIEW } from './overview.js';

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
  tasks: async () => (await import('./tasks.js')).registerTasks,
  'try-script': async () => (await import('./try-script.js')).registerTryScript,
};

const VERSION_FLAGS = new Set(['-V', '--version']);

/** Whether `args` (the command line after the program) asks the version and nothing else. */
export function asksOnlyVersion(args: readonly string[]): boolean {
  return args.length > 0 && args.every((a) => VERSION_FLAGS.has(a));
}

/**
 * The verbs `args` (the command line after the program) needs: the one it names (also as
 * `help <verb>`), none when it only asks the version, else `overview`: the help lists every
 * verb, and an unknown verb is told apart from the known ones, both from their summaries.
 *
 * @example
 * verbsFor(['validate', 'evals.json']); // ['validate']
 * verbsFor(['help', 'run']); // ['run']
 * verbsFor(['--version']); // []
 * verbsFor(['--help']); // 'overview'
 */
export function verbsFor(args: readonly string[]): string[] | 'overview' {
  const first = args.find((a) => !a.startsWith('-'));
  if (first !== undefined && Object.hasOwn(VERBS, first) && args[0] === first) return [first];
  if (args[0] === 'help' && args[1] !== undefined && Object.hasOwn(VERBS, args[1]))
    return [args[1]];
  if (asksOnlyVersion(args)) return [];
  return 'overview';
}

/**
 * Each verb as the help lists it, its file not loaded: a command named, described and worded
 * as its own file would make it, which runs nothing (a verb is run only once it is loaded).
 */
function registerOverview(program: Command): void {
  const terms = new Map<string, string>();
  for (const [name, { term, summary }] of Object.entries(OVERVIEW)) {
    program.command(name).description(summary);
    terms.set(name, term);
  }
  // commander's own term for its help command: taken before the terms are configured.
  const plain = program.createHelp();
  program.configureHelp({
    subcommandTerm: (cmd) => terms.get(cmd.name()) ?? plain.subcommandTerm(cmd),
  });
}

/** Registers the verbs `args` needs on `program` (every verb, loaded, when `args` is omitted). */
export async function registerCommands(
  program: Command,
  args: readonly string[] | undefined = undefined,
): Promise<void> {
  const names = args === undefined ? Object.keys(VERBS) : verbsFor(args);
  if (names === 'overview') {
    registerOverview(program);
    return;
  }
  const registers = await Promise.all(names.map((name) => VERBS[name]!()));
  for (const register of registers) register(program);
}
