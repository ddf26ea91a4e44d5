import { access, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  AGENT_ADAPTERS,
  PRICE_TABLE_VERSION,
  adapterShares,
  claimDisagreements,
  priceModelCall,
  agentFiles,
  ensureAgentInstalled,
  ensureNodeRuntime,
  ensureSettingsFile,
  NODE_RUNTIME,
  nodeRuntimeInstall,
  preflightAdapter,
  type AgentSupport,
  type AgentAdapter,
  type AgentFile,
  type AgentInstall,
  type TurnSession,
  type TurnSummary,
} from '../agents/index.js';
import type {
  AgentIdentity,
  AgentImageRecord,
  AgentRuntimeIdentity,
  RunAgentRecord,
  StopRecord,
  TurnAgentRecord,
} from '../artifacts/index.js';
import {
  agentOf,
  agentPointer,
  isAdapterAgent,
  type AdapterAgentType,
  type AgentSpec,
  type EvalSet,
} from '../config/index.js';
import { InputError } from '../errors/index.js';
import type { CallPricer, WitnessedTurn } from '../flight/index.js';
import type { ModelSource } from '../gateway/index.js';
import { ContextFileMissingError, ensureAgentImage, projectRoot, sha256 } from '../image/index.js';
import { loadModelScript, type ModelScript } from '../model-stand-in/index.js';
import { stagedInstructions, type StagedInstruction } from '../treatment/index.js';
import { LABELS, type SandboxProvider, type SandboxSpec } from '../sandbox/index.js';
import type { PlannedRun } from './plan.js';
import { builderOf } from './engine-setup.js';

/** A campaign's adapter agent: installed, answering in every image, and each run's model. */
export interface CampaignAgent {
  readonly adapter: AgentAdapter;
  readonly install: AgentInstall;
  /** conditions.json's agent: the package, version, binary, model and derived images. */
  readonly identity: AgentIdentity;
  /** Where a run's model calls go: its condition's script, else its eval's, else agent.model. */
  sourceFor(planned: PlannedRun): ModelSource;
  /** The image a run of `runImage` starts from: the derived one with install `image`. */
  imageFor(runImage: string): string;
  /** What a run's sandbox shares: the gateway's socket, and the agent's files unless built into its image. */
  shares(gatewayDir: string): Required<Pick<SandboxSpec, 'files' | 'sockets'>>;
  /** One run's session (the condition's agent_args appended to every turn). */
  session(planned: PlannedRun): TurnSession;
  /** run.json's identity for a run of `runImage` (its derived image alone). */
  runIdentity(runImage: string): AgentIdentity;
}

/** The model relay bundle (Codex reaches the gateway's socket through it). */
export function relayBundle(root: string = projectRoot()): string {
  return path.join(root, 'dist', 'stand-in', 'model-relay', 'model-relay');
}

/** A campaign's adapter agents by condition name: one per condition its runs play. */
export type CampaignAgents = ReadonlyMap<string, CampaignAgent>;

/** What preparing a campaign's agents needs. */
export interface AgentPreparation {
  /** Where agent images are built (and shipped to each engine) and the agent is asked its version, as a run starts it. */
  readonly sandboxes: SandboxProvider;
  readonly evalSet: EvalSet;
  readonly planned: readonly PlannedRun[];
  readonly images: readonly string[];
  readonly campaign: string;
  readonly log?: NodeJS.WritableStream;
}

/**
 * For an adapter eval set: each distinct agent the planned runs play (the set's, or a
 * condition's own in a cross-agent campaign) prepared once, by condition name. A command
 * agent needs none of it: undefined.
 */
export async function prepareCampaignAgents(
  options: AgentPreparation,
): Promise<CampaignAgents | undefined> {
  const { evalSet, planned } = options;
  if (!isAdapterAgent(evalSet.agent)) return undefined;
  const sourceFor = await modelSources(evalSet, planned);
  const prepared = new Map<string, CampaignAgent>();
  const out = new Map<string, CampaignAgent>();
  for (const c of evalSet.conditions) {
    if (!planned.some((p) => p.condition.name === c.name)) continue;
    const spec = agentOf(evalSet, c);
    // The eval set's checks keep command agents out of conditions (all adapters or none).
    if (!isAdapterAgent(spec)) continue;
    const key = JSON.stringify([spec.type, spec.version, spec.install, spec.model_name]);
    let agent = prepared.get(key);
    if (!agent) {
      const at = agentPointer(evalSet.conditions, c);
      agent = await prepareCampaignAgent({ ...options, spec, at, sourceFor });
      prepared.set(key, agent);
    }
    out.set(c.name, agent);
  }
  return out;
}

