/**
 * A run's inputs, each hashed under its key (fingerprint.ts names them): everything that
 * changes what a run does, and nothing that only changes how fast it goes (jobs, engines,
 * rate limits) or what is done with it after (the judge, the expectations). Host paths are no
 * input: a file is its content, an image its id.
 */
import type { ImageRecord } from '../../artifacts/index.js';
import { evalrigVersion } from '../../artifacts/index.js';
import { agentOf, isAdapterAgent, type EvalSet, type ServiceDef } from '../../config/index.js';
import type { SetupOutput } from '../../image/index.js';
import type { ResolvedCodebase } from '../../source/index.js';
import { modelScriptOf, type CampaignAgent, type CampaignAgents } from '../agent.js';
import type { PlannedRun } from '../plan.js';
import { repositoryName } from '../run/context.js';
import type { EvalServices, ReadyService } from '../services.js';
import { FILE_INPUT, hashValue, type FingerprintInputs } from './fingerprint.js';

/** What a campaign knows of its runs' inputs once its images are built and its agent ready. */
export interface InputSources {
  readonly evalSet: EvalSet;
  readonly stopAtHandOver: boolean;
  /** `--timeout`: overrides every eval's run timeout. */
  readonly timeoutS?: number;
  /** The test image, and the sha256 of the stand-ins built into it. */
  readonly image: {
    readonly tag: string;
    readonly id: string;
    readonly standInSha256: string;
    readonly agentSha256: string;
  };
  /** Per eval id naming an environment: the image its runs start from. */
  readonly images: ReadonlyMap<string, ImageRecord>;
  readonly services: EvalServices;
  readonly setups: ReadonlyMap<string, SetupOutput>;
  readonly codebases: ReadonlyMap<string, { readonly resolved: ResolvedCodebase }>;
  readonly agents?: CampaignAgents;
  /** The agent's user in the sandboxes (`uid:gid`). */
  readonly agentUser: string;
  /** The files: what each condition stages and each eval places, by name; the folder's others. */
  readonly files: FileSources;
}

/** The campaign's file inputs, each already hashed (files.ts). */
export interface FileSources {
  /** Per condition name: its staged files (`stage:<path>`). */
  readonly staged: ReadonlyMap<string, Readonly<Record<string, string>>>;
  /** Per eval id: the files it places (`file:<path>`). */
  readonly overlays: ReadonlyMap<string, Readonly<Record<string, string>>>;
  /** The eval set folder's other files, by their path there. */
  readonly folder: Readonly<Record<string, string>>;
  /** Each model script's sha256, by its host path. */
  readonly scripts: ReadonlyMap<string, string>;
}

/** The inputs of one planned run, each hashed. */
export function runInputs(sources: InputSources, planned: PlannedRun): FingerprintInputs {
  const { evalSet, files } = sources;
  const e = planned.eval;
  const c = planned.condition;
  const spec = agentOf(evalSet, c);
  const runImage = sources.images.get(e.id) ?? { tag: sources.image.tag, id: sources.image.id };
  const codebase = sources.codebases.get(e.id)?.resolved;
  const inputs: Record<string, string> = {
    run: hashValue(planned.run),
    'eval.id': hashValue(e.id),
    'eval.prompt': hashValue(e.prompt),
    'eval.messages': hashValue({ phase: e.phase, turns: e.turns }),
    'eval.start': hashValue(e.start ?? null),
    'eval.timeouts': hashValue({ run: sources.timeoutS ?? e.timeout, turn: e.turn_timeout }),
    'eval.checks': hashValue(e.checks),
    'eval.message_checks': hashValue(e.message_checks),
    codebase: hashValue({
      kind: codebase?.kind ?? null,
      commit: codebase?.commit ?? null,
      branch: codebase?.branch ?? null,
      repository: repositoryName(evalSet, codebase),
    }),
    'condition.env': hashValue(c.env),
    'condition.agent_args': hashValue(c.agent_args),
    'agent.command': hashValue({
      type: spec.type ?? 'command',
      command: spec.command,
      resume_command: spec.resume_command,
      env: spec.env,
    }),
    'agent.user': hashValue(sources.agentUser),
    'image.test': hashValue(runImage.id),
    'stand_in.gh': hashValue(sources.image.standInSha256),
    'stand_in.agent': hashValue(sources.image.agentSha256),
    'set.probes': hashValue(evalSet.probes),
    'set.hand_over': hashValue(evalSet.hand_over),
    'set.resources': hashValue(evalSet.resources),
    'set.repo_owner': hashValue(evalSet.repo_owner),
    'set.baseline_commit': hashValue(evalSet.baseline_commit),
    'set.limits': hashValue(evalSet.limits),
    'option.stop_at_hand_over': hashValue(sources.stopAtHandOver),
    'evalrig.version': hashValue(evalrigVersion),
    ...files.staged.get(c.name),
    ...files.overlays.get(e.id),
    ...Object.fromEntries(
      Object.entries(files.folder).map(([rel, hash]) => [`${FILE_INPUT.folder}${rel}`, hash]),
    ),
    ...environmentInputs(runImage, sources.setups.get(e.id)),
    ...servicesInputs(sources.services.get(e.id) ?? []),
    ...agentInputs(sources.agents?.get(c.name), runImage.tag),
  };
  const script = modelScriptOf(evalSet, planned);
  const scriptHash = script === undefined ? undefined : files.scripts.get(script);
  if (scriptHash !== undefined) inputs['model.script'] = scriptHash;
  else if (isAdapterAgent(spec) && spec.model && 'url' in spec.model)
    inputs['model.api'] = hashValue({
      url: spec.model.url,
      auth: 'token_env' in spec.model ? 'oauth' : 'key',
      model: spec.model_name ?? null,
    });
  return inputs;
}

/** The environment image a run starts over, and the setup its work tree starts with. */
function environmentInputs(
  runImage: ImageRecord,
  setup: SetupOutput | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  const env = runImage.environment;
  if (env)
    out['image.environment'] = hashValue({
      hash: env.hash,
      id: env.id,
      base_id: env.base_id,
      setup: env.setup,
    });
  if (setup) out['image.setup'] = hashValue({ key: setup.key, entries: setup.entries });
  return out;
}

/** The services beside a run: their definitions (an image by what it is, not where) and images. */
function servicesInputs(services: readonly ReadyService[]): Record<string, string> {
  if (services.length === 0) return {};
  const def = (d: ServiceDef) => ({
    name: d.name,
    image: 'local' in d.image ? { local: d.image.local } : 'built',
    command: d.command ?? null,
    env: d.env,
    ready: d.ready,
    resources: d.resources,
    setup: d.setup,
  });
  return {
    services: hashValue(services.map((s) => def(s.def))),
    'image.services': hashValue(services.map((s) => ({ name: s.def.name, id: s.image.id }))),
  };
}

/** An adapter agent's identity in a run of `runImage`, part by part. */
function agentInputs(agent: CampaignAgent | undefined, runImage: string): Record<string, string> {
  if (!agent) return {};
  const id = agent.runIdentity(runImage);
  return {
    'agent.package': hashValue({ package: id.package, version: id.version }),
    'agent.binary': id.binary_sha256,
    ...(id.relay_sha256 === undefined ? {} : { 'agent.relay': id.relay_sha256 }),
    ...(id.runtime === undefined ? {} : { 'agent.runtime': id.runtime.sha256 }),
    ...(id.model === undefined ? {} : { 'agent.model': hashValue(id.model) }),
    'agent.install': hashValue({
      install: id.install ?? 'mount',
      images: (id.images ?? []).map((i) => i.id),
    }),
  };
}
