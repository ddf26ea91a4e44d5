/**
 * Which staged instruction files an agent loads, as each agent was seen to (the real binaries,
 * their requests read at the gateway): what `evalrig validate` warns about, and what the
 * treatment check expects to reach the model.
 *
 * - Claude Code 2.1.332 lists a skill found at exactly `.claude/skills/<name>/SKILL.md` (none
 *   at `.claude/skill/…`, none a level deeper; one without front matter under its folder's name,
 *   its first line as the description), and sends `CLAUDE.md` or `.claude/CLAUDE.md` at the
 *   work tree's root, or `AGENTS.md` there when it has no `CLAUDE.md`.
 * - Codex 0.171.0 lists skills under `.codex/skills/` or `.agents/skills/` at any depth, and
 *   refuses one without YAML front matter; it sends `AGENTS.md`, never `CLAUDE.md`.
 * - Gemini CLI 0.61.0 reads `GEMINI.md` (not AGENTS.md unless its settings say so) and skills at
 *   `.gemini/skills/<name>/SKILL.md` or `.agents/skills/<name>/SKILL.md` (trusted folder).
 * - Qwen Code 0.15.10 reads `QWEN.md` and `AGENTS.md`, skills at `.qwen/skills/<name>/SKILL.md`
 *   or `.agents/skills/<name>/SKILL.md`.
 * - OpenCode 1.18.33 reads `AGENTS.md` (else `CLAUDE.md`) at the root, skills anywhere under
 *   `.opencode/skill(s)/`, `.claude/skills/` or `.agents/skills/`.
 * The last three as their documentation and their bundles say; seen in their requests for the
 * root files only.
 */

/** A skill (`SKILL.md`) or a file of instructions (`CLAUDE.md`, `AGENTS.md`). */
export type InstructionKind = 'skill' | 'instructions';

/** A staged file an agent may load: where it lands in the work tree, and its front matter. */
export interface InstructionFile {
  /** Relative to the work tree, with `/`. */
  readonly path: string;
  readonly kind: InstructionKind;
  /** The file opens with YAML front matter (`---` … `---`). */
  readonly frontMatter: boolean;
}

/** Whether an agent loads a staged file, and what to tell the user about it (null: nothing). */
export interface InstructionVerdict {
  readonly loads: boolean;
  readonly note: string | null;
}

/** An agent's rule for the instruction files it loads. */
export type InstructionRule = (file: InstructionFile) => InstructionVerdict;

/** The names of files that hold instructions an agent may load. */
export const INSTRUCTION_FILES: Readonly<Record<string, InstructionKind>> = {
  'SKILL.md': 'skill',
  'CLAUDE.md': 'instructions',
  'AGENTS.md': 'instructions',
  'GEMINI.md': 'instructions',
  'QWEN.md': 'instructions',
};

/** Names users write for those files by mistake (lower case, a letter off), by their lower case. */
const NEAR_NAMES: Readonly<Record<string, string>> = {
  'skill.md': 'SKILL.md',
  'skills.md': 'SKILL.md',
  'claude.md': 'CLAUDE.md',
  'agents.md': 'AGENTS.md',
  'agent.md': 'AGENTS.md',
  'gemini.md': 'GEMINI.md',
  'qwen.md': 'QWEN.md',
};

/**
 * The instruction file a name stands for: itself when it is one, the file it misses when it is
 * a near miss (`AGENT.md`, `claude.md`), or null. A near miss is watched like the file, so
 * that the measure says false, not nothing, when it never reaches the model.
 */
export function instructionFileNamed(
  name: string,
): { readonly kind: InstructionKind; readonly canonical: string } | null {
  const exact = INSTRUCTION_FILES[name];
  if (exact) return { kind: exact, canonical: name };
  const canonical = NEAR_NAMES[name.toLowerCase()];
  return canonical ? { kind: INSTRUCTION_FILES[canonical]!, canonical } : null;
}

/**
 * `rule`, first telling a near-missed name apart: an agent looks for its files by their exact
 * names, so `AGENT.md` or `claude.md` never loads; the note names the file it should be.
 */
export function withNearMisses(agent: string, rule: InstructionRule): InstructionRule {
  return (f) => {
    const parts = f.path.split('/');
    const name = parts.pop()!;
    const named = instructionFileNamed(name);
    if (!named || named.canonical === name) return rule(f);
    const meant = [...parts, named.canonical].join('/');
    const there = rule({ ...f, path: meant });
    return not(
      there.loads
        ? `${agent} reads ${meant}, not ${f.path} (names are exact, case included): rename it`
        : `${agent} reads no ${name}; not even as ${named.canonical}: ${there.note ?? 'it does not load it'}`,
    );
  };
}

/** A file only another agent reads (GEMINI.md for Claude Code), or null. */
function othersFile(
  f: InstructionFile,
  agent: string,
  own: readonly string[],
): InstructionVerdict | null {
  const name = f.path.split('/').pop()!;
  if (f.kind !== 'instructions' || own.includes(name)) return null;
  return not(`${agent} reads no ${name} (${own.join(', ')} only)`);
}

/** A skill at `pattern`, with or without front matter (`strict`: refused without). */
function skillVerdict(f: InstructionFile, agent: string, strict: boolean): InstructionVerdict {
  if (f.frontMatter) return loads;
  return strict
    ? not(`${agent} refuses a SKILL.md without YAML front matter (name, description)`)
    : { loads: true, note: `has no front matter: ${agent} may list it without a description` };
}

export const GEMINI_CLI_INSTRUCTIONS: InstructionRule = withNearMisses('Gemini CLI', (f) => {
  const other = othersFile(f, 'Gemini CLI', ['GEMINI.md']);
  if (other) return other;
  if (f.kind === 'instructions') {
    return f.path === 'GEMINI.md'
      ? loads
      : not(
          'Gemini CLI reads GEMINI.md from the work tree root up; a nested one is read only once it works in that folder',
        );
  }
  if (/^\.(gemini|agents)\/skills\/[^/]+\/SKILL\.md$/u.test(f.path)) {
    return skillVerdict(f, 'Gemini CLI', true);
  }
  return not(
    'Gemini CLI reads skills from .gemini/skills/<name>/SKILL.md or .agents/skills/<name>/SKILL.md only',
  );
});

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

export const OPENCODE_INSTRUCTIONS: InstructionRule = withNearMisses('OpenCode', (f) => {
  const other = othersFile(f, 'OpenCode', ['AGENTS.md', 'CLAUDE.md']);
  if (other) return other;
  if (f.kind === 'instructions') {
    if (f.path === 'AGENTS.md') return loads;
    if (f.path === 'CLAUDE.md')
      return { loads: true, note: 'OpenCode reads CLAUDE.md only when there is no AGENTS.md' };
    return not('OpenCode reads AGENTS.md (else CLAUDE.md) at the work tree root only');
  }
  if (/^\.(opencode\/skills?|claude\/skills|agents\/skills)\/(.+\/)?SKILL\.md$/u.test(f.path)) {
    return skillVerdict(f, 'OpenCode', true);
  }
  return not(
    'OpenCode reads skills from .opencode/skills/, .claude/skills/ or .agents/skills/ only',
  );
});

const loads: InstructionVerdict = { loads: true, note: null };
const not = (note: string): InstructionVerdict => ({ loads: false, note });

export const CLAUDE_CODE_INSTRUCTIONS: InstructionRule = withNearMisses('Claude Code', (f) => {
  const other = othersFile(f, 'Claude Code', ['CLAUDE.md', 'AGENTS.md']);
  if (other) return other;
  if (f.kind === 'instructions') {
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
