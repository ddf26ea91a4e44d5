/**
 * The environments of a campaign: for every eval that names one, its
 * environment image (the eval set's Dockerfile over the base image) with
 * evalrig's layers on top, and the output of its setup commands per codebase
 * commit. Evals that share a Dockerfile share the image; evals that share a
 * commit and an image share the setup.
 */
import path from 'node:path';
import type {
  CampaignImageRecord,
  EnvironmentProvenance,
  ImageRecord,
} from '../artifacts/index.js';
import type { Eval, EvalSet } from '../config/index.js';
import {
  ensureEnvironmentImage,
  ensureSetupOutput,
  ensureTestImage,
  type SetupOutput,
} from '../image/index.js';
import { LABELS, type DockerClient, type SandboxProvider } from '../sandbox/index.js';
import { cacheRoot, type ResolvedCodebase } from '../source/index.js';
import { CONTAINER } from './layout.js';
import { setupRunnerOf } from './setup-runner.js';

/** What the evals that name an environment run in. */
export interface EvalEnvironments {
  /** Per eval id: the image its containers start from, with the environment's provenance. */
  readonly images: ReadonlyMap<string, ImageRecord>;
  /** The campaign-level record: `base` with every environment image listed. */
  readonly record: (base: { tag: string; id: string }) => CampaignImageRecord;
}

export interface EnvironmentOptions {
  readonly baseImage?: string;
  readonly log: NodeJS.WritableStream;
}

function groupKey(e: Eval): string {
  return `${e.environment!.dockerfile}\0${e.environment!.context}\0${JSON.stringify(e.environment!.setup)}`;
}

/**
 * Builds (or finds) the image of every eval that names an environment: the
 * environment image, then the test image over it.
 */
export async function ensureEvalEnvironments(
  client: DockerClient,
  evalSet: EvalSet,
  evals: readonly Eval[],
  options: EnvironmentOptions,
): Promise<EvalEnvironments> {
  const groups = new Map<string, Eval[]>();
  for (const e of evals) {
    if (!e.environment) continue;
    const key = groupKey(e);
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  const images = new Map<string, ImageRecord>();
  const listed: NonNullable<CampaignImageRecord['environments']>[number][] = [];
  for (const members of groups.values()) {
    const spec = members[0]!.environment!;
    const shown = path.relative(evalSet.dir, spec.dockerfile);
    const env = await ensureEnvironmentImage(client, {
      dockerfile: spec.dockerfile,
      context: spec.context,
      baseImage: options.baseImage,
      onProgress: (line) => options.log.write(`environment: ${line}\n`),
    });
    if (env.built) {
      options.log.write(
        `evalrig: built environment image ${env.tag} from ${shown} in ${(env.buildMs / 1000).toFixed(1)} s\n`,
      );
    }
    const image = await ensureTestImage(client, {
      baseImage: env.tag,
      onProgress: (line) => options.log.write(`image: ${line}\n`),
    });
    if (image.built) options.log.write(`evalrig: built test image ${image.tag} over ${env.tag}\n`);
    const environment: EnvironmentProvenance = {
      dockerfile: shown,
      context: path.relative(evalSet.dir, spec.context) || '.',
      hash: env.hash,
      tag: env.tag,
      id: env.id,
      base_image: env.baseImage,
      base_id: env.baseId,
      setup: [...spec.setup],
    };
    for (const e of members) images.set(e.id, { tag: image.tag, id: image.id, environment });
    listed.push({
      evals: members.map((e) => e.id),
      image: { tag: image.tag, id: image.id },
      environment,
    });
  }
  return {
    images,
    record: (base) => ({ ...base, ...(listed.length > 0 ? { environments: listed } : {}) }),
  };
}

export interface SetupOptions {
  /** Where the setups run (the first engine, as the runs' sandboxes start). */
  readonly sandboxes: SandboxProvider;
  readonly evalSet: EvalSet;
  readonly evals: readonly Eval[];
  readonly images: ReadonlyMap<string, ImageRecord>;
  readonly codebases: ReadonlyMap<string, { resolved: ResolvedCodebase; cachePath: string }>;
  /** Where each eval's work tree is in its containers. */
  readonly containerWorkTree: (e: Eval) => string;
  readonly cacheDir?: string;
  readonly campaign: string;
  readonly log: NodeJS.WritableStream;
}

/**
 * Runs the setup of every eval that has one and a codebase, once per (commit,
 * image, commands, path): the outputs per eval id.
 */
export async function ensureSetups(options: SetupOptions): Promise<Map<string, SetupOutput>> {
  const asRoot = process.getuid?.() === 0;
  const user = asRoot ? '1000:1000' : `${process.getuid?.()}:${process.getgid?.()}`;
  const home = asRoot ? CONTAINER.home : '/tmp/evalrig-home';
  const cacheDir = path.join(cacheRoot({ cacheDir: options.cacheDir }), 'setup');
  const byKey = new Map<string, Promise<SetupOutput>>();
  const outputs = new Map<string, SetupOutput>();
  // One after another: a setup may use much of the machine (a build, a compile).
  for (const e of options.evals) {
    const setup = e.environment?.setup ?? [];
    const codebase = options.codebases.get(e.id);
    const image = options.images.get(e.id);
    if (setup.length === 0 || !codebase || !image) continue;
    const containerWorkTree = options.containerWorkTree(e);
    const key = JSON.stringify([codebase.resolved.commit, image.id, setup, containerWorkTree]);
    let pending = byKey.get(key);
    if (!pending) {
      pending = ensureSetupOutput({
        runner: setupRunnerOf(options.sandboxes),
        image: image.tag,
        imageId: image.id,
        commands: setup,
        commit: codebase.resolved.commit,
        cachePath: codebase.cachePath,
        containerWorkTree,
        cacheDir,
        user,
        home,
        limits: {
          memoryBytes: options.evalSet.resources.memory_bytes,
          cpus: options.evalSet.resources.cpus,
          pids: options.evalSet.resources.pids,
        },
        timeoutMs: e.timeout * 1000,
        labels: { [LABELS.campaign]: options.campaign },
        onProgress: (line) => options.log.write(`setup: ${line}\n`),
      });
      byKey.set(key, pending);
    }
    const output = await pending;
    if (output.ran) {
      options.log.write(
        `evalrig: ran the setup of ${e.id} on ${codebase.resolved.commit.slice(0, 12)} in ${(output.setupMs / 1000).toFixed(1)} s (${output.entries.length} path(s) kept)\n`,
      );
    }
    outputs.set(e.id, output);
  }
  return outputs;
}
