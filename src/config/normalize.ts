/**
 * From the user's eval set (schema-valid and checked) to the form the rest of
 * evalrig uses: every default applied, host paths absolute, memory in bytes.
 */
import path from 'node:path';
import { DEFAULT_MODELS } from './agent-kinds.js';
import { expandMatrix, matrixName } from './matrix.js';
import { parseMemory } from './memory.js';
import { messageChecksOf } from './message-checks.js';
import { normalizeStepChecks } from './step-checks.js';
import { normalizeWorkTreePath } from './paths.js';
import type {
  RawAgent,
  RawCondition,
  RawEnvironment,
  RawEval,
  RawEvalSet,
  RawJudge,
  RawService,
  RawTurn,
} from './raw.js';
import type {
  AgentSpec,
  Condition,
  EnvironmentImageSpec,
  Eval,
  EvalSet,
  JudgeSpec,
  ServiceDef,
  Turn,
} from './types.js';

/** Defaults of what the user may leave out; the schema's `default`s say the same. */
export const DEFAULTS = {
  runs: 1,
  timeout: 1800,
  turn_timeout: 600,
  phase: 'planning',
  memory: '2g',
  disk: '2g',
  cpus: 2,
  pids: 512,
  repo_owner: 'evalrig',
  /** 20 points: the difference below which the report's power warnings stay quiet. */
  min_effect: 0.2,
  condition: 'default',
  /** The model each adapter that names one asks for when the eval set names none (in the price table). */
  model_name: DEFAULT_MODELS,
  agent_install: 'mount',
  judge_model_name: 'stand-in-judge',
  judge_max_diff_bytes: 65536,
  judge_max_transcript_bytes: 32768,
  judge_max_tokens: 4096,
  service_ready_timeout: 60,
  service_memory: '512m',
  service_cpus: 1,
  service_pids: 256,
} as const;

export interface FileFacts {
  /** Absolute path of evals.json. */
  readonly file: string;
  readonly sha256: string;
}

export function normalize(raw: RawEvalSet, facts: FileFacts): EvalSet {
  const dir = path.dirname(facts.file);
  const declared = normalizeConditions(raw.conditions, dir);
  const baseline = raw.baseline_condition ?? declared[0]!.name;
  // The checks leave exactly one of `agent` and `agents`.
  const matrix = raw.agents?.map((a) => normalizeAgent(a, dir));
  const conditions = matrix ? expandMatrix(declared, matrix) : declared;
  return {
    file: facts.file,
    dir,
    sha256: facts.sha256,
    name: raw.name,
    // A matrix's first agent stands for the set where one agent is asked for.
    agent: matrix ? matrix[0]! : normalizeAgent(raw.agent!, dir),
    conditions,
    baseline_condition: matrix ? matrixName(baseline, matrix[0]!.type!) : baseline,
    probes: raw.probes ?? {},
    hand_over: raw.hand_over ?? [],
    resources: {
      memory_bytes: parseMemory(raw.resources?.memory ?? DEFAULTS.memory),
      cpus: raw.resources?.cpus ?? DEFAULTS.cpus,
      pids: raw.resources?.pids ?? DEFAULTS.pids,
      disk_bytes: parseMemory(raw.resources?.disk ?? DEFAULTS.disk),
    },
    repo_owner: raw.repo_owner ?? DEFAULTS.repo_owner,
    // Its defaults are the workspace's, which makes the commit.
    baseline_commit: raw.baseline_commit ?? {},
    limits: { ...raw.limits },
    ...(raw.max_cost_usd === undefined ? {} : { max_cost_usd: raw.max_cost_usd }),
    ...(raw.primary_measure === undefined ? {} : { primary_measure: raw.primary_measure }),
    step_checks: normalizeStepChecks(raw.step_checks),
    min_effect: raw.min_effect ?? DEFAULTS.min_effect,
    rate_limits: { ...raw.rate_limits },
    ...(raw.judge === undefined ? {} : { judge: normalizeJudge(raw.judge, dir) }),
    evals: raw.evals.map((item, i) => normalizeEval(item, i, raw, dir)),
  };
}

