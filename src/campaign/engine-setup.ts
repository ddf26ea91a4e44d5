/**
 * A campaign's engines made ready before its runs: who each one is (and
 * whether the eval set's resources fit it), the base image its builds start
 * from, and a locked-down container on each before the
 * first run, so that an engine that would refuse every run refuses the
 * campaign with its own words instead.
 */
import type { EngineRecord } from '../artifacts/index.js';
import { refuseBeyondEngines, type EvalSet } from '../config/index.js';
import { LOCAL_BASE_IMAGE } from '../image/index.js';
import {
  SandboxError,
  dockerImageBuilder,
  type EngineDescription,
  type ImageBuilder,
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

/** The base image the test image is built over: as named, else EVALRIG_BASE_IMAGE, else the local one. */
export function baseImageTag(baseImage: string | undefined): string {
  return baseImage?.trim() || process.env.EVALRIG_BASE_IMAGE?.trim() || LOCAL_BASE_IMAGE;
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

/**
 * The image builder `sandboxes` names; a provider of the older shape that
 * lends its build engine (a test's) is taken through the same adapter.
 * Refused, naming it, when it has neither.
 */
export function builderOf(sandboxes: SandboxProvider): ImageBuilder {
  const named = sandboxes.imageBuilder?.();
  if (named) return named;
  const buildImage = sandboxes.buildImage?.bind(sandboxes);
  if (buildImage) return dockerImageBuilder({ ...pick(sandboxes), buildImage });
  throw new SandboxError(
    sandboxes.name,
    'build',
    'this provider names no image builder for the campaign',
  );
}

/** What the Docker adapter reads of a provider, its methods bound to it. */
function pick(sandboxes: SandboxProvider) {
  const ensureBase = sandboxes.ensureBaseImage?.bind(sandboxes);
  return {
    name: sandboxes.name,
    ensureImage: sandboxes.ensureImage.bind(sandboxes),
    ...(ensureBase ? { ensureBaseImage: ensureBase } : {}),
  };
}
