import type { RunRecord } from '../artifacts/index.js';
import { AGENT_KINDS } from '../config/agent-kinds.js';
import type { Cell } from './cells.js';
import { failureOf, leftOut } from '../measure/index.js';

/** The columns every run row has, in order; measures, checks and message checks follow. */
export const RUN_COLUMNS = [
  'eval',
  'condition',
  'run',
  'status',
  'limit',
  'failure_class',
  'measured',
  'phase',
  'error',
  'agent',
  'agent_package',
  'agent_version',
  'model',
  'started_at',
  'finished_at',
  'duration_ms',
  'turns_planned',
  'turns_completed',
  'stopped_at_hand_over',
  'model_requests',
  'tool_calls',
  'tool_calls_failed',
  'tokens_input',
  'tokens_output',
  'tokens_cache_read',
  'tokens_cache_write',
  'cost_usd',
  'codebase_commit',
  'fingerprint',
  'reused_from',
] as const;

/** The run columns whose text the agent or its model may have written (the model it asked for, an error quoting it). */
export const UNTRUSTED_RUN_COLUMNS: ReadonlySet<string> = new Set(['error', 'model']);

/** Prefixes of the columns named after the eval set's checks and message checks. */
export const CHECK_PREFIX = 'check:';
export const MESSAGE_CHECK_PREFIX = 'message_check:';

/** The kind of agent (`claude-code`, …) whose package a run played; `command` for none. */
function agentKind(pkg: string | undefined): string {
  if (pkg === undefined) return 'command';
  const kind = Object.entries(AGENT_KINDS).find(([, facts]) => facts.package === pkg);
  return kind ? kind[0] : pkg;
}

/**
 * A run's row: who played it and how it ended, its figures as the host witnessed them (the
 * agent's totals sum its stops, from the gateway), every measure by its name, each check's
 * pass as `check:<name>` and each message check's as `message_check:<name>`.
 */
export function runRow(record: RunRecord): Record<string, Cell> {
  const totals = record.agent?.totals;
  const row: Record<string, Cell> = {
    eval: record.eval,
    condition: record.condition,
    run: record.run,
    status: record.status,
    limit: record.limit ?? null,
    failure_class: failureOf(record)?.class ?? null,
    // As benchmark.json measures: all but the runs the harness failed or the budget cut.
    measured: !leftOut(record),
    phase: record.phase ?? null,
    error: record.error ?? null,
    agent: agentKind(record.agent?.package),
    agent_package: record.agent?.package ?? null,
    agent_version: record.agent?.version ?? null,
    model: record.agent?.model ?? null,
    started_at: record.started_at,
    finished_at: record.finished_at,
    duration_ms: record.duration_ms,
    turns_planned: record.turns_planned,
    turns_completed: record.turns_completed,
    stopped_at_hand_over: record.stopped_at_hand_over,
    model_requests: totals?.model_requests ?? null,
    tool_calls: totals?.tool_calls ?? null,
    tool_calls_failed: totals?.tool_calls_failed ?? null,
    tokens_input: totals?.tokens.input ?? null,
    tokens_output: totals?.tokens.output ?? null,
    tokens_cache_read: totals?.tokens.cache_read ?? null,
    tokens_cache_write: totals?.tokens.cache_write ?? null,
    // null: a model the price table lacks (or no adapter agent).
    cost_usd: totals?.cost_usd ?? null,
    codebase_commit: record.codebase?.commit ?? null,
    fingerprint: record.fingerprint?.sha256 ?? null,
    reused_from: record.reused_from
      ? `${record.reused_from.folder}/${record.reused_from.run}`
      : null,
  };
  for (const [name, value] of Object.entries(record.measures)) row[name] = value ?? null;
  for (const check of record.checks) row[`${CHECK_PREFIX}${check.name}`] = check.passed;
  for (const m of record.message_checks ?? []) row[`${MESSAGE_CHECK_PREFIX}${m.name}`] = m.passed;
  return row;
}

/**
 * The columns of a set of run rows: the fixed ones, then every other column in the order it
 * was first met (a run's measures as run.json lists them, then its checks).
 */
export function runColumns(rows: readonly Readonly<Record<string, Cell>>[]): string[] {
  const fixed = new Set<string>(RUN_COLUMNS);
  const more = new Set<string>();
  for (const row of rows) for (const key of Object.keys(row)) if (!fixed.has(key)) more.add(key);
  return [...RUN_COLUMNS, ...more];
}
