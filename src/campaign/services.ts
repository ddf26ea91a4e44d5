/**
 * The services of a campaign: each service's image made once (built, or
 * found, then set up) before any run, and what each run's sandbox is asked to
 * start beside it. Evals that name the same service share its image.
 */
import path from 'node:path';
import type { RunServiceRecord } from '../artifacts/index.js';
import type { Eval, EvalSet, ServiceDef } from '../config/index.js';
import { InputError } from '../errors/index.js';
import { ensureServiceImage, portReadyCommand, type ServiceImage } from '../image/index.js';
import {
  describeFailure,
  type DockerClient,
  type Sandbox,
  type SandboxProvider,
  type ServiceFailure,
  type ServiceSpec,
} from '../sandbox/index.js';

/** Per eval id, its services with their images, in the order the eval set names them. */
export type EvalServices = ReadonlyMap<string, readonly ReadyService[]>;

export interface ReadyService {
  readonly def: ServiceDef;
  readonly image: ServiceImage;
}

/**
 * Refuses, in one line before anything is built, a campaign whose evals need
 * services where its sandboxes cannot start them.
 */
export function refuseServicesBeyond(
  sandboxes: SandboxProvider,
  evalSet: EvalSet,
  evals: readonly Eval[],
): void {
  const needing = evals.find((e) => (e.services?.length ?? 0) > 0);
  if (!needing) return;
  const why = sandboxes.servicesRefusal
    ? sandboxes.servicesRefusal()
    : 'this kind of sandbox cannot start services';
  if (why === undefined) return;
  throw new InputError(
    `${evalSet.file}: eval ${needing.id} needs services (${needing.services!.map((s) => s.name).join(', ')}), but the engine ${sandboxes.name} cannot run them: ${why}`,
  );
}

/** Makes every planned eval's service images (one per distinct service), in order. */
export async function ensureEvalServices(
  client: DockerClient,
  evalSet: EvalSet,
  evals: readonly Eval[],
  options: { readonly baseImage?: string; readonly log: NodeJS.WritableStream },
): Promise<EvalServices> {
  const made = new Map<string, Promise<ServiceImage>>();
  const out = new Map<string, ReadyService[]>();
  for (const e of evals) {
    const list: ReadyService[] = [];
    for (const def of e.services ?? []) {
      const key = JSON.stringify([def.image, def.command, def.env, def.setup, def.ready]);
      let image = made.get(key);
      if (!image) {
        image = makeImage(client, evalSet, def, options);
        made.set(key, image);
      }
      list.push({ def, image: await image });
    }
    if (list.length > 0) out.set(e.id, list);
  }
  return out;
}

async function makeImage(
  client: DockerClient,
  evalSet: EvalSet,
  def: ServiceDef,
  options: { readonly baseImage?: string; readonly log: NodeJS.WritableStream },
): Promise<ServiceImage> {
  const started = Date.now();
  const image = await ensureServiceImage(client, {
    source: def.image,
    ...(def.command ? { command: def.command } : {}),
    env: def.env,
    setup: def.setup,
    readyCommand: def.ready.command ?? portReadyCommand(def.ready.port ?? 0),
    readyTimeoutMs: def.ready.timeout * 1000,
    baseImage: options.baseImage,
    limits: limitsOf(def),
    onProgress: (line) => options.log.write(`service ${def.name}: ${line}\n`),
  });
  if (image.made) {
    const from =
      'dockerfile' in def.image
        ? path.relative(evalSet.dir, def.image.dockerfile)
        : def.image.local;
    options.log.write(
      `evalrig: made service image ${image.tag} for ${def.name} from ${from} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`,
    );
  }
  return image;
}

function limitsOf(def: ServiceDef): { memoryBytes: number; cpus: number; pids: number } {
  return {
    memoryBytes: def.resources.memory_bytes,
    cpus: def.resources.cpus,
    pids: def.resources.pids,
  };
}

/** What a run's sandbox is asked to start beside it. */
export function serviceSpecsOf(services: readonly ReadyService[]): ServiceSpec[] {
  return services.map(({ def, image }) => ({
    name: def.name,
    image: image.tag,
    ...(def.command ? { cmd: def.command } : {}),
    env: def.env,
    limits: limitsOf(def),
    ready: {
      ...(def.ready.command === undefined ? {} : { command: def.ready.command }),
      ...(def.ready.port === undefined ? {} : { port: def.ready.port }),
      timeoutMs: def.ready.timeout * 1000,
    },
  }));
}

/** run.json's `services`: each service's image and readiness, and its failure when it died. */
export function serviceRecords(
  services: readonly ReadyService[],
  sandbox: Sandbox | undefined,
  failures: readonly ServiceFailure[],
): RunServiceRecord[] {
  return services.map(({ def, image }) => {
    const started = sandbox?.services?.find((s) => s.name === def.name);
    const failure = failures.find((f) => f.name === def.name);
    return {
      name: def.name,
      image: { tag: image.tag, id: image.id },
      ...(started ? { ready_ms: started.readyMs } : {}),
      ...(failure
        ? {
            failure: {
              at: failure.at,
              exit_code: failure.exitCode,
              oom_killed: failure.oomKilled,
              log_tail: [...failure.logTail],
            },
          }
        : {}),
    };
  });
}

/**
 * A service that died while the run played. Once the agent's first turn began it could reach
 * the service (kill it, exhaust its memory): its failure then, counted against its condition
 * (see run/failure.ts), unless the engine itself was lost.
 */
export class ServiceDiedError extends Error {
  constructor(
    readonly failures: readonly ServiceFailure[],
    during: string,
  ) {
    const f = failures[0]!;
    super(
      `service ${f.name} died during ${during} (${describeFailure(f)} at ${f.at}); its last lines: ${f.logTail.slice(-3).join(' | ') || '(none)'}`,
    );
  }
}
