import {
  instructionFileNamed,
  loads,
  not,
  othersFile,
  skillVerdict,
  withNearMisses,
  type InstructionRule,
} from '../instructions.js';
import { html, xml, type SkillListing } from '../skill-listing.js';

const AGENT = 'Copilot CLI';
/** The files it reads at the work tree's root, whatever their case (agents.md loads too). */
const ROOT_FILES = ['AGENTS.md', 'CLAUDE.md', 'GEMINI.md'];
const OWN = [...ROOT_FILES, 'copilot-instructions.md'];
/** Its skills' roots: any depth below, dot-folders skipped, the first folder with one a skill. */
const SKILL = /^\.(github|claude|agents)\/skills\/((?:[^./][^/]*\/)+)SKILL\.md$/u;

/**
 * What Copilot CLI 1.0.102 loads, as its requests showed (all in its system message):
 * `AGENTS.md`, `CLAUDE.md` and `GEMINI.md` at the root, side by side (none shadows another),
 * and `.github/copilot-instructions.md`, each found whatever the case of its name; skills under
 * `.github/skills/`, `.claude/skills/` or `.agents/skills/` at any depth (no dot-folder, none
 * inside another skill's folder), as `<skill> <name>… <description>…` with `& < > " '` escaped,
 * taken up with its `skill` tool. It also reads `.github/instructions/**\/*.instructions.md` and
 * `.claude/rules/**\/*.md`, which evalrig does not watch.
 */
const exact: InstructionRule = (f) => {
  const other = othersFile(f, AGENT, OWN);
  if (other) return other;
  if (f.kind === 'instructions') {
    if (ROOT_FILES.includes(f.path) || f.path === '.github/copilot-instructions.md') return loads;
    return f.path.endsWith('copilot-instructions.md')
      ? not(`${AGENT} reads copilot-instructions.md in .github/ only`)
      : not(
          `${AGENT} reads AGENTS.md, CLAUDE.md and GEMINI.md at the work tree root; a nested one only once it works in that folder`,
        );
  }
  const m = SKILL.exec(f.path);
  if (!m) {
    return not(`${AGENT} reads skills from .github/skills/, .claude/skills/ or .agents/skills/`);
  }
  const outer = (f.staged ?? []).find(
    (p) =>
      p !== f.path &&
      p.endsWith('/SKILL.md') &&
      f.path.startsWith(p.slice(0, -'SKILL.md'.length)) &&
      SKILL.test(p),
  );
  if (outer) return not(`${AGENT} takes ${outer} as the skill; it reads none inside its folder`);
  return skillVerdict(f, AGENT, true);
};

const nearMisses = withNearMisses(AGENT, exact);

/** A name that differs from its file's only by case loads as that file; other misses do not. */
export const COPILOT_CLI_INSTRUCTIONS: InstructionRule = (f) => {
  const parts = f.path.split('/');
  const name = parts.pop()!;
  const named = instructionFileNamed(name);
  const caseOnly =
    named?.kind === 'instructions' &&
    named.canonical !== name &&
    named.canonical.toLowerCase() === name.toLowerCase();
  return caseOnly ? exact({ ...f, path: [...parts, named.canonical].join('/') }) : nearMisses(f);
};

export const COPILOT_CLI_SKILLS: SkillListing = {
  entry: (name, d) => xml(name, html(d)),
  tool: { name: 'skill', field: 'skill' },
};

/** How its tool results read when it refused to run a call (its own shell policy). */
export const COPILOT_CLI_REFUSALS: readonly RegExp[] = [
  /^Command not executed\. The '[^']+' command is not allowed\./u,
  /^Command blocked: contains dangerous shell expansion patterns/u,
];
