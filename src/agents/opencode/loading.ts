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
 * What OpenCode 1.18.33 loads, as its requests showed: `AGENTS.md` (else `CLAUDE.md`) at the
 * root in its system message, skills anywhere under `.opencode/skill(s)/`, `.claude/skills/` or
 * `.agents/skills/` as `<skill> <name>… <description>…` there, taken up with `skill`.
 */
export const OPENCODE_INSTRUCTIONS: InstructionRule = withNearMisses('OpenCode', (f) => {
  const other = othersFile(f, 'OpenCode', ['AGENTS.md', 'CLAUDE.md']);
  if (other) return other;
  if (f.kind === 'instructions') {
    if (f.path === 'AGENTS.md') return loads;
    if (f.path === 'CLAUDE.md' && (f.staged ?? []).includes('AGENTS.md'))
      return not(
        'OpenCode reads CLAUDE.md only where there is no AGENTS.md, and one is staged too',
      );
    if (f.path === 'CLAUDE.md')
      return { loads: true, note: 'OpenCode reads CLAUDE.md only when there is no AGENTS.md' };
    return not('OpenCode reads AGENTS.md (else CLAUDE.md) at the work tree root only');
  }
  if (/^\.(opencode\/skills?|claude\/skills|agents\/skills)\/(.+\/)?SKILL\.md$/u.test(f.path)) {
    return skillVerdict(f, 'OpenCode', true);
  }
  return not(
    'OpenCode reads skills from .opencode/skills/, .claude/skills/ or .agents/skills/ only',
  );
});

export const OPENCODE_SKILLS: SkillListing = { entry: xml, tool: { name: 'skill', field: 'name' } };
