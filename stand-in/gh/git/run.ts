import type { SpawnSyncReturns } from 'node:child_process';
import { createRequire } from 'node:module';

/** What one git subprocess gave. */
export interface GitOutput {
  status: number;
  stdout: string;
  stderr: string;
}

let spawnSync: typeof import('node:child_process').spawnSync | undefined;

/**
 * Runs git in `cwd` and waits for it. child_process is loaded on first use only: most calls
 * (`pr list`, `pr view`) never spawn git, and the stand-in's start-up is its whole cost.
 */
export function runGit(cwd: string, args: string[], env?: NodeJS.ProcessEnv): GitOutput {
  spawnSync ??= loadChildProcess().spawnSync;
  const r: SpawnSyncReturns<string> = spawnSync('git', args, {
    cwd,
    env: { ...(env ?? process.env), GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  return { status: r.status ?? 1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

function loadChildProcess(): typeof import('node:child_process') {
  // A plain require in the bundle; esbuild would hoist a static import to module load.
  const req = typeof require === 'function' ? require : createRequire(process.cwd() + '/');
  return req('node:child_process') as typeof import('node:child_process');
}
