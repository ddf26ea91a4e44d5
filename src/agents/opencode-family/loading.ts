import {
  othersFile,
  skillVerdict,
  loads,
  not,
  withNearMisses,
  type InstructionRule,
} from '../instructions.js';

/**
 * The rule OpenCode and its forks share for the files they load (each proven by its agent's
 * conformance suite): `AGENTS.md` at the work tree's root, else `CLAUDE.md` (the first of the
 * two found from the working folder up to the root wins, so a staged AGENTS.md shadows a staged
 * CLAUDE.md), both in the system message; a skill wherever `skill` matches its path (front
 * matter required), listed there too. `where` says where the agent reads skills from.
 */
export function familyInstructions(agent: string, skill: RegExp, where: string): InstructionRule {
  return withNearMisses(agent, (f) => {
    const other = othersFile(f, agent, ['AGENTS.md', 'CLAUDE.md']);
    if (other) return other;
    if (f.kind === 'instructions') {
      if (f.path === 'AGENTS.md') return loads;
      if (f.path === 'CLAUDE.md' && (f.staged ?? []).includes('AGENTS.md'))
        return not(
          `${agent} reads CLAUDE.md only where there is no AGENTS.md, and one is staged too`,
        );
      if (f.path === 'CLAUDE.md')
        return { loads: true, note: `${agent} reads CLAUDE.md only when there is no AGENTS.md` };
      return not(`${agent} reads AGENTS.md (else CLAUDE.md) at the work tree root only`);
    }
    if (skill.test(f.path)) return skillVerdict(f, agent, true);
    return not(`${agent} reads skills from ${where} only`);
  });
}
