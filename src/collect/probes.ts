import type { ProbeOutput } from '../artifacts/index.js';
import type { Sandbox } from '../sandbox/index.js';

export const PROBE_TIMEOUT_S = 30;
export const PROBE_OUTPUT_BYTES = 256 * 1024;

/**
 * Runs every probe, one after the other, in ONE exec: a docker exec costs the
 * engine far more than a shell does, and probes run at every stop. Each
 * probe's exit code, stdout and stderr come back byte-counted, so nothing a
 * probe prints can be mistaken for the framing. Needs only POSIX sh and
 * coreutils (mktemp, timeout, wc, head) in the image.
 */
const SCRIPT = `
cap=$1; limit=$2; shift 2
d=$(mktemp -d) || exit 90
i=0
for cmd in "$@"; do
  timeout "$limit" sh -c "$cmd" >"$d/o$i" 2>"$d/e$i" </dev/null
  echo $? >"$d/c$i"
  i=$((i + 1))
done
i=0
for cmd in "$@"; do
  printf '%s %s %s\\n' "$(cat "$d/c$i")" "$(wc -c <"$d/o$i")" "$(wc -c <"$d/e$i")"
  head -c "$cap" "$d/o$i"
  head -c "$cap" "$d/e$i"
  i=$((i + 1))
done
rm -rf "$d"
`;

export interface ProbeRun {
  /** Where the probes run: only its exec is needed. */
  readonly sandbox: Pick<Sandbox, 'exec'>;
  readonly workingDir: string;
  readonly env: Readonly<Record<string, string>>;
  readonly probes: Readonly<Record<string, string>>;
  /** Seconds each probe may take (default PROBE_TIMEOUT_S). */
  readonly timeoutS?: number;
}

function note(text: string, full: number, kept: number): string {
  return kept < full ? `${text}\n[evalrig: output truncated at ${kept} of ${full} bytes]\n` : text;
}

/** Reads the framed output of SCRIPT back into one ProbeOutput per probe. */
export function parseProbeOutput(
  bytes: Buffer,
  entries: ReadonlyArray<readonly [string, string]>,
  timeoutS: number = PROBE_TIMEOUT_S,
): Record<string, ProbeOutput> {
  const out: Record<string, ProbeOutput> = {};
  let at = 0;
  for (const [name, command] of entries) {
    const eol = bytes.indexOf(0x0a, at);
    if (eol < 0) throw new Error(`probe output ended before probe "${name}"`);
    const [code, outLen, errLen] = bytes.toString('utf8', at, eol).trim().split(/\s+/u).map(Number);
    at = eol + 1;
    const keptOut = Math.min(outLen ?? 0, PROBE_OUTPUT_BYTES);
    const keptErr = Math.min(errLen ?? 0, PROBE_OUTPUT_BYTES);
    const stdout = bytes.toString('utf8', at, at + keptOut);
    at += keptOut;
    let stderr = bytes.toString('utf8', at, at + keptErr);
    at += keptErr;
    // timeout(1) exits 124 when it had to stop the probe.
    const timedOut = code === 124;
    if (timedOut) stderr += `[evalrig: probe timed out after ${timeoutS} s]`;
    out[name] = {
      command,
      exit_code: timedOut || code === undefined || Number.isNaN(code) ? null : code,
      stdout: note(stdout, outLen ?? 0, keptOut),
      stderr: note(stderr, errLen ?? 0, keptErr),
    };
  }
  return out;
}

/** Runs the probes in the sandbox, in their declared order, and returns their outputs. */
export async function runProbes(run: ProbeRun): Promise<Record<string, ProbeOutput>> {
  const entries = Object.entries(run.probes);
  if (entries.length === 0) return {};
  const timeoutS = run.timeoutS ?? PROBE_TIMEOUT_S;
  const r = await run.sandbox.exec(
    [
      'sh',
      '-c',
      SCRIPT,
      'probes',
      String(PROBE_OUTPUT_BYTES),
      String(timeoutS),
      ...entries.map(([, c]) => c),
    ],
    {
      workingDir: run.workingDir,
      env: run.env,
      timeoutMs: (timeoutS * entries.length + 10) * 1000,
      maxOutputBytes: entries.length * (2 * PROBE_OUTPUT_BYTES + 64),
    },
  );
  if (r.timedOut || r.exitCode !== 0) {
    const why = r.timedOut ? 'timed out' : `exited ${r.exitCode}: ${r.stderr.trim()}`;
    throw new Error(`the probes could not run in the container (${why})`);
  }
  return parseProbeOutput(r.stdoutBytes, entries, timeoutS);
}
