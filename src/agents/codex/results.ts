/**
 * The exit code in a Codex shell tool's result. Codex marks no result as an error on the wire
 * (the Responses API has no such field): it writes the code in the text it sends back.
 */

/** The forms its header takes, each before the command's output. */
const HEADER_FORMS: readonly RegExp[] = [
  // exec_command (checked with 0.171.0): "Chunk ID: …\nWall time: …\nProcess exited with code 1\n…Output:\n…"
  /^Process exited with code (-?\d+)$/mu,
  // The older shell tool's text form: "Exit code: 1\nWall time: …\nOutput:\n…"
  /^Exit code: (-?\d+)$/mu,
];

/** The exit code a result says, or null (a process still running, a patch, a refusal). */
export function codexExitCode(result: string): number | null {
  // Only the header counts: the command's own output may print anything.
  const output = result.indexOf('\nOutput:\n');
  const header = output < 0 ? result.slice(0, 2048) : result.slice(0, output);
  for (const form of HEADER_FORMS) {
    const m = form.exec(header);
    if (m) return Number(m[1]);
  }
  return jsonExitCode(result);
}

/** The older shell tool's JSON form: {"output": "…", "metadata": {"exit_code": 1, …}}. */
function jsonExitCode(result: string): number | null {
  if (!result.startsWith('{')) return null;
  try {
    const parsed = JSON.parse(result) as { metadata?: { exit_code?: unknown } };
    const code = parsed.metadata?.exit_code;
    return Number.isInteger(code) ? (code as number) : null;
  } catch {
    return null;
  }
}
