import { EvalrigError } from '../errors/index.js';
import type { ExecResult, SandboxProvider } from '../sandbox/index.js';
import type { AgentAdapter, AgentFile } from './adapter.js';
import type { AgentInstall } from './install.js';

/** The agent cannot run in the image: the campaign is refused before anything is played. */
export class AgentPreflightError extends EvalrigError {}

/**
 * Starts a sandbox of the image once, through the campaign's provider (the adapter's files
 * shared where runs see them, as a run's are: mounted where the engine sees the host's disk,
 * copied in where it does not; none when they are built into the image), and asks
 * `adapter.versionArgv` as the agent's user, as a run starts it: a binary or relay that does
 * not start there (a musl image, a missing loader) or answers another version refuses the
 * campaign with what it answered.
 */
export function preflightAdapter(
  sandboxes: SandboxProvider,
  adapter: AgentAdapter,
  files: readonly AgentFile[],
  options: PreflightOptions,
): Promise<string> {
  return preflightAgent(sandboxes, options, files, adapter.versionArgv, adapter.parseVersion);
}

export interface PreflightOptions {
  readonly image: string;
  readonly install: AgentInstall;
  readonly user?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
}

async function preflightAgent(
  sandboxes: SandboxProvider,
  options: PreflightOptions,
  files: readonly AgentFile[],
  argv: readonly string[],
  parseVersion: (stdout: string) => string | null,
): Promise<string> {
  const { install } = options;
  const user = options.user ?? '1000:1000';
  const sandbox = await sandboxes.start({
    image: options.image,
    user,
    execUser: user,
    env: { HOME: '/tmp' },
    labels: options.labels ?? {},
    files: files.map((f) => ({ host: f.host, container: f.container })),
  });
  let r: ExecResult;
  try {
    r = await sandbox.exec(argv, {
      timeoutMs: options.timeoutMs ?? 60_000,
      maxOutputBytes: 16 * 1024,
    });
  } finally {
    await sandbox.remove().catch(() => undefined);
  }
  const said = `${r.stdout}${r.stderr}`.trim().slice(0, 300) || '(nothing)';
  if (r.timedOut) {
    throw new AgentPreflightError(
      `agent: ${install.package}@${install.version} did not answer --version in ${options.image} within ${(options.timeoutMs ?? 60_000) / 1000} s`,
    );
  }
  const version = r.exitCode === 0 ? parseVersion(r.stdout) : null;
  if (version !== install.version) {
    throw new AgentPreflightError(
      `agent: ${install.package}@${install.version} (${install.binary}) does not answer its version in ${options.image}: ` +
        `--version exited ${r.exitCode} and said ${JSON.stringify(said)}`,
    );
  }
  return version;
}
