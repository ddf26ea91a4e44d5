import {
  loads,
  not,
  othersFile,
  skillVerdict,
  withNearMisses,
  type InstructionRule,
} from '../instructions.js';
import type { SkillListing } from '../skill-listing.js';

const AGENT = 'Cline';
/** Where it reads AGENTS.md: the work tree's root, and inside its two rules folders. */
const AGENTS_FILES = ['AGENTS.md', '.clinerules/AGENTS.md', '.cline/rules/AGENTS.md'];
/** Its skills' roots: one folder below, a dot-folder too, named by its front matter or folder. */
const SKILL = /^(?:\.clinerules|\.cline|\.agents)\/skills\/[^/]+\/SKILL\.md$/u;

/**
 * What Cline 3.0.65 loads, as its requests showed (its system prompt's `# Rules`): the root
 * `AGENTS.md` ("Workspace AGENTS.md"), and the rule files (`.md`, `.markdown`, `.txt`, one
 * level, AGENTS.md among them) of `.clinerules/` and `.cline/rules/`; no CLAUDE.md, no nested
 * AGENTS.md. Rules are keyed by their name without its extension, the later folder's read: of
 * `.clinerules/AGENTS.md` and `.cline/rules/AGENTS.md`, the second (of `r.md` and `r.txt` in
 * one folder, one). Skills one folder below `.clinerules/skills/`, `.cline/skills/` or
 * `.agents/skills/` (a dot-folder too; one without front matter too, named by its folder),
 * listed by name alone in its `skills` tool, taken up with that tool.
 */
const exact: InstructionRule = (f) => {
  const other = othersFile(f, AGENT, ['AGENTS.md']);
  if (other) return other;
  if (f.kind === 'instructions') {
    if (!AGENTS_FILES.includes(f.path))
      return not(
        `${AGENT} reads AGENTS.md at the work tree root and in .clinerules/ and .cline/rules/; a nested one not`,
      );
    if (f.path === AGENTS_FILES[1] && (f.staged ?? []).includes(AGENTS_FILES[2]!))
      return not(
        `${AGENT} reads one rule per name: ${AGENTS_FILES[2]}, staged too, is the one it reads`,
      );
    return loads;
  }
  if (!SKILL.test(f.path))
    return not(
      `${AGENT} reads skills one folder below .clinerules/skills/, .cline/skills/ or .agents/skills/`,
    );
  return skillVerdict(f, AGENT, false);
};

export const CLINE_INSTRUCTIONS: InstructionRule = withNearMisses(AGENT, exact);

/** Its `skills` tool lists every skill by name ("Available skills: a, b."), no description. */
export const CLINE_SKILLS: SkillListing = {
  entry: (name) => name,
  tool: { name: 'skills', field: 'skill' },
};

/** With its tools approved it refuses no call of its own. */
export const CLINE_REFUSALS: readonly RegExp[] = [];

/** A command's exit code as its `run_commands` result says it (`Command exited with code N`). */
export function clineExitCode(result: string): number | null {
  const m = /Command exited with code (\d+)/u.exec(result);
  return m ? Number(m[1]) : null;
}
