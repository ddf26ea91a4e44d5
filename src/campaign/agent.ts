import {
  CLAUDE_CODE_BIN,
  CLAUDE_CODE_PACKAGE,
  ensureAgentInstalled,
  preflightClaudeCode,
  type AgentInstall,
  type TurnSummary,
} from '../agents/index.js';
import type {
  AgentIdentity,
  RunAgentRecord,
  StopRecord,
  TurnAgentRecord,
} from '../artifacts/index.js';
import type { EvalSet } from '../config/index.js';
import { InputError } from '../errors/index.js';
import type { ModelSource } from '../gateway/index.js';
import { loadModelScript, type ModelScript } from '../model-stand-in/index.js';
import { LABELS, type DockerClient } from '../runtime/index.js';
import type { PlannedRun } from './plan.js';

/** A campaign's adapter agent: installed, answering in every image, and each run's model. */
export interface CampaignAgent {
  readonly install: AgentInstall;
  readonly identity: AgentIdentity;
  /** Where a run's model calls go: its condition's script, else its eval's, else agent.model. */
  sourceFor(planned: PlannedRun): ModelSource;
}

/**
 * For a `claude-code` eval set: installs the agent's exact version into the cache (once),
 * loads the model scripts the planned runs play, reads the real API's key from the host, and
 * asks the binary `--version` in every image the runs use. Any failure refuses the campaign
 * before anything is played. A command agent needs none of it: undefined.
 */
export async function prepareCampaignAgent(options: {
  readonly client: DockerClient;
  readonly evalSet: EvalSet;
  readonly planned: readonly PlannedRun[];
  readonly images: readonly string[];
  readonly campaign: string;
}): Promise<CampaignAgent | undefined> {
  const { evalSet } = options;
  if (evalSet.agent.type !== 'claude-code') return undefined;
  const sourceFor = await modelSources(evalSet, options.planned);
  const install = await ensureAgentInstalled({
    package: CLAUDE_CODE_PACKAGE,
    version: evalSet.agent.version!,
    bin: CLAUDE_CODE_BIN,
  });
  for (const image of new Set(options.images)) {
    await preflightClaudeCode(options.client, {
      image,
      install,
      labels: { [LABELS.campaign]: options.campaign },
    });
  }
  return {
    install,
    identity: { package: install.package, version: install.version, binary_sha256: install.sha256 },
    sourceFor,
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
    const file = scriptOf(evalSet, p);
    if (file !== undefined && !scripts.has(file)) scripts.set(file, await loadModelScript(file));
  }
  const upstream = upstreamOf(evalSet, planned);
  return (run) => {
    const file = scriptOf(evalSet, run);
    const script = file === undefined ? undefined : scripts.get(file);
    if (script) return { script };
    if (upstream && file === undefined) return upstream;
    // The eval set's checks and the plan make this unreachable; a clear message if it is not.
    throw new InputError(
      `${evalSet.file}: eval ${run.eval.id} (condition ${run.condition.name}) has no model: give agent.model or a model_script`,
    );
  };
}

/** The run's model script: its condition's, else its eval's, else agent.model's. */
function scriptOf(evalSet: EvalSet, planned: PlannedRun): string | undefined {
  const model = evalSet.agent.model;
  return (
    planned.condition.model_script ??
    planned.eval.model_script ??
    (model && 'script' in model ? model.script : undefined)
  );
}

/**
 * The real API some planned runs call (agent.model.url), with its key read from the host
 * now: an unset variable refuses the campaign before anything is created.
 */
export function upstreamOf(
  evalSet: EvalSet,
  planned: readonly PlannedRun[],
): ModelSource | undefined {
  const model = evalSet.agent.model;
  if (evalSet.agent.type !== 'claude-code' || !model || !('url' in model)) return undefined;
  if (planned.every((p) => scriptOf(evalSet, p) !== undefined)) return undefined;
  const apiKey = process.env[model.key_env];
  if (!apiKey) {
    throw new InputError(
      `${evalSet.file}: /agent/model/key_env: the host variable ${model.key_env} is not set (the API key evalrig's gateway adds on the host; it never enters the container)`,
    );
  }
  return { url: model.url, apiKey, auth: 'x-api-key' };
}

/** A turn's parsed transcript, as the stop keeps it. */
export function turnAgentRecord(summary: TurnSummary, transcript: string): TurnAgentRecord {
  return {
    transcript,
    final_message: summary.finalMessage,
    tool_calls: {
      total: summary.toolCalls.total,
      failed: summary.toolCalls.failed,
      by_name: summary.toolCalls.byName,
    },
    model_requests: summary.modelRequests,
    api_retries: summary.apiRetries,
    tokens: {
      input: summary.tokens.input,
      output: summary.tokens.output,
      cache_read: summary.tokens.cacheRead,
      cache_write: summary.tokens.cacheWrite,
    },
    cost_usd: summary.costUsd,
    error: summary.error,
    complete: summary.complete,
    truncated: summary.truncated,
  };
}

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
