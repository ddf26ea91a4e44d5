/**
 * The `conditions` phase of a campaign: conditions.json, what every run of
 * the campaign shares (eval set, conditions and what they stage, evals,
 * images, engines, agent, options), written before any run plays.
 */
import { createHash } from 'node:crypto';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { evalrigVersion as version, type ConditionsFile } from '../../artifacts/index.js';
import { writeConditions as writeConditionsFile } from '../../campaign-folder/index.js';
import { provenanceOf } from '../../source/index.js';
import type { CampaignOptions } from '../options.js';
import type { CampaignImages } from './images.js';
import type { ResolvedCampaign } from './resolve.js';
import type { CampaignSetup } from './setup.js';

/**
 * sha256 of a staged path: of the file's bytes, or for a folder of every file's
 * relative path and bytes in sorted order, so a change anywhere in a staged
 * skill folder shows in conditions.json.
 */
async function stagedDigest(from: string): Promise<string> {
  const h = createHash('sha256');
  if ((await stat(from)).isFile()) {
    h.update(await readFile(from));
    return h.digest('hex');
  }
  const entries = await readdir(from, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(from, path.join(e.parentPath ?? e.path, e.name)))
    .sort();
  for (const rel of files) {
    h.update(`${rel}\0`);
    h.update(await readFile(path.join(from, rel)));
    h.update('\0');
  }
  return h.digest('hex');
}

export async function writeConditions(
  outDir: string,
  options: CampaignOptions,
  resolved: ResolvedCampaign,
  images: CampaignImages,
  setup: CampaignSetup,
  campaign: string,
): Promise<ConditionsFile> {
  const { evalSet, previous, jobs } = resolved;
  const { image, environments } = images;
  const { codebases, agents, engineRecords } = setup;
  // One agent: conditions.json's `agent`, as ever. Several (a cross-agent campaign): each condition's.
  const distinct = new Set(agents?.values());
  const single = distinct.size === 1 ? [...distinct][0] : undefined;
  const conditions: ConditionsFile = {
    schema: 'evalrig/conditions@1',
    campaign,
    eval_set: { name: evalSet.name, path: evalSet.file, sha256: evalSet.sha256 },
    baseline_condition: evalSet.baseline_condition,
    conditions: await Promise.all(
      evalSet.conditions.map(async (c) => ({
        name: c.name,
        ...(c.description === undefined ? {} : { description: c.description }),
        stage: await Promise.all(
          c.stage.map(async (s) => ({
            from: path.relative(evalSet.dir, s.from),
            to: s.to,
            sha256: await stagedDigest(s.from),
          })),
        ),
        env: Object.keys(c.env).sort(),
        agent_args: [...c.agent_args],
        ...(distinct.size > 1 && agents?.get(c.name)
          ? { agent: agents.get(c.name)!.identity }
          : {}),
        // So that the report compares each agent of a matrix with its own baseline.
        ...(c.matrix === undefined ? {} : { matrix: { ...c.matrix } }),
      })),
    ),
    evals: evalSet.evals.map((e) => {
      const cb = codebases.get(e.id);
      return {
        id: e.id,
        runs: options.runs ?? e.runs,
        turns: 1 + e.turns.length,
        ...(cb ? { codebase: provenanceOf(cb.resolved) } : {}),
        prompt: e.prompt,
        messages: e.turns.map((t) => ({ message: t.message, phase: t.phase })),
        ...(e.expectations.length > 0 ? { expectations: e.expectations } : {}),
        message_checks: e.message_checks.map((c) => c.name),
        checks: e.checks.map((c) => c.name),
        // Where the viewer reads it, host-side, beside a run's diff.
        ...(e.reference ? { reference: path.relative(evalSet.dir, e.reference) } : {}),
      };
    }),
    ...(evalSet.step_checks.length > 0
      ? { step_checks: evalSet.step_checks.map((c) => ({ ...c })) }
      : {}),
    image: environments.record({ tag: image.tag, id: image.id }),
    ...(engineRecords.size > 0 ? { engines: [...engineRecords.values()] } : {}),
    stand_in_sha256: image.standInSha256,
    ...(single ? { agent: single.identity } : {}),
    evalrig_version: version,
    created_at: previous?.created_at ?? new Date().toISOString(),
    options: {
      jobs,
      stop_at_hand_over: Boolean(options.stopAtHandOver),
      ...(options.only ? { only: [...options.only] } : {}),
      ...(options.conditions ? { conditions: [...options.conditions] } : {}),
    },
  };
  await writeConditionsFile(outDir, conditions);
  return conditions;
}
