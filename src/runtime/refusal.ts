import { EvalrigError } from '../errors/index.js';

/**
 * What to do about an engine's refusal, where it is known: the engine's own
 * words are matched, the first hint that matches is given.
 */
const HINTS: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /container-init binary not found|catatonit/iu,
    "install catatonit on the engine's host (Debian: apt-get install catatonit): Podman's init, which evalrig asks for",
  ],
  [
    /error setting rlimit/iu,
    'the engine raises open-file or process limits above what its root may (Podman does; a root without CAP_SYS_RESOURCE may not): set default_ulimits in the engine\'s containers.conf within the hard limits of its service (ulimit -Hn, ulimit -Hu), e.g. default_ulimits = ["nofile=20000:20000", "nproc=20000:20000"]',
  ],
  [
    /podman-init.*permission denied/iu,
    "rootless Podman cannot run its init for this container's user: check that the service's user can read /usr/libexec/podman/catatonit and that its storage is not on a nosuid or noexec mount",
  ],
  [
    /no such image|image not known/iu,
    'the image is not on that engine: evalrig ships its images to every engine of a campaign; run the campaign again',
  ],
  [/Minimum memory limit|memory limit.*too low/iu, 'raise resources.memory in the eval set'],
  [
    /cpus? .*(range|available)|NanoCPUs|range of CPUs/iu,
    'lower resources.cpus in the eval set to at most the CPUs of that engine',
  ],
];

/** The hint for an engine's message, when one is known. */
export function refusalHint(message: string): string | undefined {
  return HINTS.find(([pattern]) => pattern.test(message))?.[1];
}

/** The engine's own message of a dockerode error (`json.message`), on one line. */
export function engineMessageOf(error: unknown): string {
  const e = error as { json?: unknown; message?: unknown; reason?: unknown } | null;
  const json = e?.json as { message?: unknown } | string | null | undefined;
  const said =
    typeof json === 'string'
      ? json
      : typeof json?.message === 'string'
        ? json.message
        : typeof e?.message === 'string'
          ? e.message.replace(/^\(HTTP code \d+\)\s*[^-]*-\s*/u, '')
          : String(error);
  return said.replace(/\s+/gu, ' ').trim();
}

/** The HTTP status of a dockerode error, when the engine answered one. */
export function statusOf(error: unknown): number | undefined {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' ? status : undefined;
}

/**
 * The engine answered a request with an error (4xx or 5xx): its own words,
 * the operation and the engine, and what to do where that is known. A user's
 * or an engine's set-up to fix, never an evalrig bug: one line, no stack.
 * `statusCode` is the engine's, for callers that tell a 404 from a 409.
 *
 * @example
 * // the engine at unix:///run/podman/podman.sock refused a container start:
 * //   container-init binary not found on the host: stat /usr/libexec/podman/catatonit: …;
 * //   install catatonit on the engine's host (…)
 */
export class EngineRefusedError extends EvalrigError {
  readonly hint: string | undefined;
  constructor(
    readonly engine: string,
    readonly operation: string,
    readonly engineMessage: string,
    readonly statusCode: number,
    options: { cause?: unknown } = {},
  ) {
    const hint = refusalHint(engineMessage);
    super(
      `the engine at ${engine} refused ${operation}: ${engineMessage}${hint ? `; ${hint}` : ''}`,
      options,
    );
    this.hint = hint;
  }
}

/**
 * `error` as an EngineRefusedError when the engine answered with an error
 * status; anything else (a lost connection, a bug) unchanged.
 */
export function asRefusal(engine: string, operation: string, error: unknown): unknown {
  const status = statusOf(error);
  if (status === undefined || status < 400 || error instanceof EngineRefusedError) return error;
  return new EngineRefusedError(engine, operation, engineMessageOf(error), status, {
    cause: error,
  });
}
