import { lstat, open, readdir } from 'node:fs/promises';
import path from 'node:path';
import {
  instructionFileNamed,
  type InstructionKind,
  type InstructionRule,
  type SkillListing,
} from '../agents/index.js';
import type { Condition } from '../config/index.js';
import { normalize, type Needle } from '../flight/index.js';
import { frontMatterOf } from './front-matter.js';

/** An instruction a condition stages: what must be seen reaching the model, run by run. */
export interface StagedInstruction {
  /** `skill:<path>` or `instructions:<path>`: its needle's id too. */
  readonly id: string;
  readonly kind: InstructionKind;
  /** Where it lands, relative to the work tree. */
  readonly path: string;
  /** The staged file on the host. */
  readonly from: string;
  /** A skill's name (its front matter's, else its folder's); null for instructions. */
  readonly name: string | null;
  /** The condition's agent loads it there (null: an agent evalrig knows nothing of). */
  readonly loads: boolean | null;
  /** What to tell the user about where it is staged, or null. */
  readonly note: string | null;
  /** What its arrival looks like in a request; null when it cannot be told (see `undecided`). */
  readonly needle: Needle | null;
  /** Why its arrival cannot be told (an empty file, a description its agent reads as nothing). */
  readonly undecided: string | null;
}

/** What the treatment check knows of an agent: the files it loads, and how it lists a skill. */
export interface AgentLoading {
  readonly instructions: InstructionRule;
  readonly skills: SkillListing;
}

/** Entries looked at below one staged folder; more are not searched for instructions. */
const MAX_ENTRIES = 10_000;
/** Bytes of an instruction file read (its front matter and first lines are at its start). */
const HEAD_BYTES = 64 * 1024;
/** Characters of a skill's description looked for: agents may shorten a long one. */
const DESCRIPTION_CHARS = 60;

/**
 * The instructions `condition` stages (each SKILL.md, CLAUDE.md, AGENTS.md, GEMINI.md, QWEN.md
 * and copilot-instructions.md among its staged paths, and the names that miss them by a letter
 * or a case), folders walked without following links, with what its agent says of where each
 * lands. Read from the host's copy, as evalrig stages it. `agent` undefined: an agent evalrig
 * knows nothing of.
 */
export async function stagedInstructions(
  condition: Pick<Condition, 'stage'>,
  agent: AgentLoading | undefined,
): Promise<StagedInstruction[]> {
  const files = [];
  for (const staged of condition.stage)
    files.push(...(await instructionFiles(staged.from, staged.to)));
  // The rule sees every staged path: one file may shadow another (AGENTS.md by CLAUDE.md).
  const paths = files.map((f) => f.to);
  const found: StagedInstruction[] = [];
  for (const file of files) found.push(await describe(file.from, file.to, file.kind, agent, paths));
  return found;
}

async function instructionFiles(
  from: string,
  to: string,
): Promise<{ from: string; to: string; kind: InstructionKind }[]> {
  const out: { from: string; to: string; kind: InstructionKind }[] = [];
  const info = await lstat(from).catch(() => null);
  if (!info) return out;
  if (info.isFile()) {
    const named = instructionFileNamed(path.posix.basename(to));
    if (named) out.push({ from, to, kind: named.kind });
    return out;
  }
  let seen = 0;
  const walk = async (dir: string, rel: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (++seen > MAX_ENTRIES) return;
      const relPath = path.posix.join(rel, e.name);
      if (e.isDirectory()) await walk(path.join(dir, e.name), relPath);
      const named = instructionFileNamed(e.name);
      if (e.isFile() && named)
        out.push({ from: path.join(dir, e.name), to: relPath, kind: named.kind });
    }
  };
  if (info.isDirectory()) await walk(from, to);
  return out;
}

async function describe(
  from: string,
  to: string,
  kind: InstructionKind,
  agent: AgentLoading | undefined,
  staged: readonly string[],
): Promise<StagedInstruction> {
  const text = await head(from);
  const front = frontMatterOf(text);
  const file = { path: to, kind, frontMatter: front.frontMatter, staged };
  const verdict = agent?.instructions(file) ?? null;
  const id = `${kind}:${to}`;
  const base = {
    id,
    kind,
    path: to,
    from,
    loads: verdict?.loads ?? null,
    note: verdict?.note ?? null,
  };
  if (kind === 'instructions') {
    const lines = firstLines(front.body, 3);
    return lines.length === 0
      ? { ...base, name: null, needle: null, undecided: 'the file has no text to look for' }
      : { ...base, name: null, needle: { id, all: lines }, undecided: null };
  }
  const folder = path.posix.basename(path.posix.dirname(to));
  const name = front.fields.name ?? folder;
  const own = agent?.skills.description;
  const description =
    front.frontMatter && own
      ? own(front.raw)
      : (front.fields.description ?? firstLines(front.body, 1)[0] ?? '');
  if (description === null) {
    const undecided = 'its agent reads no description from this front matter (a block value?)';
    return { ...base, name, needle: null, undecided };
  }
  const shown = normalize(description).slice(0, DESCRIPTION_CHARS);
  // How its agent lists it (the entry up to the description's start), or its name alone.
  const entry = agent ? agent.skills.entry(name, shown) : shown === '' ? name : `${name}: ${shown}`;
  return { ...base, name, needle: { id, all: [entry] }, undecided: null };
}

async function head(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** The first `n` non-empty lines (comments and bare headings marks skipped), normalized and capped. */
function firstLines(body: string, n: number): string[] {
  const lines: string[] = [];
  for (const raw of body.split(/\r?\n/u)) {
    const line = normalize(raw);
    if (line === '' || line.startsWith('<!--') || /^#+$/u.test(line)) continue;
    lines.push(line.slice(0, 100));
    if (lines.length >= n) break;
  }
  return lines;
}
