import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { git } from '../../src/git/index.js';

/**
 * The toy project: a tiny codebase with a history, a .gitignore and a test
 * command, made in a temporary folder for the tests (and the demo).
 */
export async function makeToyCodebase(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  await git(['init', '-q', '-b', 'main'], { cwd: dir });
  const write = (file: string, text: string) => writeFile(path.join(dir, file), text);
  await write('.gitignore', 'node_modules/\nbuild/\n');
  await write(
    'package.json',
    `${JSON.stringify({ name: 'toy', version: '1.0.0', scripts: { test: 'node test.js' } }, null, 2)}\n`,
  );
  await write('math.js', 'exports.add = (a, b) => a + b;\n');
  await git(['add', '-A'], { cwd: dir });
  await git(['commit', '-qm', 'first: add'], { cwd: dir });
  await write(
    'test.js',
    "const assert = require('assert');\nconst m = require('./math');\nassert.strictEqual(m.add(2, 3), 5);\nif (m.multiply) assert.strictEqual(m.multiply(2, 3), 6);\nconsole.log('ok');\n",
  );
  await git(['add', '-A'], { cwd: dir });
  await git(['commit', '-qm', 'second: tests'], { cwd: dir });
  return dir;
}

/** A scripted-agent action (see stand-in/agent/README.md). */
export type AgentAction = Record<string, unknown>;

export const PLAN = '# Plan\n\n- add multiply to math.js\n- test it\n';
export const PLAN_DONE = '# Plan\n\n- [x] add multiply to math.js\n- [x] test it\n';

/** Probes of the toy workflow: the stop kind the agent marked, and the plan as the PR description. */
export const TOY_PROBES = {
  kind: 'cat "$(git rev-parse --git-dir)/evalrig-agent/stop-kind" 2>/dev/null || true',
  description: 'cat PLAN.md 2>/dev/null || true',
};

export const TOY_HAND_OVER = ['awaiting-approval', 'conformant', 'blocked'];

/** Planning: write the plan, push, open a draft with it, hand over. */
export function planningTurn(extra: AgentAction[] = []): { actions: AgentAction[] } {
  return {
    actions: [
      { run: 'git checkout -q -b feature/multiply' },
      { write: 'PLAN.md', content: PLAN },
      { run: 'git add PLAN.md && git commit -qm "plan: multiply" && git push -q -u origin HEAD' },
      { run: 'gh pr create --draft --title "Add multiply" --body-file -', stdin: PLAN },
      ...extra,
      { stop: 'awaiting-approval' },
    ],
  };
}

/** Execution: do the work, refresh the description by an edit, hand over. */
export function executionTurn(options: { refresh?: boolean; extra?: AgentAction[] } = {}): {
  actions: AgentAction[];
} {
  const refresh = options.refresh ?? true;
  return {
    actions: [
      { append: 'math.js', content: 'exports.multiply = (a, b) => a * b;\n' },
      { write: 'PLAN.md', content: PLAN_DONE },
      { run: 'git add -A && git commit -qm "multiply" && git push -q' },
      ...(refresh ? [{ run: 'gh pr edit --body-file PLAN.md' }] : []),
      ...(options.extra ?? []),
      { stop: 'conformant' },
    ],
  };
}

export interface ToyEvalSetOptions {
  /** Extra top-level fields or overrides of the eval set. */
  readonly set?: Record<string, unknown>;
  /** Scripts by eval id: the scripted agent's turns. */
  readonly scripts: Record<string, { turns: { actions: AgentAction[] }[] }>;
  /** Files written into the eval set folder (relative path -> text). */
  readonly files?: Record<string, string>;
}

/** A temporary workspace with the toy codebase and an eval set over it. */
export interface ToyWorkspace {
  readonly root: string;
  readonly evalSetFile: string;
  readonly outDir: string;
  cleanup(): Promise<void>;
}

export const AGENT_COMMAND = [
  'evalrig-agent',
  '--script',
  '{eval_set_dir}/scripts/{eval}.json',
  '--turn',
  '{turn}',
];

export async function makeToyWorkspace(options: ToyEvalSetOptions): Promise<ToyWorkspace> {
  const root = await mkdtemp(path.join(tmpdir(), 'evalrig-toy-'));
  await makeToyCodebase(path.join(root, 'toy'));
  const setDir = path.join(root, 'evals');
  await mkdir(path.join(setDir, 'scripts'), { recursive: true });
  for (const [id, script] of Object.entries(options.scripts)) {
    await writeFile(
      path.join(setDir, 'scripts', `${id}.json`),
      `${JSON.stringify(script, null, 2)}\n`,
    );
  }
  for (const [file, text] of Object.entries(options.files ?? {})) {
    await mkdir(path.dirname(path.join(setDir, file)), { recursive: true });
    await writeFile(path.join(setDir, file), text);
  }
  const set = {
    name: 'toy',
    codebase: { path: '../toy' },
    agent: { command: AGENT_COMMAND },
    probes: TOY_PROBES,
    hand_over: TOY_HAND_OVER,
    resources: { memory: '512m', cpus: 1, pids: 256 },
    ...options.set,
  };
  const evalSetFile = path.join(setDir, 'evals.json');
  await writeFile(evalSetFile, `${JSON.stringify(set, null, 2)}\n`);
  return {
    root,
    evalSetFile,
    outDir: path.join(root, 'out'),
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

export interface CliRun {
  readonly exitCode?: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `evalrig run` over a workspace's eval set, from the sources; a failure is returned, not thrown. */
export async function evalrigRun(
  ws: ToyWorkspace,
  env?: Record<string, string>,
  args: readonly string[] = [],
): Promise<CliRun> {
  return execa(
    'node',
    ['--import', 'tsx', 'src/cli/main.ts', 'run', ws.evalSetFile, '--out', ws.outDir, ...args],
    { reject: false, ...(env ? { env } : {}) },
  );
}
