/**
 * `evalrig doctor`: each engine a campaign would run on, looked at as a
 * campaign looks at it, and said in plain lines: what answers there (kind,
 * version, rootless), its CPUs and memory, whether the base and test images
 * are there (the base shipped from another engine when it lacks it, as a
 * campaign does), whether it starts a locked-down container (network none,
 * non-root, init, limits) and removes it, and the first thing to fix.
 *
 * @example
 * const exams = await examineEngines([engineAddress('unix:///run/podman/podman.sock')]);
 * formatExamination(exams[0]!) // 'engine unix:///run/podman/podman.sock\n  answers: Podman 4.3.1 …'
 */
import { EvalrigError } from '../errors/index.js';
import { testImageTag } from '../image/index.js';
import { connectDocker, DEFAULT_LIMITS } from '../runtime/index.js';
import {
  connectEngine,
  describeEngine,
  imageIdOn,
  preflightEngine,
  shipBaseImage,
  type BaseImageState,
  type DockerClient,
  type EngineAddress,
  type EngineDescription,
  type PreflightResult,
} from '../sandbox/index.js';
import { baseImageTag } from './engine-setup.js';

/** What doctor found on one engine. */
export interface EngineExamination {
  /** As given (--engine), or DOCKER_HOST's address. */
  readonly address: string;
  readonly engine?: EngineDescription;
  readonly baseImage?: BaseImageState;
  /** The test image over that base, and whether the engine holds it. */
  readonly testImage?: { readonly tag: string; readonly present: boolean };
  readonly preflight?: PreflightResult;
  /** The first thing to fix, when there is one: runs cannot play there until it is. */
  readonly fix?: string;
  /** What to know that does not stop runs (limits not enforced, ulimits lowered). */
  readonly warnings: readonly string[];
}

const quiet = { write: () => true } as unknown as NodeJS.WritableStream;

function reasonOf(error: unknown): string {
  if (error instanceof EvalrigError) return error.message;
  return `unexpected: ${(error as Error)?.message ?? String(error)}`;
}

/** Looks at one engine; `others` may lend it the base image. Never throws. */
async function examine(
  client: DockerClient,
  address: string,
  others: readonly DockerClient[],
): Promise<EngineExamination> {
  let engine: EngineDescription;
  try {
    engine = await describeEngine(client, address);
  } catch (error) {
    return { address, fix: reasonOf(error), warnings: [] };
  }
  const found: { -readonly [K in keyof EngineExamination]: EngineExamination[K] } = {
    address,
    engine,
    warnings: [],
  };
  try {
    found.baseImage = await shipBaseImage(client, others, baseImageTag(undefined), quiet);
    const { tag, id } = found.baseImage;
    if (!id) {
      found.fix = `the base image ${tag} is on no engine evalrig can reach: run scripts/base-image.sh (or set EVALRIG_BASE_IMAGE)`;
      return found;
    }
    const test = await testImageTag(tag, id);
    found.testImage = { tag: test, present: (await imageIdOn(client, test)) !== undefined };
    found.preflight = await preflightEngine(client, engine, {
      image: tag,
      labels: { 'evalrig.doctor': 'true' },
      // evalrig's default limits, within the engine's CPUs (a smaller engine refuses more).
      limits: { cpus: Math.min(DEFAULT_LIMITS.cpus, engine.cpus || 1) },
    });
    found.warnings = found.preflight.warnings;
  } catch (error) {
    // An engine's refusal (EngineRefusedError) is an EvalrigError: its words, what to do.
    found.fix = reasonOf(error);
  }
  return found;
}

/**
 * Examines each engine in turn (none given: DOCKER_HOST's, else the default
 * socket). An engine that lacks the base image gets it from an engine that
 * has it.
 */
export async function examineEngines(
  addresses: readonly EngineAddress[] = [],
): Promise<EngineExamination[]> {
  const clients =
    addresses.length > 0
      ? addresses.map((a) => ({ client: connectEngine(a), address: a.name }))
      : [{ client: connectDocker(), address: connectDocker().where }];
  const out: EngineExamination[] = [];
  for (const { client, address } of clients) {
    const others = clients.filter((c) => c.client !== client).map((c) => c.client);
    out.push(await examine(client, address, others));
  }
  for (const { client } of clients) {
    (client.docker.modem as { agent?: { destroy?(): void } }).agent?.destroy?.();
  }
  return out;
}

function gib(bytes: number): string {
  return `${(bytes / 1024 ** 3).toFixed(1)} GiB`;
}

/** One engine's examination as the lines `evalrig doctor` prints. */
export function formatExamination(exam: EngineExamination): string {
  const lines = [`engine ${exam.address}`];
  const e = exam.engine;
  if (e) {
    const kind = e.kind === 'podman' ? 'Podman' : 'Docker';
    const how = [
      e.rootless ? 'rootless' : 'rootful',
      e.cgroupVersion && `cgroup v${e.cgroupVersion}`,
    ]
      .filter(Boolean)
      .join(', ');
    lines.push(`  answers: ${kind} ${e.version} (API ${e.apiVersion}, ${how}), id ${e.id}`);
    lines.push(`  capacity: ${e.cpus} CPUs, ${gib(e.memoryBytes)} of memory`);
  }
  const base = exam.baseImage;
  if (base) {
    const state = !base.id
      ? 'not here, nor on any other engine'
      : base.from
        ? `shipped here from ${base.from}`
        : 'present';
    lines.push(`  base image ${base.tag}: ${state}`);
  }
  if (exam.testImage) {
    lines.push(
      `  test image ${exam.testImage.tag}: ${exam.testImage.present ? 'present' : 'not here yet (built or shipped by the first campaign, or evalrig image build)'}`,
    );
  }
  const p = exam.preflight;
  if (p) {
    const look = p.look;
    const ulimits = p.ulimits
      ? `; ulimits ${p.ulimits.map((u) => `${u.Name}=${u.Hard}`).join(', ')}`
      : '';
    lines.push(
      `  locked-down container: started and removed (network: ${look.network.join(' ') || 'none'}; user ${look.uid}; init ${look.init || 'none'}; memory and process limits ${p.limitsEnforced ? 'hold' : 'NOT held'}${ulimits})`,
    );
  }
  for (const w of exam.warnings) lines.push(`  warning: ${w}`);
  lines.push(exam.fix ? `  first thing to fix: ${exam.fix}` : '  ready');
  return lines.join('\n');
}
