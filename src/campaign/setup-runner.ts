/**
 * An environment's setup commands run through the campaign's sandbox provider,
 * as a run's sandbox is started: the checkout shared with the sandbox (mounted
 * where the engine sees the host's disk, copied in and synced back where it
 * does not), so a setup plays on a remote or rootless first engine too. Only
 * the network differs from a run's: the engine's default one, to fetch
 * dependencies (the eval set's commands, not the agent's).
 */
import type { SetupRunner } from '../image/index.js';
import type { SandboxProvider } from '../sandbox/index.js';

/** Room for the command's own output: the setup writes its log to a file. */
const EXEC_OUTPUT_BYTES = 64 * 1024;

/** A setup runner starting its sandbox from `sandboxes`. */
export function setupRunnerOf(sandboxes: SandboxProvider): SetupRunner {
  return async (run) => {
    const [uid, gid] = run.user.split(':').map(Number);
    const sandbox = await sandboxes.start({
      image: run.image,
      user: run.user,
      execUser: run.user,
      workingDir: run.containerWorkTree,
      env: { HOME: run.home },
      labels: run.labels,
      ...(run.limits ? { limits: run.limits } : {}),
      online: true,
      folders: [
        {
          host: run.workTree,
          container: run.containerWorkTree,
          owner: { uid: uid ?? 1000, gid: gid ?? uid ?? 1000 },
        },
      ],
    });
    try {
      const done = await sandbox.exec(run.argv, {
        timeoutMs: run.timeoutMs,
        maxOutputBytes: EXEC_OUTPUT_BYTES,
      });
      const log = await sandbox.exec(run.logArgv, {
        timeoutMs: 60_000,
        maxOutputBytes: 2 * 1024 * 1024,
      });
      const exitCode = done.timedOut ? null : (done.exitCode ?? 1);
      // What the commands left comes back to the host's checkout (a no-op when mounted).
      if (exitCode === 0) await sandbox.syncOut(run.containerWorkTree, run.workTree);
      return { exitCode, log: log.stdout };
    } finally {
      await sandbox.remove().catch(() => undefined);
    }
  };
}
