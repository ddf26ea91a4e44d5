/**
 * The reaper's rounds: every target swept, a second apart, until three rounds in a row find
 * nothing (a creation in flight at the engine when the orchestrator died lands within them),
 * or the time is up (an engine that does not answer).
 */
import type { SweepTarget } from './targets.js';

export interface LoopOptions {
  readonly sweepMs: number;
  readonly pauseMs?: number;
  readonly now?: () => number;
  readonly sleep?: (ms: number) => Promise<void>;
}

/** Resolves to the rounds it played. A target that throws makes its round not quiet. */
export async function sweepUntilQuiet(
  targets: readonly SweepTarget[],
  options: LoopOptions,
): Promise<number> {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms)));
  const deadline = now() + options.sweepMs;
  let quiet = 0;
  let rounds = 0;
  while (now() < deadline && quiet < 3) {
    rounds++;
    let found = 0;
    let failed = false;
    for (const t of targets) {
      try {
        found += await t.sweep();
      } catch {
        failed = true;
      }
    }
    quiet = !failed && found === 0 ? quiet + 1 : 0;
    if (quiet < 3) await sleep(options.pauseMs ?? 1000);
  }
  return rounds;
}
