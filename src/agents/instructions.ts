/**
 * What every agent's rule for staged instruction files shares: the files' names (and the names
 * that miss them), the verdicts, and the reading of a near-missed name. Each agent's own rule,
 * as its real binary was seen to load (the agent conformance suite, test/agents/, holds it to
 * that), is in its folder: `src/agents/<agent>/loading.ts`.
 */

/** A skill (`SKILL.md`) or a file of instructions (`CLAUDE.md`, `AGENTS.md`, …). */
export type InstructionKind = 'skill' | 'instructions';

/** A staged file an agent may load: where it lands in the work tree, and its front matter. */
export interface InstructionFile {
  /** Relative to the work tree, with `/`. */
  readonly path: string;
  readonly kind: InstructionKind;
  /** The file opens with YAML front matter (`---` … `---`). */
  readonly frontMatter: boolean;
  /** Every instruction file its condition stages (one may shadow another: AGENTS.md by CLAUDE.md). */
  readonly staged?: readonly string[];
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
  'copilot-instructions.md': 'instructions',
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
  'copilot-instructions.md': 'copilot-instructions.md',
  'copilot-instruction.md': 'copilot-instructions.md',
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
export function othersFile(
  f: InstructionFile,
  agent: string,
  own: readonly string[],
): InstructionVerdict | null {
  const name = f.path.split('/').pop()!;
  if (f.kind !== 'instructions' || own.includes(name)) return null;
  return not(`${agent} reads no ${name} (${own.join(', ')} only)`);
}

/** A skill at `pattern`, with or without front matter (`strict`: refused without). */
export function skillVerdict(
  f: InstructionFile,
  agent: string,
  strict: boolean,
): InstructionVerdict {
  if (f.frontMatter) return loads;
  return strict
    ? not(`${agent} refuses a SKILL.md without YAML front matter (name, description)`)
    : { loads: true, note: `has no front matter: ${agent} may list it without a description` };
}

/** Loaded as staged, nothing to say. */
export const loads: InstructionVerdict = { loads: true, note: null };
/** Not loaded, and why. */
export const not = (note: string): InstructionVerdict => ({ loads: false, note });
