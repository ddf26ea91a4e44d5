/**
 * How an agent shows a skill to its model, and how its model takes one up: what the treatment
 * check looks for in the requests (`loaded`) and in the answers (`skill_used`). Each agent's
 * form is in its folder (`src/agents/<agent>/loading.ts`), the one its real binary was seen to
 * send. Descriptions come from the front matter by a YAML parser, unless the agent reads it its
 * own way.
 */
export interface SkillListing {
  /** The entry that lists skill `name`, up to the part of its description given. */
  entry(name: string, description: string): string;
  /** The description as the agent reads it from the front matter's text (absent: YAML's). */
  description?(frontMatter: string): string | null;
  /** The tool its model loads a skill through, and the input field that names the skill. */
  readonly tool?: { readonly name: string; readonly field: string };
}

/** `<` and `>` as HTML writes them. */
export const angles = (s: string) => s.replace(/</gu, '&lt;').replace(/>/gu, '&gt;');
/** Every character HTML escapes. */
export const html = (s: string) =>
  angles(s.replace(/&/gu, '&amp;')).replace(/"/gu, '&quot;').replace(/'/gu, '&apos;');
/** The XML entry of Gemini CLI, OpenCode and Qwen Code, up to the description. */
export const xml = (name: string, description: string) =>
  `<name>${name}</name><description>${description}`;
