/**
 * The files a model's tool call reads or edits, as its input names them: the path fields the
 * agents' file tools take, and the files an apply_patch body names. Only what the API said.
 */

const PATH_FIELDS = ['file_path', 'filePath', 'path', 'absolute_path', 'filename', 'file'] as const;

/** How a tool's name reads: a reading tool, an editing tool, or neither. */
export function toolAction(name: string): 'read' | 'edit' | null {
  const n = name.toLowerCase();
  if (/(write|edit|replace|patch|create|insert|str_replace)/u.test(n)) return 'edit';
  if (/(read|view|open|cat)/u.test(n)) return 'read';
  return null;
}

/** The files a patch body names ("*** Update File: a.js", "+++ b/a.js"). */
function patchFiles(text: string): string[] {
  const names = [
    ...text.matchAll(/^\*\*\* (?:Update|Add|Delete) File: (.+)$/gmu),
    ...text.matchAll(/^\+\+\+ b\/(.+)$/gmu),
  ].map((m) => m[1]!.trim());
  return [...new Set(names)];
}

/** The files one tool call reads and edits. */
export function filesOf(name: string, input: string): { read: string[]; edited: string[] } {
  let fields: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(input);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed))
      fields = parsed as Record<string, unknown>;
  } catch {
    // A raw patch (Codex's apply_patch takes its body as the input).
    return { read: [], edited: patchFiles(input) };
  }
  const patched = Object.values(fields).flatMap((v) =>
    typeof v === 'string' ? patchFiles(v) : [],
  );
  if (patched.length > 0) return { read: [], edited: patched };
  const action = toolAction(name);
  const paths = PATH_FIELDS.map((f) => fields[f]).filter((v): v is string => typeof v === 'string');
  if (action === null || paths.length === 0) return { read: [], edited: [] };
  return action === 'read' ? { read: paths, edited: [] } : { read: [], edited: paths };
}
