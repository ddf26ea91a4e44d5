/**
 * The reaper program (bundled into dist/reaper/reaper.cjs; started by ../reaper.ts). It holds
 * the read end of a pipe whose write end only the orchestrator holds: when the orchestrator
 * ends, however (SIGKILL included), the kernel closes it, and the reaper sweeps what the
 * orchestrator left, then exits. It ignores the terminal's signals (its own session anyway).
 */
import { rmSync } from 'node:fs';
import { parseReaperConfig } from './config.js';
import { engineCall } from './engine.js';
import { sweepUntilQuiet } from './loop.js';
import { engineTarget, quotaTarget, type SweepTarget } from './targets.js';

const cfg = parseReaperConfig(process.argv[2] ?? '');
for (const s of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(s, () => undefined);

// One sweep target per provider kind: a Docker engine's containers and networks, or a
// cluster's objects (whose calls come with the Kubernetes provider, not built in yet).
if (cfg.kubernetes) throw new Error('reaper: no Kubernetes sweep is built into this reaper');
const targets: SweepTarget[] = [
  ...(cfg.mounts ? [quotaTarget(cfg.mounts, cfg.mountsOwner)] : []),
  engineTarget(engineCall(cfg), cfg.labels, cfg.placeLabel),
];

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
  await sweepUntilQuiet(targets, { sweepMs: cfg.sweepMs });
  process.exit(0);
}

process.stdin.on('data', () => undefined);
for (const e of ['end', 'close', 'error'] as const) process.stdin.on(e, () => void reap());
process.stdin.resume();