/** The agent of a planned run, when its campaign plays adapter agents. */
export function agentFor(
  agents: CampaignAgents | undefined,
  planned: Pick<PlannedRun, 'condition'>,
): CampaignAgent | undefined {
  return agents?.get(planned.condition.name);
}

/**
 * One adapter agent (`spec`, written at JSON pointer `at`): installs its exact version into
 * the cache (once), builds the derived images with install `image`, and asks the agent its
 * version in every image the runs use, as a run starts it. Any failure refuses the campaign
 * before anything is played.
 */
async function prepareCampaignAgent(
  options: AgentPreparation & {
    readonly spec: AgentSpec & { readonly type: AdapterAgentType };
    readonly at: string;
    readonly sourceFor: (planned: PlannedRun) => ModelSource;
  },
): Promise<CampaignAgent> {
  const { evalSet, spec } = options;
  const type = spec.type;
  const adapter = AGENT_ADAPTERS[type];
  const install = await ensureAgentInstalled(adapter.install(spec.version!));
  const inImage = spec.install === 'image';
  if (inImage && (adapter.packageDir || adapter.unpacked)) {
    throw new InputError(
      `${evalSet.file}: ${options.at}/install: "image" is not played for a ${type} agent yet (its package is a folder): use "mount"`,
    );
  }
  const support = await supportOf(adapter, install);
  const files = agentFiles(adapter, install, await relayOf(adapter), support);
  const labels = { [LABELS.campaign]: options.campaign };
  const derived = new Map<string, AgentImageRecord>();
  const digested = await Promise.all(
    files.map(async (f) => ({ ...f, sha256: await digestOf(f, install, adapter) })),
  );
  const relaySha256 = digested.find((f) => f.container === adapter.containerRelay)?.sha256;
  const runtime = runtimeOf(digested);
  for (const image of new Set(options.images)) {
    let runImage = image;
    if (inImage) {
      const builder = builderOf(options.sandboxes);
      const built = await builder.build('the agent image', (engine) =>
        ensureAgentImage(engine, {
          baseImage: image,
          package: install.package,
          version: install.version,
          files: digested,
          onProgress: (line) => options.log?.write(`agent image: ${line}\n`),
        }),
      );
      if (built.built)
        options.log?.write(`evalrig: built agent image ${built.tag} from ${image}\n`);
      // Runnable on every engine its runs (and the preflight below) may start on.
      await builder.place({ tag: built.tag, id: built.id });
      derived.set(image, { base: image, base_id: built.base.id, tag: built.tag, id: built.id });
      runImage = built.tag;
    }
    await preflightAdapter(options.sandboxes, adapter, inImage ? [] : files, {
      image: runImage,
      install,
      labels,
    });
  }
  return campaignAgent({
    adapter,
    install,
    files,
    sourceFor: options.sourceFor,
    ...(spec.model_name === undefined ? {} : { model: spec.model_name }),
    ...(relaySha256 === undefined ? {} : { relaySha256 }),
    ...(runtime === undefined ? {} : { runtime }),
    ...(inImage ? { derived } : {}),
  });
}

/** The Node runtime among a run's files (a Node-bundled agent's), named for provenance. */
function runtimeOf(
  files: ReadonlyArray<AgentFile & { readonly sha256: string }>,
): AgentRuntimeIdentity | undefined {
  const node = files.find((f) => f.container === NODE_RUNTIME.container);
  if (!node) return undefined;
  const { package: pkg, version } = nodeRuntimeInstall();
  return { package: pkg, version, sha256: node.sha256 };
}

/**
 * The campaign's agent from its parts: `derived` (run image → its derived image) with install
 * `image`, absent when the files are mounted.
 */
export function campaignAgent(parts: {
  readonly adapter: AgentAdapter;
  readonly install: AgentInstall;
  readonly files: readonly AgentFile[];
  readonly sourceFor: (planned: PlannedRun) => ModelSource;
  readonly model?: string;
  /** sha256 of the model relay among `files`, when the adapter has one. */
  readonly relaySha256?: string;
  /** The Node runtime among `files`, when the agent runs on it. */
  readonly runtime?: AgentRuntimeIdentity;
  readonly derived?: ReadonlyMap<string, AgentImageRecord>;
}): CampaignAgent {
  const { adapter, install, model, derived } = parts;
  const identity: AgentIdentity = {
    package: install.package,
    version: install.version,
    binary_sha256: install.sha256,
    ...(parts.relaySha256 === undefined ? {} : { relay_sha256: parts.relaySha256 }),
    ...(model === undefined ? {} : { model }),
    ...(parts.runtime === undefined ? {} : { runtime: parts.runtime }),
    install: derived ? 'image' : 'mount',
    ...(derived ? { images: [...derived.values()] } : {}),
  };
  return {
    adapter,
    install,
    identity,
    sourceFor: parts.sourceFor,
    imageFor: (runImage) => derived?.get(runImage)?.tag ?? runImage,
    shares: (gatewayDir) => adapterShares(adapter, derived ? [] : parts.files, gatewayDir),
    session: (planned) =>
      adapter.newSession({
        ...(model === undefined ? {} : { model }),
        extraArgs: planned.condition.agent_args,
      }),
    runIdentity: (runImage) => {
      if (!derived) return identity;
      const own = derived.get(runImage);
      return { ...identity, images: own ? [own] : [] };
    },
  };
}

