/**
 * The treatment check: what a condition stages (a skill, a CLAUDE.md or AGENTS.md) must be seen
 * reaching the model, run by run, or the condition compared nothing. The run's flight record
 * searches every request for each staged instruction (its needle: a skill as agents list it,
 * `<name>: <description>`; a file by its first lines); the run records which arrived, and the
 * report says first when a condition's did not. `evalrig validate` warns beforehand about
 * paths the condition's agent is known not to load.
 *
 * ```ts
 * const staged = await stagedInstructions(condition, AGENT_ADAPTERS['claude-code'].instructions);
 * // gateway: openRunGateway({ …, needles: needlesOf(staged) })
 * const treatment = runTreatment(staged, gateway.needlesSeen(), listedSkills);
 * ```
 */
import { AGENT_ADAPTERS, type AdapterType } from '../agents/index.js';
import type { RunTreatment } from '../artifacts/index.js';
import type { EvalSet } from '../config/index.js';
import type { Needle, NeedleSeen } from '../flight/index.js';
import { stagedInstructions, type StagedInstruction } from './staged.js';

export { frontMatterOf, stagedInstructions, type StagedInstruction } from './staged.js';

/** What the flight record searches the requests for. */
export function needlesOf(staged: readonly StagedInstruction[]): Needle[] {
  return staged.flatMap((s) => (s.needle ? [s.needle] : []));
}

/**
 * run.json's treatment: each staged instruction, whether a request carried it to the model
 * (and in which call first), and, for a skill, whether the agent's own start-up listing named
 * it (its claim: `listedSkills`, null when the agent shows none). `reached` is whether all
 * did; null when the condition stages nothing to look for.
 */
export function runTreatment(
  staged: readonly StagedInstruction[],
  seen: readonly NeedleSeen[],
  listedSkills: readonly string[] | null,
): RunTreatment {
  const firstCall = new Map(seen.map((s) => [s.id, s.seq]));
  const entries = staged
    .filter((s) => s.needle !== null)
    .map((s) => {
      const call = firstCall.get(s.id) ?? null;
      return {
        kind: s.kind,
        path: s.path,
        name: s.name,
        loads: s.loads,
        reached: call !== null,
        first_call: call,
        ...(s.kind === 'skill' && listedSkills !== null && s.name !== null
          ? { listed_by_agent: listedSkills.includes(s.name) }
          : {}),
      };
    });
  return {
    staged: entries,
    reached: entries.length === 0 ? null : entries.every((e) => e.reached),
  };
}

/** A staged path the condition's agent is known not to load, or loads in a lesser form. */
export interface StagingWarning {
  /** JSON pointer of the staged entry in the eval set. */
  readonly pointer: string;
  readonly message: string;
}

/**
 * Warnings for staged instructions the eval set's agent is known not to load (or loads
 * other than written): none for a `command` agent, whose loading evalrig does not know.
 */
export async function stagingWarnings(evalSet: EvalSet): Promise<StagingWarning[]> {
  const out: StagingWarning[] = [];
  for (const condition of evalSet.conditions) {
    // Each condition's own agent (a cross-agent campaign), else the set's.
    const type = (condition.agent ?? evalSet.agent).type;
    if (type === undefined || type === 'command') continue;
    const adapter = AGENT_ADAPTERS[type as AdapterType];
    for (const s of await stagedInstructions(condition, adapter.instructions)) {
      if (s.note === null) continue;
      const from = condition.stage.find((p) => s.path === p.to || s.path.startsWith(`${p.to}/`));
      const pointer = `/conditions/${escape(condition.name)}/stage${from ? `/${escape(relFrom(evalSet, from.from))}` : ''}`;
      const what = s.kind === 'skill' ? `the skill ${s.name ?? ''} at ${s.path}` : s.path;
      const verdict = s.loads
        ? ''
        : `: it will not reach the model, and ${condition.name} compares nothing`;
      out.push({ pointer, message: `${what}: ${s.note}${verdict}` });
    }
  }
  return out;
}

function relFrom(evalSet: EvalSet, from: string): string {
  const rel = from.startsWith(`${evalSet.dir}/`) ? from.slice(evalSet.dir.length + 1) : from;
  return rel;
}

function escape(token: string): string {
  return token.replace(/~/gu, '~0').replace(/\//gu, '~1');
}
