import type { RunTreatment } from '../artifacts/index.js';
import type { NeedleSeen } from '../flight/index.js';
import type { StagedInstruction } from './staged.js';

/** What the gateway saw of a run: where each needle was first seen, and what it could not read. */
export interface TreatmentSeen {
  readonly needles: readonly NeedleSeen[];
  /** Requests the search could not read (a needle not seen is then undecided); null: none. */
  readonly unsearched: {
    readonly count: number;
    readonly first_seq: number;
    readonly why: string;
  } | null;
  /** The first call whose answer used each staged skill (see {@link skillUses}), by id. */
  readonly used: ReadonlyMap<string, number | null>;
}

/**
 * run.json's treatment: each staged instruction, whether its agent's harness carried it to the
 * model (true, false, or null with the reason when that cannot be decided: never true for a
 * guess), in which call first, for a skill whether the model used it and whether the agent's
 * own start-up listing named it (its claim: `listedSkills`, null when the agent shows none).
 * `reached` is false when one did not reach, null when one is undecided, else true; null too
 * when the condition stages nothing to look for. `used`: a staged skill was used (null: none staged).
 */
export function runTreatment(
  staged: readonly StagedInstruction[],
  seen: TreatmentSeen,
  listedSkills: readonly string[] | null,
): RunTreatment {
  const firstCall = new Map(seen.needles.map((s) => [s.id, s.seq]));
  const entries = staged.map((s) => {
    const call = firstCall.get(s.id) ?? null;
    const undecided =
      s.undecided ??
      (call === null && seen.unsearched
        ? `${seen.unsearched.count} request(s) could not be searched (call ${seen.unsearched.first_seq}: ${seen.unsearched.why})`
        : null);
    const reached = call !== null ? true : undecided === null ? false : null;
    const use = s.kind === 'skill' ? (seen.used.get(s.id) ?? null) : undefined;
    return {
      kind: s.kind,
      path: s.path,
      name: s.name,
      loads: s.loads,
      reached,
      first_call: call,
      ...(reached === null ? { undecided: undecided! } : {}),
      ...(use !== undefined ? { used: use !== null, first_use_call: use } : {}),
      ...(s.kind === 'skill' && listedSkills !== null && s.name !== null
        ? { listed_by_agent: listedSkills.includes(s.name) }
        : {}),
    };
  });
  const skills = entries.filter((e) => e.kind === 'skill');
  return {
    staged: entries,
    reached:
      entries.length === 0
        ? null
        : entries.some((e) => e.reached === false)
          ? false
          : entries.some((e) => e.reached === null)
            ? null
            : true,
    used: skills.length === 0 ? null : skills.some((e) => e.used === true),
  };
}