/** An agent as evalrig uses it: defaults applied, its model script's path made absolute. */
function normalizeAgent(agent: RawAgent, dir: string): AgentSpec {
  const adapter = agent.type === 'command' ? undefined : agent.type;
  return {
    // Absent means `command`, so that eval sets of before read the same.
    ...(adapter ? { type: adapter } : {}),
    ...(agent.version === undefined ? {} : { version: agent.version }),
    ...(adapter && DEFAULTS.model_name[adapter]
      ? { model_name: agent.model_name ?? DEFAULTS.model_name[adapter] }
      : {}),
    ...(adapter ? { install: agent.install ?? DEFAULTS.agent_install } : {}),
    command: agent.command ?? [],
    resume_command: agent.resume_command ?? agent.command ?? [],
    env: agent.env ?? [],
    ...(agent.model === undefined
      ? {}
      : {
          model:
            'script' in agent.model
              ? { script: path.resolve(dir, agent.model.script) }
              : 'token_env' in agent.model
                ? { url: agent.model.url, token_env: agent.model.token_env }
                : { url: agent.model.url, key_env: agent.model.key_env },
        }),
  };
}

function normalizeConditions(
  declared: Record<string, RawCondition> | undefined,
  dir: string,
): Condition[] {
  const named = Object.entries(declared ?? {});
  if (named.length === 0) {
    return [{ name: DEFAULTS.condition, stage: [], env: {}, agent_args: [] }];
  }
  return named.map(([name, c]) => ({
    name,
    ...(c.description === undefined ? {} : { description: c.description }),
    stage: Object.entries(c.stage ?? {}).map(([from, to]) => ({
      from: path.resolve(dir, from),
      to: normalizeWorkTreePath(to),
    })),
    env: c.env ?? {},
    agent_args: c.agent_args ?? [],
    ...(c.model_script === undefined ? {} : { model_script: path.resolve(dir, c.model_script) }),
    ...(c.agent === undefined ? {} : { agent: normalizeAgent(c.agent, dir) }),
  }));
}

function normalizeEval(item: RawEval, index: number, set: RawEvalSet, dir: string): Eval {
  const filesRoot = path.resolve(dir, item.files_root ?? '.');
  const codebase = item.codebase ?? set.codebase;
  const phase = item.phase ?? DEFAULTS.phase;
  const start = item.start;
  const environment = item.environment ?? set.environment;
  const services = Object.entries(item.services ?? set.services ?? {});
  return {
    id: item.id,
    prompt: item.prompt,
    ...(item.expected_output === undefined ? {} : { expected_output: item.expected_output }),
    expectations: item.expectations ?? [],
    files: (item.files ?? []).map((file) => ({
      from: path.resolve(filesRoot, file),
      to: normalizeWorkTreePath(file),
    })),
    ...(codebase === undefined
      ? {}
      : {
          codebase: {
            source: codebase,
            baseDir: dir,
            pointer: item.codebase ? `/evals/${index}/codebase` : '/codebase',
          },
        }),
    runs: item.runs ?? set.runs ?? DEFAULTS.runs,
    phase,
    turns: normalizeTurns(item.turns ?? [], phase),
    ...(start === undefined
      ? {}
      : {
          start: {
            ...(start.branch === undefined ? {} : { branch: start.branch }),
            pull_requests: (start.pull_requests ?? []).map((pr) => ({
              title: pr.title,
              body: pr.body ?? '',
              ...(pr.head === undefined ? {} : { head: pr.head }),
              ...(pr.base === undefined ? {} : { base: pr.base }),
              draft: pr.draft ?? true,
              state: pr.state ?? 'OPEN',
            })),
          },
        }),
    timeout: item.timeout ?? set.timeout ?? DEFAULTS.timeout,
    turn_timeout: item.turn_timeout ?? set.turn_timeout ?? DEFAULTS.turn_timeout,
    checks: item.checks ?? set.checks ?? [],
    check_files: Object.entries(item.check_files ?? {}).map(([from, to]) => ({
      from: path.resolve(dir, from),
      to: normalizeWorkTreePath(to),
    })),
    ...(item.reference === undefined ? {} : { reference: path.resolve(dir, item.reference) }),
    message_checks: messageChecksOf(
      set.builtin_message_checks,
      set.message_checks,
      item.message_checks,
    ),
    ...(environment === undefined ? {} : { environment: normalizeEnvironment(environment, dir) }),
    ...(services.length === 0
      ? {}
      : { services: services.map(([name, raw]) => normalizeService(name, raw, dir)) }),
    ...(item.model_script === undefined
      ? {}
      : { model_script: path.resolve(dir, item.model_script) }),
  };
}

