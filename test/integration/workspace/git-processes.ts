import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The git processes a piece of work started, children included (upload-pack, pack-objects, gc). */
export interface GitProcesses<T> {
  value: T;
  /** One argv per git process, in the order they started (evalrig's protective `-c` options dropped). */
  processes: string[][];
}

const PROTECTIVE = new Set(['core.hooksPath=/dev/null', 'core.fsmonitor=false']);

/**
 * Runs `body` with GIT_TRACE2_EVENT pointing at a temp file (evalrig's git
 * isolation keeps GIT_TRACE* variables) and returns the argv of every git
 * process that started meanwhile, read from their trace2 `start` events.
 * Nothing else in the process may run git meanwhile.
 *
 * @example
 * const { processes } = await countGitProcesses(() => prepareWorkspace(spec));
 * expect(processes).to.have.length.at.most(8);
 */
export async function countGitProcesses<T>(body: () => Promise<T>): Promise<GitProcesses<T>> {
  const dir = mkdtempSync(join(tmpdir(), 'evalrig-trace-'));
  const file = join(dir, 'trace2.json');
  const before = process.env.GIT_TRACE2_EVENT;
  process.env.GIT_TRACE2_EVENT = file;
  try {
    const value = await body();
    let text = '';
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      text = ''; // no git process ran
    }
    const processes: string[][] = [];
    for (const line of text.split('\n')) {
      if (!line.includes('"event":"start"')) continue;
      const argv = (JSON.parse(line) as { argv: string[] }).argv;
      processes.push(
        argv.filter((arg, i) => !PROTECTIVE.has(arg) && !PROTECTIVE.has(argv[i + 1] ?? '')),
      );
    }
    return { value, processes };
  } finally {
    if (before === undefined) delete process.env.GIT_TRACE2_EVENT;
    else process.env.GIT_TRACE2_EVENT = before;
    rmSync(dir, { recursive: true, force: true });
  }
}
