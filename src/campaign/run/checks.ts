/**
 * The `checks` phase of a run: each check's command in the sandbox.
 */
import { measureDiff } from '../../workspace/index.js';
import { truncationMark } from '../turns.js';
import { placeCheckFiles } from './check-files.js';
import { syncTrees } from './collect.js';
import { enterPhase, type CampaignContext, type ReadyRun, type RunState } from './context.js';

const CHECK_OUTPUT_BYTES = 64 * 1024;

/** The `checks` phase: each check's command in the sandbox, pass or fail. */
export async function runChecks(
  ctx: CampaignContext,
  run: ReadyRun,
  state: RunState,
): Promise<void> {
  enterPhase(state, 'checks');
  const { check_files: checkFiles } = run.planned.eval;
  if (checkFiles.length > 0) {
    // The agent's work is what it left: measured now, before the host's files land.
    if (!state.lastDiff) {
      await syncTrees(run);
      state.lastDiff = await measureDiff(run.seal, { maxPatchBytes: ctx.maxPatchBytes });
    }
    await placeCheckFiles(run, state, checkFiles);
  }
  for (const check of run.planned.eval.checks) {
    // A check may change the tree; with check files the diff stays the agent's own.
    if (checkFiles.length === 0) state.lastDiff = undefined;
    const remaining = Math.max(1000, state.deadline - Date.now());
    const r = await run.sandbox.exec(['sh', '-c', check.run], {
      workingDir: run.containerWorkTree,
      env: { HOME: run.home },
      timeoutMs: Math.min(run.planned.eval.turn_timeout * 1000, remaining),
      maxOutputBytes: CHECK_OUTPUT_BYTES,
    });
    const output = `${r.stdout}${r.stderr}`;
    state.checks.push({
      name: check.name,
      command: check.run,
      passed: !r.timedOut && r.exitCode === 0,
      exit_code: r.exitCode,
      duration_ms: r.durationMs,
      output: r.truncated ? output + truncationMark(CHECK_OUTPUT_BYTES) : output,
      truncated: r.truncated,
    });
    if (r.timedOut) await run.sandbox.kill();
  }
}