/** The relay bundle when the adapter needs one (Codex), read from the project's build. */
async function relayOf(adapter: AgentAdapter): Promise<string | undefined> {
  if (adapter.containerRelay === undefined) return undefined;
  return bundled('model-relay');
}

/** The bundle of stand-in/<name> in the project's build, which must exist. */
async function bundled(name: string): Promise<string> {
  const file = path.join(projectRoot(), 'dist', 'stand-in', name, name);
  await access(file).catch((error: unknown) => {
    throw new ContextFileMissingError(
      file,
      `stand-in/${name} is not bundled: run \`npm run build\` (it bundles stand-in/<name>/main.ts)`,
      error,
    );
  });
  return file;
}

/**
 * A file's sha256: the install's for its binary (a Node agent's package folder: its entry
 * bundle's; a folder unpacked from the binary: the binary's), else read now (the relay, the
 * runtime, a settings file).
 */
async function digestOf(
  file: AgentFile,
  install: AgentInstall,
  adapter: AgentAdapter,
): Promise<string> {
  const ofBinary = [adapter.containerBinary, adapter.unpacked?.container];
  if (file.host === install.binary || ofBinary.includes(file.container)) {
    return install.sha256;
  }
  return sha256(await readFile(file.host));
}

/** The Node runtime, the settings file and the unpacked folder the adapter needs, made on the host. */
async function supportOf(adapter: AgentAdapter, install: AgentInstall): Promise<AgentSupport> {
  return {
    ...(adapter.driver ? { driver: await bundled(adapter.driver.bundle) } : {}),
    ...(adapter.unpacked ? { unpacked: await adapter.unpacked.unpack(install) } : {}),
    ...(adapter.runtime === 'node' ? { node: (await ensureNodeRuntime()).binary } : {}),
    ...(adapter.settings
      ? { settings: await ensureSettingsFile(adapter.type, adapter.settings.content) }
      : {}),
  };
}

/**
 * Each planned run's model source: its condition's script, else its eval's, else agent.model
 * (a script, or the real API with its key read from the host now). Every script is read once.
 */
export async function modelSources(
  evalSet: EvalSet,
  planned: readonly PlannedRun[],
): Promise<(run: PlannedRun) => ModelSource> {
  const scripts = new Map<string, ModelScript>();
  for (const p of planned) {
    const file = modelScriptOf(evalSet, p);
    if (file !== undefined && !scripts.has(file)) scripts.set(file, await loadModelScript(file));
  }
  const upstream = upstreamOf(evalSet, planned);
  return (run) => {
    const file = modelScriptOf(evalSet, run);
    const script = file === undefined ? undefined : scripts.get(file);
    if (script) return { script };
    const real = upstream(agentOf(evalSet, run.condition));
    if (real && file === undefined) return real;
    // The eval set's checks and the plan make this unreachable; a clear message if it is not.
    throw new InputError(
      `${evalSet.file}: eval ${run.eval.id} (condition ${run.condition.name}) has no model: give agent.model or a model_script`,
    );
  };
}

/** The run's model script: its condition's, else its eval's, else its agent's model's. */
export function modelScriptOf(
  evalSet: EvalSet,
  planned: Pick<PlannedRun, 'eval' | 'condition'>,
): string | undefined {
  const model = agentOf(evalSet, planned.condition).model;
  return (
    planned.condition.model_script ??
    planned.eval.model_script ??
    (model && 'script' in model ? model.script : undefined)
  );
}

/**
 * The real API each agent some planned runs call (its model.url), with its key (or OAuth
 * token) read from the host now: an unset variable refuses the campaign before anything is
 * created.
 */
