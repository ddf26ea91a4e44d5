import { lstat, open, readdir } from 'node:fs/promises';
import path from 'node:path';
import { INSTRUCTION_FILES, type InstructionKind, type InstructionRule } from '../agents/index.js';
import type { Condition } from '../config/index.js';
import { normalize, type Needle } from '../flight/index.js';

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
  /** What its arrival looks like in a request; null when it has nothing to look for (empty). */
  readonly needle: Needle | null;
}

/** Entries looked at below one staged folder; more are not searched for instructions. */
const MAX_ENTRIES = 10_000;
/** Bytes of an instruction file read (its front matter and first lines are at its start). */
const HEAD_BYTES = 64 * 1024;
/** Characters of a skill's description looked for: agents may shorten a long one. */
const DESCRIPTION_CHARS = 60;

/**
 * The instructions `condition` stages (each SKILL.md, CLAUDE.md and AGENTS.md among its staged
 * paths, folders walked without following links), with what its agent's `rule` says of where
 * each lands. Read from the host's copy, as evalrig stages it.
 */
export async function stagedInstructions(
  condition: Condition,
  rule: InstructionRule | undefined,
): Promise<StagedInstruction[]> {
  const found: StagedInstruction[] = [];
  for (const staged of condition.stage) {
    for (const file of await instructionFiles(staged.from, staged.to)) {
      found.push(await describe(file.from, file.to, file.kind, rule));
    }
  }
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
    const kind = INSTRUCTION_FILES[path.posix.basename(to)];
    if (kind) out.push({ from, to, kind });
    return out;
  }
  let seen = 0;
  const walk = async (dir: string, rel: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (++seen > MAX_ENTRIES) return;
      const relPath = path.posix.join(rel, e.name);
      if (e.isDirectory()) await walk(path.join(dir, e.name), relPath);
      const kind = INSTRUCTION_FILES[e.name];
      if (e.isFile() && kind) out.push({ from: path.join(dir, e.name), to: relPath, kind });
    }
  };
  if (info.isDirectory()) await walk(from, to);
  return out;
}

async function describe(
  from: string,
  to: string,
  kind: InstructionKind,
  rule: InstructionRule | undefined,
): Promise<StagedInstruction> {
  const text = await head(from);
  const { fields, body, frontMatter } = frontMatterOf(text);
  const verdict = rule?.({ path: to, kind, frontMatter }) ?? null;
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
    const lines = firstLines(body, 3);
    return { ...base, name: null, needle: lines.length === 0 ? null : { id, all: lines } };
  }
  const name = fields.name ?? path.posix.basename(path.posix.dirname(to));
  const description = normalize(fields.description ?? firstLines(body, 1)[0] ?? '');
  const shown = description.slice(0, DESCRIPTION_CHARS);
  // Agents list a skill as "<name>: <description>" in what they send the model.
  return { ...base, name, needle: { id, all: [shown === '' ? name : `${name}: ${shown}`] } };
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

/**
 * A file's YAML front matter, read as the agents need it: `key: value` lines (quotes removed)
 * and folded or literal blocks (`key: >` then indented lines, joined), and the body after it.
 */
export function frontMatterOf(text: string): {
  fields: Record<string, string>;
  body: string;
  frontMatter: boolean;
} {
  const m = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/u.exec(text.replace(/^\uFEFF/u, ''));
  if (!m) return { fields: {}, body: text, frontMatter: false };
  const fields: Record<string, string> = {};
  let key: string | null = null;
  for (const line of m[1]!.split(/\r?\n/u)) {
    const field = /^([A-Za-z_][\w-]*):\s*(.*)$/u.exec(line);
    if (field) {
      key = field[1]!;
      const value = field[2]!.trim();
      fields[key] = /^[>|][-+]?$/u.test(value) ? '' : value.replace(/^(['"])(.*)\1$/u, '$2');
    } else if (key !== null && /^\s+\S/u.test(line)) {
      fields[key] = `${fields[key]} ${line.trim()}`.trim();
    }
  }
  return { fields, body: text.slice(m[0].length), frontMatter: true };
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
