/**
 * A campaign's engines made ready before its runs: who each one is (and
 * whether the eval set's resources fit it), the base image shipped to the
 * first when it lacks it, and a locked-down container on each before the
 * first run, so that an engine that would refuse every run refuses the
 * campaign with its own words instead.
 */
import type { EngineRecord } from '../artifacts/index.js';
import { refuseBeyondEngines, type EvalSet } from '../config/index.js';
import { LOCAL_BASE_IMAGE } from '../image/index.js';
import { connectDocker, pingDocker, type DockerClient } from '../runtime/index.js';
import {
  exporterOf,
  imageIdOn,
  shipImage,
  type EngineDescription,
  type PreflightResult,
  type SandboxProvider,
} from '../sandbox/index.js';

/**
 * Every engine of `sandboxes`, pinged and described in order; the eval set
 * is refused (exit 2) when its resources do not fit one of them.
 */
export async function describeEngines(
  sandboxes: SandboxProvider,
  file: string,
  evalSet: EvalSet,
): Promise<readonly EngineDescription[]> {
  const engines = (await sandboxes.describe?.()) ?? [];
  refuseBeyondEngines(
    file,
    evalSet,
    engines.map((e) => ({
      cpus: e.cpus,
      memoryBytes: e.memoryBytes,
      ...(engines.length > 1 ? { name: e.address } : {}),
    })),
  );
  return engines;
}

/** Where the base image is on an engine, after {@link shipBaseImage}. */
export interface BaseImageState {
  readonly tag: string;
  /** Its id there; undefined when no engine had it to ship. */
  readonly id?: string;
  /** The engine it was shipped from, when it was. */
  readonly from?: string;
}

/**
 * The base image the test image is built over, made present on the engine of
 * `first` when another engine has it: `others`, then the machine's own
 * (DOCKER_HOST, else the default socket), where scripts/base-image.sh builds
 * it. Nothing happens when no engine has it (the build then says which base
 * is missing).
 */
export async function shipBaseImage(
  first: DockerClient,
  others: readonly DockerClient[],
  baseImage: string | undefined,
  log: NodeJS.WritableStream,
): Promise<BaseImageState> {
  const tag = baseImage?.trim() || process.env.EVALRIG_BASE_IMAGE?.trim() || LOCAL_BASE_IMAGE;
  const here = await imageIdOn(first, tag);
  if (here) return { tag, id: here };
  const machine = connectDocker();
  const donors = [...others];
  if (machine.where !== first.where) {
    const answers = await pingDocker(machine, 2000).then(
      () => true,
      () => false,
    );
    if (answers) donors.push(machine);
  }
  for (const donor of donors) {
    const id = await imageIdOn(donor, tag).catch(() => undefined);
    if (!id) continue;
    log.write(`evalrig: shipping base image ${tag} from ${donor.where} to ${first.where}\n`);
    await shipImage(first, first.where, { tag, id }, exporterOf(donor));
    return { tag, id, from: donor.where };
  }
  return { tag };
}

/** A preflight's result as run.json and conditions.json record the engine. */
export function engineRecord(result: PreflightResult): EngineRecord {
  const e = result.engine;
  return {
    address: e.address,
    kind: e.kind,
    id: e.id,
    version: e.version,
    rootless: e.rootless,
    limits_enforced: result.limitsEnforced,
  };
}

/**
 * A locked-down container on every engine, in the campaign's image with the
 * eval set's limits, before the first run: an engine that would refuse them
 * all refuses the campaign (EngineRefusedError: its words, what to do). Its
 * warnings are said once. Returns each engine's record by its address.
 */
export async function preflightEngines(
  sandboxes: SandboxProvider,
  options: {
    readonly image: string;
    readonly evalSet: EvalSet;
    readonly labels: Readonly<Record<string, string>>;
    readonly log: NodeJS.WritableStream;
  },
): Promise<ReadonlyMap<string, EngineRecord>> {
  const { resources } = options.evalSet;
  const results =
    (await sandboxes.preflight?.({
      image: options.image,
      limits: { memoryBytes: resources.memory_bytes, cpus: resources.cpus, pids: resources.pids },
      labels: options.labels,
    })) ?? [];
  for (const r of results)
    for (const w of r.warnings) options.log.write(`evalrig: warning: ${w}\n`);
  return new Map(results.map((r) => [r.engine.address, engineRecord(r)]));
}