/** Paths made absolute; the context defaults to the Dockerfile's folder. */
function normalizeEnvironment(raw: RawEnvironment, dir: string): EnvironmentImageSpec {
  const dockerfile = path.resolve(dir, raw.dockerfile);
  return {
    dockerfile,
    context: raw.context === undefined ? path.dirname(dockerfile) : path.resolve(dir, raw.context),
    setup: raw.setup ?? [],
  };
}

/** A service with its defaults; a Dockerfile's paths made absolute. */
function normalizeService(name: string, raw: RawService, dir: string): ServiceDef {
  const image =
    raw.dockerfile === undefined
      ? { local: raw.image ?? '' }
      : {
          dockerfile: path.resolve(dir, raw.dockerfile),
          context:
            raw.context === undefined
              ? path.dirname(path.resolve(dir, raw.dockerfile))
              : path.resolve(dir, raw.context),
        };
  return {
    name,
    image,
    ...(raw.command === undefined ? {} : { command: raw.command }),
    env: raw.env ?? {},
    ready: {
      ...(raw.ready.command === undefined ? {} : { command: raw.ready.command }),
      ...(raw.ready.port === undefined ? {} : { port: raw.ready.port }),
      timeout: raw.ready.timeout ?? DEFAULTS.service_ready_timeout,
    },
    resources: {
      memory_bytes: parseMemory(raw.resources?.memory ?? DEFAULTS.service_memory),
      cpus: raw.resources?.cpus ?? DEFAULTS.service_cpus,
      pids: raw.resources?.pids ?? DEFAULTS.service_pids,
    },
    setup: raw.setup ?? [],
  };
}

/** A turn without a phase keeps the previous turn's (the first turn's is the eval's). */
function normalizeTurns(turns: readonly RawTurn[], firstPhase: string): Turn[] {
  let previous = firstPhase;
  return turns.map((turn) => {
    const written = typeof turn === 'string' ? { message: turn } : turn;
    previous = written.phase ?? previous;
    return { message: written.message, phase: previous };
  });
}

/** The judge with its defaults; a script's path made absolute. */
function normalizeJudge(raw: RawJudge, dir: string): JudgeSpec {
  return {
    model:
      'script' in raw.model
        ? { script: path.resolve(dir, raw.model.script) }
        : { url: raw.model.url, key_env: raw.model.key_env },
    api: raw.api ?? 'messages',
    model_name: raw.model_name ?? DEFAULTS.judge_model_name,
    max_diff_bytes: raw.max_diff_bytes ?? DEFAULTS.judge_max_diff_bytes,
    max_transcript_bytes: raw.max_transcript_bytes ?? DEFAULTS.judge_max_transcript_bytes,
    max_tokens: raw.max_tokens ?? DEFAULTS.judge_max_tokens,
    ...(raw.compare === undefined ? {} : { compare: [raw.compare[0], raw.compare[1]] as const }),
  };
}
