import { familyInstructions } from '../opencode-family/loading.js';
import { xml, type SkillListing } from '../skill-listing.js';

/**
 * Its own folders, `.kilo/` and the legacy `.kilocode/`, at the work tree's root: any depth
 * under `skill/` or `skills/`, no dot-folder (its glob there skips them).
 */
const OWN_SKILL = /^\.kilo(?:code)?\/skills?\/(?:[^./][^/]*\/)*SKILL\.md$/u;
/** Claude Code's and the shared folder: any depth under `skills/`, dot-folders included. */
const SHARED_SKILL = /^\.(?:claude|agents)\/skills\/(?:[^/]+\/)*SKILL\.md$/u;

/**
 * What Kilo Code 7.7.7 loads, read from its bundle and proven by its requests: `AGENTS.md`
 * (else `CLAUDE.md`; else `CONTEXT.md`, which evalrig does not watch) at the root, in its system
 * message as "Instructions from: <path>"; skills under `.kilo/skill(s)/`, `.kilocode/skill(s)/`,
 * `.claude/skills/` or `.agents/skills/` (never OpenCode's `.opencode/`), a skill inside another
 * skill's folder too, each with front matter naming it and describing it (one with no
 * description is not listed), as `<skill> <name>… <description>… <location>…` there, taken up
 * with `skill` (`name`). It also reads `.kilo/rules/*.md`, `.kilocode/rules/*.md` and
 * `.kilocoderules`, whose names are free: not watched.
 */
export const KILO_CODE_INSTRUCTIONS = familyInstructions(
  'Kilo Code',
  new RegExp(`${OWN_SKILL.source}|${SHARED_SKILL.source}`, 'u'),
  '.kilo/skills/, .kilocode/skills/, .claude/skills/ or .agents/skills/',
);

export const KILO_CODE_SKILLS: SkillListing = {
  entry: xml,
  tool: { name: 'skill', field: 'name' },
};

/**
 * How its tool results read when its permission rules stopped a call (`--auto` approves every
 * ask; a rule that denies, e.g. a project's kilo.json, still refuses): the error text it sends
 * back to the model as the call's result, and writes as the tool part's `state.error`.
 */
export const KILO_CODE_REFUSALS: readonly RegExp[] = [
  /^The user has specified a rule which prevents you from using this specific tool call/u,
  /^The user rejected permission to use this specific tool call/u,
];
