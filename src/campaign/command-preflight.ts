import { AgentPreflightError } from '../agents/index.js';
import { quotedKinds, type EvalSet } from '../config/index.js';
import { LABELS, type ExecResult, type SandboxProvider } from '../sandbox/index.js';
import { CONTAINER } from './layout.js';
import type { PlannedRun } from './plan.js';
import { fillPlaceholders, placeholderValues } from './turns.js';

/** The program of one of the agent's commands, as some planned run would start it. */
interface ProgramUse {
  readonly program: string;
  /** Where the eval set names it. */
  readonly field: 'agent.command[0]' | 'agent.resume_command[0]';
}

/**
 * Prints each argument that is no program the shell could start: a name `command -v` does not
 * find on PATH, or an absolute path that is no executable file. Run as the agent's user.
 */
const CHECK = `for p in "$@"; do
  case "$p" in
    /*) [ -f "$p" ] && [ -x "$p" ] || printf '%s\\n' "$p" ;;
    *) command -v -- "$p" >/dev/null 2>&1 || printf '%s\\n' "$p" ;;
  esac
done`;

/**
 * A command agent's preflight: in a throwaway sandbox of every image the planned runs use
 * (through the campaign's provider: on an engine that cannot see the host's disk, the eval set's
 * folder is copied in), as the agent's user, with the eval set's folder where runs see it, each program that a turn
 * would start (agent.command[0], and agent.resume_command[0] when a run has later turns,
 * placeholders filled as for that run) must be found. A program that is missing refuses the
 * campaign before anything is played, naming the field, the program and the image.
 *
 * A relative path with a slash (`./agent.sh`) is the checkout's, which no throwaway container
 * has: it is not checked here (a turn that cannot start it fails its run in phase agent).
 */
export async function preflightCommand(options: {
  readonly sandboxes: SandboxProvider;
  readonly evalSet: EvalSet;
  readonly planned: readonly PlannedRun[];
  readonly imageOf: (planned: PlannedRun) => string;
  readonly user: string;
  readonly campaign: string;
}): Promise<void> {
  const { evalSet } = options;
  const byImage = new Map<string, Map<string, ProgramUse>>();
  for (const p of options.planned) {
    const values = placeholderValues(p);
    const uses: ProgramUse[] = [{ program: evalSet.agent.command[0]!, field: 'agent.command[0]' }];
    if (p.eval.turns.length > 0) {
      uses.push({ program: evalSet.agent.resume_command[0]!, field: 'agent.resume_command[0]' });
    }
    const image = options.imageOf(p);
    const programs = byImage.get(image) ?? new Map<string, ProgramUse>();
    byImage.set(image, programs);
    for (const use of uses) {
      const program = fillPlaceholders(use.program, values);
      if (program.includes('/') && !program.startsWith('/')) continue;
      if (!programs.has(program)) programs.set(program, { ...use, program });
    }
  }
  for (const [image, programs] of byImage) {
    if (programs.size === 0) continue;
    const r = await checkIn(options, image, [...programs.keys()]);
    if (r.timedOut || r.exitCode !== 0) {
      throw new AgentPreflightError(
        `agent: the preflight of the agent's command did not finish in ${image} (exit ${r.exitCode}): ${r.stderr.trim().slice(0, 300)}`,
      );
    }
    const missing = r.stdout.split('\n').filter((line) => programs.has(line));
    if (missing.length > 0) {
      const use = programs.get(missing[0]!)!;
      const more = missing.length > 1 ? ` (and ${missing.slice(1).join(', ')})` : '';
      throw new AgentPreflightError(
        `${evalSet.file}: ${use.field}: the program ${JSON.stringify(use.program)}${more} is not found in image ${image} as user ${options.user} ` +
          `(${use.program.startsWith('/') ? 'no executable file there' : 'not on its PATH'}); nothing was played. ` +
          `Install it in the image (an environment, or --base), or use an adapter agent.type (${quotedKinds()}).`,
      );
    }
  }
}

/** Runs {@link CHECK} over `programs` in a throwaway sandbox of `image`, as the agent's user. */
async function checkIn(
  options: Parameters<typeof preflightCommand>[0],
  image: string,
  programs: readonly string[],
): Promise<ExecResult> {
  const sandbox = await options.sandboxes.start({
    image,
    user: options.user,
    execUser: options.user,
    labels: { [LABELS.campaign]: options.campaign },
    folders: [{ host: options.evalSet.dir, container: CONTAINER.evalSetDir, readOnly: true }],
  });
  try {
    return await sandbox.exec(['sh', '-c', CHECK, 'sh', ...programs], {
      timeoutMs: 60_000,
      maxOutputBytes: 64 * 1024,
    });
  } finally {
    await sandbox.remove().catch(() => undefined);
  }
}
