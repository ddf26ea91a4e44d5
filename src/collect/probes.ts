import type { ProbeOutput } from '../artifacts/index.js';
import type { Sandbox } from '../sandbox/index.js';

export const PROBE_TIMEOUT_S = 30;
export const PROBE_OUTPUT_BYTES = 256 * 1024;

/**
 * Runs every probe, one after the other, in ONE exec: a docker exec costs the
 * engine far more than a shell does, and probes run at every stop. Each
 * probe's exit code, stdout and stderr come back byte-counted (every probe's
 * counts first, then the outputs in order), so nothing a probe prints can be
 * mistaken for the framing. Beside the probes' own, five processes whatever
 * their number (a process costs a loaded container dearly): mktemp, one wc
 * for every size, one head for every output, rm. Needs only POSIX sh and
 * coreutils (mktemp, timeout, wc, head -q) in the image.
 */
const SCRIPT = `
cap=$1; limit=$2; shift 2
d=$(mktemp -d) || exit 90
i=0; codes=; files=
for cmd in "$@"; do
  timeout "$limit" sh -c "$cmd" >"$d/o$i" 2>"$d/e$i" </dev/null
  codes="$codes $?"
  files="$files $d/o$i $d/e$i"
  i=$((i + 1))
done
sizes=$(wc -c $files) || exit 91
set -- $sizes
for code in $codes; do
  printf '%s %s %s\\n' "$code" "$1" "$3"
  shift 4
done
head -q -c "$cap" $files
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
  // Every probe's counts first, one line each.
  const counts = entries.map(([name]) => {
    const eol = bytes.indexOf(0x0a, at);
    if (eol < 0) throw new Error(`probe output ended before probe "${name}"`);
    const [code, outLen, errLen] = bytes.toString('utf8', at, eol).trim().split(/\s+/u).map(Number);
    at = eol + 1;
    return { code, outLen: outLen ?? 0, errLen: errLen ?? 0 };
  });
  for (const [i, [name, command]] of entries.entries()) {
    const { code, outLen, errLen } = counts[i]!;
    const keptOut = Math.min(outLen, PROBE_OUTPUT_BYTES);
    const keptErr = Math.min(errLen, PROBE_OUTPUT_BYTES);
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
      stdout: note(stdout, outLen, keptOut),
      stderr: note(stderr, errLen, keptErr),
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
