/**
 * A run's trajectory: what the agent did, step by step, built from what the host recorded (the
 * model gateway's flight record, a command agent's output, the gh record, each stop). The
 * viewer shows it; the judge reads its excerpt. See ./README.md.
 *
 * ```ts
 * const trajectory = await readTrajectory('out/runs/add-multiply/default/run-01');
 * for (const step of trajectory.steps) console.log(step.i, step.kind, step.turn);
 * ```
 */
import { buildTrajectory } from './build.js';
import { assertTrajectory } from './schema.js';
import { hasFlightRecord, readTrajectoryInputs } from './source.js';
import type { Trajectory } from './types.js';

export { buildTrajectory, citedStep, type TrajectoryInputs } from './build.js';
export { assertTrajectory, TrajectorySchemaError } from './schema.js';
export { trajectoryExcerpt } from './excerpt.js';
export { MAX_DIFF_BYTES, readRunDiffs, type RunDiffs } from './diffs.js';
export * from './types.js';

/** Reads a finished run's records and builds its trajectory, checked against its schema. */
export async function readTrajectory(runDir: string): Promise<Trajectory> {
  const trajectory = buildTrajectory(await readTrajectoryInputs(runDir));
  assertTrajectory(trajectory, runDir);
  return trajectory;
}

/**
 * A run's trajectory where its gateway kept a flight record (what the host witnessed), else
 * null: what the judge's transcript excerpt is taken from before the agent's own stream.
 */
export async function witnessedTrajectory(runDir: string): Promise<Trajectory | null> {
  if (!(await hasFlightRecord(runDir))) return null;
  return readTrajectory(runDir);
}
