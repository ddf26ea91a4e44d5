import type { RunRecord, StopRecord } from '../artifacts/index.js';
import type { ModelCall } from '../flight/index.js';
import { priceModelCall } from '../agents/index.js';
import type { Cell } from './cells.js';

/** The columns of a stop row (one per turn), in order. */
export const STOP_COLUMNS = [
  'eval',
  'condition',
  'run',
  'turn',
  'phase',
  'at',
  'exit_code',
  'duration_ms',
  'kind',
  'hand_over',
  'branch',
  'head',
  'origin_has_head',
  'pr_number',
  'pr_state',
  'pr_draft',
  'pr_described',
  'pr_title',
  'gh_calls',
  'files_added',
  'files_modified',
  'files_deleted',
  'lines_added',
  'lines_removed',
  'untracked',
  'model_requests',
  'tool_calls',
  'tool_calls_failed',
  'tokens_input',
  'tokens_output',
  'tokens_cache_read',
  'tokens_cache_write',
  'cost_usd',
  'agent_error',
  'final_message',
] as const;

/** The stop columns whose text the agent wrote (its branch, stop kind, pull request, words). */
export const UNTRUSTED_STOP_COLUMNS: ReadonlySet<string> = new Set([
  'kind',
  'branch',
  'head',
  'pr_title',
  'agent_error',
  'final_message',
]);

/** The call columns the agent's request or the model's answer wrote. */
export const UNTRUSTED_CALL_COLUMNS: ReadonlySet<string> = new Set([
  'model',
  'reason',
  'stop_reason',
  'tool_names',
  'answer_id',
  'problem',
]);

/** The columns of a model call row, in order. */
export const CALL_COLUMNS = [
  'eval',
  'condition',
  'run',
  'turn',
  'seq',
  'time',
  'api',
  'model',
  'status',
  'outcome',
  'reason',
  'latency_ms',
  'queued_ms',
  'request_bytes',
  'response_bytes',
  'tokens_input',
  'tokens_output',
  'tokens_cache_read',
  'tokens_cache_write',
  'cost_usd',
  'stop_reason',
  'tool_calls',
  'tool_names',
  'answer_id',
  'problem',
] as const;

const whose = (record: RunRecord) => ({
  eval: record.eval,
  condition: record.condition,
  run: record.run,
});

/** A stop's row: what the host saw at the end of one turn (its repository, pull request, agent). */
export function stopRow(record: RunRecord, stop: StopRecord): Record<string, Cell> {
  const agent = stop.agent;
  return {
    ...whose(record),
    turn: stop.turn,
    phase: stop.phase,
    at: stop.at,
    exit_code: stop.exit_code,
    duration_ms: stop.duration_ms,
    kind: stop.kind,
    hand_over: stop.hand_over,
    branch: stop.branch,
    head: stop.head,
    origin_has_head: stop.origin_has_head,
    pr_number: stop.pull?.number ?? null,
    pr_state: stop.pull?.state ?? null,
    pr_draft: stop.pull?.draft ?? null,
    pr_described: stop.pull?.described ?? null,
    pr_title: stop.pull?.title ?? null,
    gh_calls: stop.calls.length,
    ...stop.diff,
    model_requests: agent?.model_requests ?? null,
    tool_calls: agent?.tool_calls.total ?? null,
    tool_calls_failed: agent?.tool_calls.failed ?? null,
    tokens_input: agent?.tokens.input ?? null,
    tokens_output: agent?.tokens.output ?? null,
    tokens_cache_read: agent?.tokens.cache_read ?? null,
    tokens_cache_write: agent?.tokens.cache_write ?? null,
    cost_usd: agent?.cost_usd ?? null,
    agent_error: agent?.error ?? null,
    final_message: agent ? agent.final_message : (stop.final_message ?? null),
  };
}

/**
 * The turn each call of a run belongs to, by its `seq`: the range the gateway witnessed for
 * each stop (`agent.witness.calls`). A call outside every range (none, for a command agent)
 * has no turn.
 */
export function turnOfCall(stops: readonly StopRecord[]): (seq: number) => number | null {
  const ranges = stops.flatMap((s) => {
    const calls = s.agent?.witness?.calls;
    return calls ? [{ turn: s.turn, ...calls }] : [];
  });
  return (seq) => ranges.find((r) => seq >= r.first && seq <= r.last)?.turn ?? null;
}

/** A model call's row: what the gateway relayed and logged, priced on the host's table. */
export function callRow(
  record: RunRecord,
  call: ModelCall,
  turn: number | null,
): Record<string, Cell> {
  const t = call.tokens;
  const tokens = {
    input: t.input ?? 0,
    output: t.output ?? 0,
    cacheRead: t.cacheRead ?? 0,
    cacheWrite: t.cacheWrite ?? 0,
  };
  return {
    ...whose(record),
    turn,
    seq: call.seq,
    time: call.time,
    api: call.api,
    model: call.model,
    status: call.status,
    outcome: call.outcome,
    reason: call.reason,
    latency_ms: call.latencyMs,
    queued_ms: call.queuedMs ?? null,
    request_bytes: call.requestBytes,
    response_bytes: call.responseBytes,
    tokens_input: t.input,
    tokens_output: t.output,
    tokens_cache_read: t.cacheRead,
    tokens_cache_write: t.cacheWrite,
    cost_usd: call.model === null ? null : priceModelCall(call.model, tokens, call.serverTools),
    stop_reason: call.stopReason,
    tool_calls: call.toolCalls.length,
    tool_names: call.toolCalls.length > 0 ? call.toolCalls.map((c) => c.name).join(' ') : null,
    answer_id: call.answerId,
    problem: call.problem ?? null,
  };
}
