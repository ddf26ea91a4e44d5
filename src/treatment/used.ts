import path from 'node:path';
import type { SkillListing } from '../agents/index.js';
import type { RelayedCall, ToolCallAsked } from '../flight/index.js';
import type { StagedInstruction } from './staged.js';

/**
 * The first call whose answer used each staged skill, by its id (null: never used). A skill is
 * used when the model asks for its agent's skill tool naming it (`listing.tool`), or for any
 * tool whose input names its SKILL.md (`<folder>/SKILL.md`: a read, however it is done). Only
 * answers count (`complete` or `incomplete`): a call cut mid-way asked for nothing the agent ran.
 */
export function skillUses(
  staged: readonly StagedInstruction[],
  calls: readonly Pick<RelayedCall, 'seq' | 'outcome' | 'toolCalls'>[],
  listing: SkillListing | undefined,
): Map<string, number | null> {
  const skills = staged.filter((s) => s.kind === 'skill');
  const used = new Map<string, number | null>(skills.map((s) => [s.id, null]));
  const answered = calls
    .filter((c) => c.outcome === 'complete' || c.outcome === 'incomplete')
    .sort((a, b) => a.seq - b.seq);
  for (const call of answered) {
    for (const t of call.toolCalls as readonly ToolCallAsked[]) {
      for (const s of skills) {
        if (used.get(s.id) === null && uses(t, s, listing)) used.set(s.id, call.seq);
      }
    }
  }
  return used;
}

function uses(t: ToolCallAsked, s: StagedInstruction, listing: SkillListing | undefined): boolean {
  const input = t.input ?? '';
  const tool = listing?.tool;
  if (tool && t.name === tool.name && s.name !== null && fieldOf(input, tool.field) === s.name) {
    return true;
  }
  const file = `${path.posix.basename(path.posix.dirname(s.path))}/SKILL.md`;
  return input.includes(file);
}

function fieldOf(input: string, field: string): unknown {
  try {
    const v: unknown = JSON.parse(input);
    return typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[field] : undefined;
  } catch {
    return undefined;
  }
}
