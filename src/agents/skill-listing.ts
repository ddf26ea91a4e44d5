/**
 * How each agent shows a skill to its model, and how its model takes one up: what the
 * treatment check looks for in the requests (`loaded`) and in the answers (`skill_used`). Each
 * form is the one the real binary was seen to send (the agent conformance suite,
 * test/agents/, holds every adapter to it):
 *
 * - Claude Code 2.1.332: `- name: description` in a system reminder, `<` and `>` written as
 *   `&lt;` and `&gt;`; the model loads one with the `Skill` tool (`skill`: its name).
 * - Codex 0.171.0: `- name: description (file: …)` in a developer message, as written; its model
 *   reads the SKILL.md with a shell command.
 * - Gemini CLI 0.61.0 and OpenCode 1.18.33: `<skill> <name>…</name> <description>…` in the
 *   system instruction, as written; `activate_skill` and `skill` (`name`).
 * - Qwen Code 0.15.10: the same XML in its `skill` tool's description, every `& < > " '` escaped,
 *   and the description read by its own front matter reader (one line; `\u2713` stays as it is).
 *
 * Descriptions come from the front matter by a YAML parser, unless the agent reads it its own way.
 */
export interface SkillListing {
  /** The entry that lists skill `name`, up to the part of its description given. */
  entry(name: string, description: string): string;
  /** The description as the agent reads it from the front matter's text (absent: YAML's). */
  description?(frontMatter: string): string | null;
  /** The tool its model loads a skill through, and the input field that names the skill. */
  readonly tool?: { readonly name: string; readonly field: string };
}

const angles = (s: string) => s.replace(/</gu, '&lt;').replace(/>/gu, '&gt;');
const html = (s: string) =>
  angles(s.replace(/&/gu, '&amp;')).replace(/"/gu, '&quot;').replace(/'/gu, '&apos;');
const xml = (name: string, description: string) =>
  `<name>${name}</name><description>${description}`;

export const CLAUDE_CODE_SKILLS: SkillListing = {
  entry: (name, d) => `- ${name}: ${angles(d)}`,
  tool: { name: 'Skill', field: 'skill' },
};

export const CODEX_SKILLS: SkillListing = { entry: (name, d) => `- ${name}: ${d}` };

export const GEMINI_CLI_SKILLS: SkillListing = {
  entry: xml,
  tool: { name: 'activate_skill', field: 'name' },
};

export const OPENCODE_SKILLS: SkillListing = { entry: xml, tool: { name: 'skill', field: 'name' } };

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
