import {
  othersFile,
  skillVerdict,
  loads,
  not,
  withNearMisses,
  type InstructionRule,
} from '../instructions.js';
import { html, xml, type SkillListing } from '../skill-listing.js';

/**
 * What Qwen Code 0.15.10 loads, as its requests showed: `QWEN.md` and `AGENTS.md` in its system
 * message, skills at `.qwen/skills/<name>/SKILL.md` or `.agents/skills/<name>/SKILL.md` as XML in
 * its `skill` tool's description, every `& < > " '` escaped, the description read by its own
 * front matter reader.
 */
export const QWEN_CODE_INSTRUCTIONS: InstructionRule = withNearMisses('Qwen Code', (f) => {
  const other = othersFile(f, 'Qwen Code', ['QWEN.md', 'AGENTS.md']);
  if (other) return other;
  if (f.kind === 'instructions') {
    return f.path === 'QWEN.md' || f.path === 'AGENTS.md'
      ? loads
      : not(
          'Qwen Code reads QWEN.md and AGENTS.md from the work tree root up; a nested one is read only once it works in that folder',
        );
  }
  if (/^\.(qwen|agents)\/skills\/[^/]+\/SKILL\.md$/u.test(f.path)) {
    return skillVerdict(f, 'Qwen Code', true);
  }
  return not(
    'Qwen Code reads skills from .qwen/skills/<name>/SKILL.md or .agents/skills/<name>/SKILL.md only',
  );
});

export const QWEN_CODE_SKILLS: SkillListing = {
  entry: (name, d) => xml(name, html(d)),
  description: qwenFrontMatterValue,
  tool: { name: 'skill', field: 'skill' },
};

/**
 * `description` as Qwen Code's own front matter reader takes it: the text after the first
 * `description:` line's colon, a double-quoted value unquoted with only `\"` and `\\` undone.
 * A block value (`>` or `|`, then indented lines) is no string to it: null, undecidable.
 */
export function qwenFrontMatterValue(frontMatter: string): string | null {
  for (const line of frontMatter.split('\n')) {
    if (line.trim() === '' || line.trim().startsWith('#') || line.startsWith('  ')) continue;
    const colon = line.indexOf(':');
    if (colon < 0 || line.slice(0, colon).trim() !== 'description') continue;
    const value = line.slice(colon + 1).trim();
    if (value === '' || /^[>|]/u.test(value)) return null;
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
      return value.slice(1, -1).replace(/\\"/gu, '"').replace(/\\\\/gu, '\\');
    }
    return value;
  }
  return null;
}
