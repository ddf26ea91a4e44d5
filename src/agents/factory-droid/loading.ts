import {
  instructionFileNamed,
  loads,
  not,
  othersFile,
  skillVerdict,
  withNearMisses,
  type InstructionRule,
} from '../instructions.js';
import type { SkillListing } from '../skill-listing.js';

const AGENT = 'Factory Droid';
/** The folders it reads instruction files in: the work tree's root and its own three. */
const FOLDERS = ['', '.factory/', '.agents/', '.agent/'];
/** Per folder, the first of each list that exists is read (its own lists, in its order). */
const SPELLINGS: Readonly<Record<string, readonly string[]>> = {
  'CLAUDE.md': ['CLAUDE.md', 'Claude.md'],
  'AGENTS.md': ['AGENTS.md', 'Agents.md', 'agents.md'],
};
/** Its skills' roots: any depth below (dot-folders too), the first folder with one a skill. */
const SKILL = /^\.(?:factory|agents|agent)\/skills\/(?:[^/]+\/)+SKILL\.md$/u;

/**
 * What Factory Droid 0.225.2 loads, as its requests showed (a system reminder in its first user
 * message): `CLAUDE.md` and `AGENTS.md` side by side (none shadows the other), at the root and
 * in `.factory/`, `.agents/` and `.agent/`, each as `<coding_guidelines>`; of `AGENTS.md`,
 * `Agents.md` and `agents.md` the first that exists in a folder, of `CLAUDE.md` and `Claude.md`
 * likewise. Skills at any depth under `.factory/skills/`, `.agents/skills/` or `.agent/skills/`
 * (dot-folders too; none inside another skill's folder; none without front matter), listed as
 * `name: description`, taken up with its `Skill` tool. It also reads `DESIGN.md` and
 * `.factory/droids/*.md` (its subagents), which evalrig does not watch.
 */
const exact: InstructionRule = (f) => {
  const other = othersFile(f, AGENT, Object.keys(SPELLINGS));
  if (other) return other;
  if (f.kind === 'instructions') {
    if (!FOLDERS.some((d) => Object.keys(SPELLINGS).some((n) => f.path === d + n)))
      return not(
        `${AGENT} reads CLAUDE.md and AGENTS.md at the work tree root and in .factory/, .agents/ and .agent/; a nested one only once it works in that folder`,
      );
    return loads;
  }
  if (!SKILL.test(f.path))
    return not(`${AGENT} reads skills from .factory/skills/, .agents/skills/ or .agent/skills/`);
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

/**
 * A spelling it reads (`Agents.md`, `agents.md`, `Claude.md`) loads as its file unless one
 * before it in its list is staged in the same folder; other near misses do not load.
 */
export const FACTORY_DROID_INSTRUCTIONS: InstructionRule = (f) => {
  const parts = f.path.split('/');
  const name = parts.pop()!;
  const named = instructionFileNamed(name);
  const spellings = named ? SPELLINGS[named.canonical] : undefined;
  if (!named || !spellings?.includes(name) || named.canonical === name) return nearMisses(f);
  const dir = parts.length > 0 ? `${parts.join('/')}/` : '';
  const before = spellings.slice(0, spellings.indexOf(name));
  const first = before.find((s) => (f.staged ?? []).includes(dir + s));
  if (first !== undefined)
    return not(`${AGENT} reads ${dir}${first} where both are staged, not ${f.path}`);
  return exact({ ...f, path: dir + named.canonical });
};

export const FACTORY_DROID_SKILLS: SkillListing = {
  entry: (name, d) => `${name}: ${d}`,
  tool: { name: 'Skill', field: 'skill' },
};

/**
 * How its tool results read when it refused to run a call. Droid Shield scans what a `git
 * commit` or `git push` would send for secrets before running it, and blocks one it found
 * secrets in or cannot scan (the index or history changed earlier in the same command, a `-c`
 * option, no explicit remote and branch to push to…). A command of its deny list (`chown -R`,
 * `shutdown`, `mkfs`…) needs an approval nobody can give: in a first turn that ends the turn
 * (the run fails with its words, no result reaches the model); in a forked turn its session is
 * a delegated one, and the call is refused with a result.
 */
export const FACTORY_DROID_REFUSALS: readonly RegExp[] = [
  /^Error: Error executing command: Droid-Shield /u,
  /^Error: Tool blocked in delegated session: /u,
];

/** A shell call's exit code as its Execute result ends: `[Process exited with code N]`. */
export function factoryDroidExitCode(result: string): number | null {
  const m = /\[Process exited with code (\d+)\]\s*$/u.exec(result);
  return m ? Number(m[1]) : null;
}
