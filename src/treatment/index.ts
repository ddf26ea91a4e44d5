/**
 * The treatment check: what a condition stages (a skill, a CLAUDE.md, AGENTS.md, GEMINI.md or
 * QWEN.md) must be seen reaching the model, run by run, or the condition compared nothing. The
 * run's flight record searches what the agent's harness wrote in every request (never a tool
 * result, a tool call or the user's prompt) for each staged instruction: a skill as its agent
 * lists it (its adapter's `skills.entry`), a file by its first lines. The run records which
 * arrived and which skill the model used; the report says first when a condition's did not
 * arrive. `evalrig validate` refuses beforehand paths the condition's agent does not load.
 *
 * ```ts
 * const staged = await stagedInstructions(condition, AGENT_ADAPTERS['claude-code']);
 * // gateway: openRunGateway({ …, needles: needlesOf(staged), prompts })
 * const used = skillUses(staged, gateway.calls(), adapter.skills);
 * const treatment = runTreatment(staged, { needles: gateway.needlesSeen(), unsearched, used }, listed);
 * ```
 */
import type { Needle } from '../flight/index.js';
import type { StagedInstruction } from './staged.js';

export { frontMatterOf, type FrontMatter } from './front-matter.js';
export { stagedInstructions, type AgentLoading, type StagedInstruction } from './staged.js';
export { skillUses } from './used.js';
export { runTreatment, type TreatmentSeen } from './run.js';
export { stagingWarnings, unloadedError, type StagingWarning } from './warnings.js';

/** What the flight record searches the requests for. */
export function needlesOf(staged: readonly StagedInstruction[]): Needle[] {
  return staged.flatMap((s) => (s.needle ? [s.needle] : []));
}
