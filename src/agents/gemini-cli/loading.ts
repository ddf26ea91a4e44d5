import {
  othersFile,
  skillVerdict,
  loads,
  not,
  withNearMisses,
  type InstructionRule,
} from '../instructions.js';
import { xml, type SkillListing } from '../skill-listing.js';

/**
 * What Gemini CLI 0.61.0 loads, as its requests showed: `GEMINI.md` (not AGENTS.md unless its
 * settings say so) in its first user message, skills at `.gemini/skills/<name>/SKILL.md` or
 * `.agents/skills/<name>/SKILL.md` as `<skill> <name>… <description>…` in its system
 * instruction, taken up with `activate_skill`.
 */
export const GEMINI_CLI_INSTRUCTIONS: InstructionRule = withNearMisses('Gemini CLI', (f) => {
  const other = othersFile(f, 'Gemini CLI', ['GEMINI.md']);
  if (other) return other;
  if (f.kind === 'instructions') {
    return f.path === 'GEMINI.md'
      ? loads
      : not(
          'Gemini CLI reads GEMINI.md from the work tree root up; a nested one is read only once it works in that folder',
        );
  }
  if (/^\.(gemini|agents)\/skills\/[^/]+\/SKILL\.md$/u.test(f.path)) {
    return skillVerdict(f, 'Gemini CLI', true);
  }
  return not(
    'Gemini CLI reads skills from .gemini/skills/<name>/SKILL.md or .agents/skills/<name>/SKILL.md only',
  );
});

export const GEMINI_CLI_SKILLS: SkillListing = {
  entry: xml,
  tool: { name: 'activate_skill', field: 'name' },
};
