/**
 * The `images` phase of a campaign: the base image shipped to the other
 * engines, the test image and the evals' environment images built (or found),
 * and every image a run starts from made runnable where it runs.
 */
import type { ConditionsFile } from '../../artifacts/index.js';
import type { EvalSet } from '../../config/index.js';
import { ensureTestImage, type TestImage } from '../../image/index.js';
import type { CampaignOptions } from '../options.js';
import { baseImageTag, builderOf } from '../engine-setup.js';
import { ensureEvalEnvironments, type EvalEnvironments } from '../environments.js';
import { ensureEvalServices, refuseServicesBeyond, type EvalServices } from '../services.js';
import type { PlannedRun } from '../plan.js';
import type { OpenedEngines } from './engines.js';

export interface CampaignImages {
  readonly image: TestImage;
  readonly environments: EvalEnvironments;
  /** Per eval id with services: each one's definition and image. */
  readonly services: EvalServices;
}

export async function ensureImages(
  outDir: string,
  options: CampaignOptions,
  opened: OpenedEngines,
  evalSet: EvalSet,
  planned: readonly PlannedRun[],
  previous: ConditionsFile | undefined,
  log: NodeJS.WritableStream,
): Promise<CampaignImages> {
  const { sandboxes } = opened;
  const builder = builderOf(sandboxes);
  const build = builder.build.bind(builder);
  const plannedEvals = evalSet.evals.filter((e) => planned.some((p) => p.eval.id === e.id));
  // Services need a provider that keeps a run's network private: refused in one line otherwise.
  refuseServicesBeyond(sandboxes, evalSet, plannedEvals);
  // An engine named first may lack the base image another engine (or the machine's) has.
  if (options.engines?.length)
    await builder.ensureBaseImage?.(baseImageTag(options.baseImage), log);
  // A build may take minutes: no time bound, but an engine lost meanwhile ends the wait.
  const image = await build('the test image check', (engine) =>
    ensureTestImage(engine, {
      baseImage: options.baseImage,
      onProgress: (line) => log.write(`image: ${line}\n`),
    }),
  );
  if (image.built) log.write(`evalrig: built test image ${image.tag}\n`);
  if (previous && previous.image.id !== image.id) {
    // Each run.json keeps the image it ran in; say that the campaign now mixes two.
    log.write(
      `evalrig: warning: runs finished earlier in ${outDir} used image ${previous.image.tag}; the runs played now use ${image.tag} (each run.json records its own)\n`,
    );
  }

  // The evals that name an environment get its image (evalrig's layers over it).
  const environments = await build('the environment images', (engine) =>
    ensureEvalEnvironments(engine, evalSet, plannedEvals, { baseImage: options.baseImage, log }),
  );

  // Each service's image, once per campaign (found by its content when unchanged).
  const services = await build('the service images', (engine) =>
    ensureEvalServices(engine, evalSet, plannedEvals, { baseImage: options.baseImage, log }),
  );
  const serviceImages = [...services.values()].flat().map((s) => s.image);
  // Every image a run starts from must be runnable where it runs (locally: there, the same id).
  const runImages = new Map(
    [image, ...environments.images.values(), ...serviceImages].map((i) => [i.tag, i.id]),
  );
  for (const [tag, id] of runImages) await builder.place({ tag, id });
  return { image, environments, services };
}
