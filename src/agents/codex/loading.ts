import { othersFile, loads, not, withNearMisses, type InstructionRule } from '../instructions.js';
import { type SkillListing } from '../skill-listing.js';

/**
 * What Codex 0.171.0 loads, as its requests showed: skills under `.codex/skills/` or
 * `.agents/skills/` at any depth (one without YAML front matter refused), listed as
 * `- name: description (file: …)` in a developer message, read by the model with a shell
 * command; `AGENTS.md`, never `CLAUDE.md`, in a user message of its own.
 */
export const CODEX_INSTRUCTIONS: InstructionRule = withNearMisses('Codex', (f) => {
  const other = othersFile(f, 'Codex', ['AGENTS.md', 'CLAUDE.md']);
  if (other) return other;
  if (f.kind === 'instructions') {
    if (f.path === 'AGENTS.md' || f.path.endsWith('/AGENTS.md')) return loads;
    return not('Codex reads AGENTS.md, never CLAUDE.md');
  }
  if (/^\.(codex|agents)\/skills\/(.+\/)?SKILL\.md$/u.test(f.path)) {
    return f.frontMatter ? loads : not('Codex refuses a SKILL.md without YAML front matter');
  }
  return not('Codex reads skills from .codex/skills/ or .agents/skills/ only');
});

export const CODEX_SKILLS: SkillListing = { entry: (name, d) => `- ${name}: ${d}` };
