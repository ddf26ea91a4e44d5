import { familyInstructions } from '../opencode-family/loading.js';
import { xml, type SkillListing } from '../skill-listing.js';

/**
 * What OpenCode 1.18.33 loads, as its requests showed: `AGENTS.md` (else `CLAUDE.md`) at the
 * root in its system message, skills anywhere under `.opencode/skill(s)/`, `.claude/skills/` or
 * `.agents/skills/` as `<skill> <name>… <description>…` there, taken up with `skill`.
 */
export const OPENCODE_INSTRUCTIONS = familyInstructions(
  'OpenCode',
  /^\.(opencode\/skills?|claude\/skills|agents\/skills)\/(.+\/)?SKILL\.md$/u,
  '.opencode/skills/, .claude/skills/ or .agents/skills/',
);

export const OPENCODE_SKILLS: SkillListing = { entry: xml, tool: { name: 'skill', field: 'name' } };
