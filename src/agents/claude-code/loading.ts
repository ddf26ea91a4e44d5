import { othersFile, loads, not, withNearMisses, type InstructionRule } from '../instructions.js';
import { angles, type SkillListing } from '../skill-listing.js';

/**
 * What Claude Code 2.1.332 loads, as its requests showed: a skill at exactly
 * `.claude/skills/<name>/SKILL.md` (none at `.claude/skill/…`, none a level deeper; one without
 * front matter under its folder's name, its first line as the description), listed as
 * `- name: description` in a system reminder with `<` and `>` written `&lt;` and `&gt;`, and
 * taken up with the `Skill` tool; `CLAUDE.md` or `.claude/CLAUDE.md` at the work tree's root,
 * or `AGENTS.md` there when it has no `CLAUDE.md`.
 */
export const CLAUDE_CODE_INSTRUCTIONS: InstructionRule = withNearMisses('Claude Code', (f) => {
  const other = othersFile(f, 'Claude Code', ['CLAUDE.md', 'AGENTS.md']);
  if (other) return other;
  if (f.kind === 'instructions') {
    const claudeMd = (f.staged ?? []).some((p) => p === 'CLAUDE.md' || p === '.claude/CLAUDE.md');
    if (f.path === 'AGENTS.md' && claudeMd) {
      return not(
        'Claude Code reads AGENTS.md only where there is no CLAUDE.md, and one is staged too',
      );
    }
    if (['CLAUDE.md', '.claude/CLAUDE.md', 'AGENTS.md'].includes(f.path)) return loads;
    if (f.path.endsWith('CLAUDE.md')) {
      return {
        loads: false,
        note: 'Claude Code reads a nested CLAUDE.md only once it reads files in its folder',
      };
    }
    return not(
      'Claude Code reads AGENTS.md only at the work tree root (and only when there is no CLAUDE.md)',
    );
  }
  if (/^\.claude\/skills\/[^/]+\/SKILL\.md$/u.test(f.path)) {
    return f.frontMatter
      ? loads
      : {
          loads: true,
          note: 'has no front matter: Claude Code lists it under its folder name, its first line as the description',
        };
  }
  if (/^\.claude\/skills\/.+\/SKILL\.md$/u.test(f.path)) {
    return not(
      'Claude Code reads .claude/skills/<name>/SKILL.md, one folder below .claude/skills: this one is deeper',
    );
  }
  if (/^\.claude\/skill\//u.test(f.path)) {
    return not('Claude Code reads skills from .claude/skills/ (plural), not .claude/skill/');
  }
  return not('Claude Code reads skills from .claude/skills/<name>/SKILL.md only');
});

export const CLAUDE_CODE_SKILLS: SkillListing = {
  entry: (name, d) => `- ${name}: ${angles(d)}`,
  tool: { name: 'Skill', field: 'skill' },
};