export function upstreamOf(
  evalSet: EvalSet,
  planned: readonly PlannedRun[],
): (agent: AgentSpec) => ModelSource | undefined {
  const sources = new Map<AgentSpec, ModelSource>();
  for (const p of planned) {
    const agent = agentOf(evalSet, p.condition);
    const model = agent.model;
    if (!isAdapterAgent(agent) || !model || !('url' in model) || sources.has(agent)) continue;
    if (modelScriptOf(evalSet, p) !== undefined) continue;
    // A subscription's OAuth token (claude-code) or an API key, read the same way.
    const [field, name, what] =
      'token_env' in model
        ? (['token_env', model.token_env, 'OAuth token'] as const)
        : (['key_env', model.key_env, 'API key'] as const);
    const apiKey = process.env[name];
    if (!apiKey) {
      const at = agentPointer(evalSet.conditions, p.condition);
      throw new InputError(
        `${evalSet.file}: ${at}/model/${field}: the host variable ${name} is not set (the ${what} evalrig's gateway adds on the host; it never enters the container)`,
      );
    }
    const auth = field === 'token_env' ? 'oauth' : AGENT_ADAPTERS[agent.type].auth;
    sources.set(agent, { url: model.url, apiKey, auth });
  }
  return (agent) => sources.get(agent);
}

/**
 * A turn as the stop keeps it: the figures the gateway witnessed (what is reported), the
 * stream's own account beside them (its claim), and where the two disagree. `error`,
 * `complete` and `truncated` are the stream's: they say how the agent's process ended.
 */
export function turnAgentRecord(
  n: number,
  summary: TurnSummary,
  transcript: string,
  witness: WitnessedTurn,
): TurnAgentRecord {
  const w = witness;
  // The Responses API marks no tool result as an error: there the stream's count stands.
  const failed = w.toolCalls.failed ?? Math.min(summary.toolCalls.failed, w.toolCalls.total);
  return {
    transcript,
    final_message: w.finalMessage,
    tool_calls: {
      total: w.toolCalls.total,
      failed,
      refused: w.toolCalls.refused,
      by_name: w.toolCalls.byName,
    },
    model_requests: w.modelRequests,
    api_retries: w.retries,
    tokens: {
      input: w.tokens.input,
      output: w.tokens.output,
      cache_read: w.tokens.cacheRead,
      cache_write: w.tokens.cacheWrite,
    },
    cost_usd: w.costUsd,
    error: summary.error,
    complete: summary.complete,
    truncated: summary.truncated,
    witness: {
      by: 'gateway',
      calls: w.calls,
      tokens_unreported: w.unreported,
      price_table: PRICE_TABLE_VERSION,
    },
    claim: {
      final_message: summary.finalMessage,
      model_requests: summary.modelRequests,
      tool_calls: summary.toolCalls.total,
      tool_calls_failed: summary.toolCalls.failed,
      tokens: {
        input: summary.tokens.input,
        output: summary.tokens.output,
        cache_read: summary.tokens.cacheRead,
        cache_write: summary.tokens.cacheWrite,
      },
      cost_usd: summary.costUsd,
      disagreements: claimDisagreements(n, summary, w),
    },
  };
}

/**
 * What each condition stages that its adapter agent should load, by condition name (none
 * for a command agent, whose model calls no gateway witnesses).
 */
export async function treatmentsOf(
  evalSet: EvalSet,
): Promise<ReadonlyMap<string, readonly StagedInstruction[]>> {
  const out = new Map<string, readonly StagedInstruction[]>();
  for (const c of evalSet.conditions) {
    const agent = agentOf(evalSet, c);
    if (!isAdapterAgent(agent)) continue;
    out.set(c.name, await stagedInstructions(c, AGENT_ADAPTERS[agent.type]));
  }
  return out;
}

/**
 * Prices one call on the host, from the versioned price table: its tokens, plus the fees of
 * the server tools its usage counts (a web search is billed per request).
 */
export const priceCall: CallPricer = priceModelCall;

/** run.json's agent: the identity and the sums of every stop's turn. */
export function runAgentRecord(
  identity: AgentIdentity,
  turns: readonly TurnAgentRecord[],
): RunAgentRecord {
  const sum = (f: (t: TurnAgentRecord) => number) => turns.reduce((n, t) => n + f(t), 0);
  const costs = turns.map((t) => t.cost_usd).filter((c): c is number => c !== null);
  return {
    ...identity,
    totals: {
      tool_calls: sum((t) => t.tool_calls.total),
      tool_calls_failed: sum((t) => t.tool_calls.failed),
      tool_calls_refused: sum((t) => t.tool_calls.refused ?? 0),
      model_requests: sum((t) => t.model_requests),
      tokens: {
        input: sum((t) => t.tokens.input),
        output: sum((t) => t.tokens.output),
        cache_read: sum((t) => t.tokens.cache_read),
        cache_write: sum((t) => t.tokens.cache_write),
      },
      cost_usd: costs.length === 0 ? null : costs.reduce((a, b) => a + b, 0),
    },
  };
}

/** The agent records of the stops, in order. */
export function agentTurns(stops: readonly StopRecord[]): TurnAgentRecord[] {
  return stops.flatMap((s) => (s.agent ? [s.agent] : []));
}
