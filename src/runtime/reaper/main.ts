/**
 * The reaper program (bundled into dist/reaper/reaper.cjs; started by ../reaper.ts). It holds
 * the read end of a pipe whose write end only the orchestrator holds: when the orchestrator
 * ends, however (SIGKILL included), the kernel closes it, and the reaper sweeps what the
 * orchestrator left, then exits. It ignores the terminal's signals (its own session anyway).
 */
import { rmSync } from 'node:fs';
import { parseReaperConfig, type ReaperConfig } from './config.js';
import { engineCall } from './engine.js';
import { kubernetesTarget } from './kubernetes.js';
import { sweepUntilQuiet } from './loop.js';
import { engineTarget, quotaTarget, type SweepTarget } from './targets.js';

const cfg = parseReaperConfig(process.argv[2] ?? '');
for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, () => undefined);

/**
 * One sweep target per provider kind: a Docker engine's containers and networks, or a
 * cluster's objects. The cluster's client is loaded only for a cluster (a Docker engine's
 * reaper starts without it), and now, at the start: its kubeconfig is read while it exists.
 */
async function targetsOf(config: ReaperConfig): Promise<SweepTarget[]> {
  const mounts = config.mounts ? [quotaTarget(config.mounts, config.mountsOwner)] : [];
  if (!config.kubernetes)
    return [...mounts, engineTarget(engineCall(config), config.labels, config.placeLabel)];
  const { kubernetesObjects } = await import('./kubernetes-api.js');
  return [...mounts, kubernetesTarget(kubernetesObjects(config.kubernetes), config.labels)];
}

const targets = targetsOf(cfg);
// A cluster it cannot reach: said on stderr (EVALRIG_REAPER_LOG), and the reaper ends.
targets.catch((error: unknown) => {
  process.stderr.write(`${(error as Error).message}\n`);
  process.exit(1);
});

let started = false;
async function reap(): Promise<void> {
  if (started) return;
  started = true;
  if (cfg.scratch) {
    try {
      rmSync(cfg.scratch, { recursive: true, force: true });
    } catch {
      // Removed already, or not ours to remove.
    }
  }
  await sweepUntilQuiet(await targets, { sweepMs: cfg.sweepMs });
  process.exit(0);
}

process.stdin.on('data', () => undefined);
for (const e of ['end', 'close', 'error'] as const) process.stdin.on(e, () => void reap());
process.stdin.resume();
