/**
 * Resources checked against the engine that will run the containers: the
 * schema bounds what any engine accepts, but how many CPUs and how much
 * memory this one has is known only when a campaign starts. Docker refuses a
 * container asking for more CPUs than it has (every run would fail at the
 * engine), and a memory limit above its memory limits nothing.
 */
import { EvalrigError } from '../errors/index.js';
import { parseMemory } from './memory.js';
import { DEFAULTS } from './normalize.js';
import { EvalSetError, type Problem } from './problems.js';
import type { EvalSet } from './types.js';

/** What the engine has: `NCPU` and `MemTotal` of `docker info`. */
export interface EngineCapacity {
  readonly cpus: number;
  readonly memoryBytes: number;
  /** Its address, named in the messages when given (a campaign over several engines). */
  readonly name?: string;
}

/**
 * The problems of an eval set's resources on an engine of this capacity,
 * each at its JSON pointer; empty when they fit. A capacity the engine did
 * not state (0, NaN) checks nothing.
 *
 * @example
 * checkResourcesAgainstEngine(set, { cpus: 2, memoryBytes: 8 * 1024 ** 3 })
 * // [{ pointer: '/resources/cpus', message: 'asks for 64 CPUs but the engine has 2; ...' }]
 */
export function checkResourcesAgainstEngine(set: EvalSet, engine: EngineCapacity): Problem[] {
  const problems: Problem[] = [];
  const { cpus, memory_bytes: memory } = set.resources;
  const it = engine.name === undefined ? 'the engine' : `the engine at ${engine.name}`;
  if (engine.cpus > 0 && cpus > engine.cpus) {
    problems.push({
      pointer: '/resources/cpus',
      message: `asks for ${cpus} CPUs${cpus === DEFAULTS.cpus ? ' (the default)' : ''} but ${it} has ${engine.cpus}; Docker refuses such a container: lower resources.cpus to at most ${engine.cpus}`,
    });
  }
  if (engine.memoryBytes > 0 && memory > engine.memoryBytes) {
    problems.push({
      pointer: '/resources/memory',
      message: `asks for ${mebibytes(memory)}${memory === parseMemory(DEFAULTS.memory) ? ' (the default)' : ''} but ${it} has ${mebibytes(engine.memoryBytes)}, so the limit would hold nothing: lower resources.memory`,
    });
  }
  return problems;
}

/**
 * Refuses the eval set when its resources do not fit one of the engines a
 * campaign spreads its runs over (each already asked its capacity): every run
 * landing there would fail. Each problem names its engine.
 *
 * @throws EvalSetError (exit 2) listing each resource that does not fit, engine by engine.
 */
export function refuseBeyondEngines(
  file: string,
  set: EvalSet,
  engines: readonly EngineCapacity[],
): void {
  const problems = engines.flatMap((engine) => checkResourcesAgainstEngine(set, engine));
  if (problems.length > 0) throw new EvalSetError(file, problems);
}

/** The part of `docker info` read here (dockerode's `docker.info()` gives it). */
export interface EngineInfo {
  readonly NCPU?: unknown;
  readonly MemTotal?: unknown;
}

/**
 * Asks the engine its capacity (within `timeoutMs`) and refuses the eval set
 * when its resources do not fit: called right after the engine answers a
 * ping, before anything of a campaign is created.
 *
 * @param file the eval set as the user named it (for the message).
 * @throws EvalSetError (exit 2) listing each resource that does not fit;
 *   EvalrigError when the engine does not say within the bound.
 * @example await refuseBeyondEngine('evals.json', set, () => client.docker.info());
 */
export async function refuseBeyondEngine(
  file: string,
  set: EvalSet,
  info: () => Promise<EngineInfo>,
  timeoutMs = 5000,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  let answer: EngineInfo;
  try {
    answer = await Promise.race([info(), late]);
  } catch (error) {
    throw new EvalrigError(
      `the Docker engine did not say how many CPUs and how much memory it has: ${(error as Error).message ?? String(error)}`,
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
  }
  const problems = checkResourcesAgainstEngine(set, {
    cpus: typeof answer.NCPU === 'number' ? answer.NCPU : 0,
    memoryBytes: typeof answer.MemTotal === 'number' ? answer.MemTotal : 0,
  });
  if (problems.length > 0) throw new EvalSetError(file, problems);
}

function mebibytes(bytes: number): string {
  return bytes >= 1024 ** 3 && bytes % 1024 ** 3 === 0
    ? `${bytes / 1024 ** 3} GiB`
    : `${Math.round((bytes / 1024 ** 2) * 10) / 10} MiB`;
}
