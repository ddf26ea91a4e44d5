/**
 * Synthetic campaign folders, written as the campaign runner writes them
 * (writeArtifact, so every file matches its schema), with measures computed by
 * the real measureRun. Used by the report tests and the report benchmark.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  writeArtifact,
  type CheckResult,
  type ConditionsFile,
  type DiffCounters,
  type GhCall,
  type RunRecord,
  type RunStatus,
  type StopRecord,
  type TurnAgentRecord,
} from '../../../src/artifacts/index.js';
import { BUILTIN_MESSAGE_CHECKS } from '../../../src/config/index.js';
import { measureRun, runMessageChecks } from '../../../src/measure/index.js';

/** How one synthetic run went. */
export interface RunPlan {
  readonly status: RunStatus;
  /** Stops reached: 0, 1 (planning) or 2 (planning then execution). */
  readonly stops: 0 | 1 | 2;
  readonly draft: boolean;
  readonly described: boolean;
  readonly refreshed: boolean;
  readonly marksReady: boolean;
  readonly notPlayed: number;
  readonly checksPass: boolean | null;
  readonly filesChanged: number;
  readonly durationMs: number;
  /** An adapter agent's totals over the run; absent: a command agent (stdout kept, no record). */
  readonly agent?: AgentPlan;
  /** What the agent says last at every stop (default: the adapter's "turn N done", else "done"). */
  readonly message?: string;
  /** The treatment check the run recorded (run.json's treatment), when its condition staged something. */
  readonly treatment?: RunRecord['treatment'];
  /** The run's check results, in place of the one `tests` check `checksPass` says. */
  readonly checks?: readonly CheckResult[];
  /** Who had control when the run did not complete (run.json's failure). */
  readonly failure?: RunRecord['failure'];
}

/** What an adapter agent spent over a run (run.json's agent.totals). */
export interface AgentPlan {
  readonly tokensIn: number;
  readonly tokensOut: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly costUsd: number | null;
  readonly toolCalls: number;
  readonly toolCallsFailed: number;
  readonly modelRequests: number;
  /** Tool calls the agent itself refused, all in the last turn (absent: a version that did not count them). */
  readonly toolCallsRefused?: number;
  /** The tool those refused calls named (default Bash). */
  readonly refusedTool?: string;
}

export const AGENT_IDENTITY = {
  package: '@example/agent',
  version: '1.2.3',
  binary_sha256: 'b'.repeat(64),
} as const;

export const GOOD_RUN: RunPlan = {
  status: 'completed',
  stops: 2,
  draft: true,
  described: true,
  refreshed: true,
  marksReady: false,
  notPlayed: 0,
  checksPass: true,
  filesChanged: 2,
  durationMs: 30_000,
};

export interface CampaignSpec {
  readonly evals: readonly string[];
  readonly conditions: readonly string[];
  readonly baseline: string;
  readonly runs: number;
  readonly plan: (evalId: string, condition: string, run: number) => RunPlan;
  readonly hostLocal?: boolean;
  readonly stopAtHandOver?: boolean;
  /** The check names conditions.json gives each eval (absent: none, as older versions). */
  readonly checks?: readonly string[];
}

const SHA = 'c'.repeat(40);
const T0 = Date.parse('2025-03-01T10:00:00Z');

function ghCall(seq: number, argv: string[], over: Partial<GhCall> = {}): GhCall {
  return {
    seq,
    time: new Date(T0 + seq * 1000).toISOString(),
    argv,
    cwd: '/home/agent/work',
    command: argv.slice(0, 2).join(' ') as GhCall['command'],
    stdin: null,
    description: null,
    exit_code: 0,
    stdout: '',
    stderr: '',
    played: true,
    marks_ready: false,
    pr: 1,
    ...over,
  };
}

/** Turn `turn` of `turns`' share of the run's agent totals (the last turn takes the rest). */
function turnAgent(a: AgentPlan, turn: number, turns: number): TurnAgentRecord {
  const share = (total: number): number =>
    turn < turns ? Math.floor(total / turns) : total - Math.floor(total / turns) * (turns - 1);
  const toolCalls = share(a.toolCalls);
  const failed = turn === turns ? a.toolCallsFailed : 0;
  const refused = turn === turns ? (a.toolCallsRefused ?? 0) : 0;
  const byName: Record<string, { count: number; failed: number; refused?: number }> =
    toolCalls > 0 ? { Bash: { count: toolCalls, failed } } : {};
  if (refused > 0) byName[a.refusedTool ?? 'Bash'] = { count: refused, failed: 0, refused };
  return {
    transcript: `turns/turn-${String(turn).padStart(2, '0')}.jsonl`,
    final_message: `turn ${turn} done`,
    tool_calls: {
      total: toolCalls,
      failed,
      ...(a.toolCallsRefused !== undefined ? { refused } : {}),
      by_name: byName,
    },
    model_requests: share(a.modelRequests),
    api_retries: 0,
    tokens: {
      input: share(a.tokensIn),
      output: share(a.tokensOut),
      cache_read: share(a.cacheRead),
      cache_write: share(a.cacheWrite),
    },
    cost_usd: a.costUsd === null ? null : a.costUsd / turns,
    error: failed > 0 ? 'a tool call failed' : null,
    complete: true,
    truncated: false,
  };
}

function stopRecord(
  turn: number,
  phase: string,
  kind: string,
  draft: boolean,
  described: boolean,
  calls: GhCall[],
  diff: DiffCounters,
  agent?: TurnAgentRecord,
): StopRecord {
  return {
    ...(agent ? { agent } : {}),
    turn,
    phase,
    exit_code: 0,
    duration_ms: 10_000,
    kind,
    hand_over: true,
    branch: 'feature/x',
    head: SHA,
    origin_has_head: true,
    pull: {
      number: 1,
      url: 'http://gh-stand-in.invalid/acme/toy/pull/1',
      title: 'Plan: x',
      body: described ? 'expected body' : 'old body',
      state: 'OPEN',
      draft,
      described,
    },
    calls,
    diff,
    probes: {
      kind: { command: 'surface-status kind', exit_code: 0, stdout: `${kind}\n`, stderr: '' },
      description: {
        command: 'surface-status pr-body',
        exit_code: 0,
        stdout: 'expected body',
        stderr: '',
      },
    },
    at: new Date(T0 + turn * 10_000).toISOString(),
  };
}

/** Writes conditions.json and every run (stop files and run.json) of the campaign. */
export async function writeCampaign(outDir: string, spec: CampaignSpec): Promise<void> {
  const codebase = spec.hostLocal
    ? {
        kind: 'path' as const,
        path: '/home/me/toy',
        commit: SHA,
        branch: 'main',
        host_local: true as const,
      }
    : {
        kind: 'git' as const,
        url: 'https://example.invalid/acme/toy.git',
        ref: 'v1.0',
        commit: SHA,
        branch: 'main',
      };
  const conditions: ConditionsFile = {
    schema: 'evalrig/conditions@1',
    campaign: 'synthetic',
    eval_set: { name: 'toy evals', path: '/evals/evals.json', sha256: 'a'.repeat(64) },
    baseline_condition: spec.baseline,
    conditions: spec.conditions.map((name) => ({ name, stage: [], env: [], agent_args: [] })),
    evals: spec.evals.map((id, i) => ({
      id,
      runs: spec.runs,
      turns: 2,
      codebase,
      prompt: `Plan ${id}, open a draft PR with the plan & hand over.`,
      messages: [{ message: 'Approved <go on>.', phase: 'execution' }],
      ...(i === 0 ? { expectations: ['The PR is a draft at hand over.'] } : {}),
      message_checks: ['no_missing_gh'],
      ...(spec.checks ? { checks: [...spec.checks] } : {}),
    })),
    image: { tag: 'evalrig-test:latest', id: `sha256:${'d'.repeat(64)}` },
    stand_in_sha256: 'e'.repeat(64),
    evalrig_version: '0.1.0',
    created_at: '2025-03-01T09:59:00.000Z',
    options: { jobs: 4, stop_at_hand_over: spec.stopAtHandOver ?? false },
  };
  await writeArtifact('conditions', path.join(outDir, 'conditions.json'), conditions);
  // A few runs written at a time: thousands of runs (the benchmark) in seconds.
  const batch: Array<Promise<void>> = [];
  for (const evalId of spec.evals) {
    for (const condition of spec.conditions) {
      for (let run = 1; run <= spec.runs; run++) {
        const plan = spec.plan(evalId, condition, run);
        batch.push(writeRun(outDir, spec, evalId, condition, run, plan, codebase));
        if (batch.length >= 32) await Promise.all(batch.splice(0));
      }
    }
  }
  await Promise.all(batch);
}

async function writeRun(
  outDir: string,
  spec: CampaignSpec,
  evalId: string,
  condition: string,
  run: number,
  plan: RunPlan,
  codebase: RunRecord['codebase'],
): Promise<void> {
  const dir = path.join(outDir, 'runs', evalId, condition, `run-${String(run).padStart(2, '0')}`);
  const diff: DiffCounters = {
    files_added: 0,
    files_modified: plan.filesChanged,
    files_deleted: 0,
    lines_added: plan.filesChanged * 10,
    lines_removed: plan.filesChanged,
    untracked: 0,
  };
  const planning = [
    ghCall(1, ['pr', 'create', '--draft', '--title', 'Plan: x', '--body-file', '-']),
  ];
  const execution = [ghCall(2, ['pr', 'edit', '1', '--body-file', '-'])];
  if (plan.marksReady) execution.push(ghCall(3, ['pr', 'ready', '1'], { marks_ready: true }));
  for (let i = 0; i < plan.notPlayed; i++) {
    execution.push(
      ghCall(4 + i, ['pr', 'merge', '1'], { played: false, exit_code: 1, stderr: 'not played' }),
    );
  }
  const stops: StopRecord[] = [];
  const agentOf = (turn: number): TurnAgentRecord | undefined =>
    plan.agent ? turnAgent(plan.agent, turn, plan.stops) : undefined;
  if (plan.stops >= 1)
    stops.push(
      stopRecord(
        1,
        'planning',
        'awaiting-approval',
        plan.draft,
        plan.described,
        planning,
        diff,
        agentOf(1),
      ),
    );
  if (plan.stops >= 2)
    stops.push(
      stopRecord(
        2,
        'execution',
        'conformant',
        plan.draft,
        plan.refreshed,
        execution,
        diff,
        agentOf(2),
      ),
    );
  // The files a run keeps beside its records: each turn's output, the diff and the gh calls.
  if (stops.length > 0) {
    await mkdir(path.join(dir, 'turns'), { recursive: true });
    for (const stop of stops) {
      const nn = String(stop.turn).padStart(2, '0');
      if (plan.agent) {
        await writeFile(path.join(dir, 'turns', `turn-${nn}.jsonl`), '{"type":"result"}\n');
      } else {
        await writeFile(path.join(dir, 'turns', `turn-${nn}.stdout.txt`), 'done\n');
      }
    }
    await writeFile(path.join(dir, 'diff.patch'), 'diff --git a/x b/x\n');
    await writeFile(
      path.join(dir, 'calls.jsonl'),
      stops.flatMap((s) => s.calls.map((c) => `${JSON.stringify(c)}\n`)).join(''),
    );
  }
  for (const [i, stop] of stops.entries()) {
    const said = plan.message ?? stop.agent?.final_message ?? 'done';
    stops[i] = { ...stop, final_message: said };
  }
  const names: string[] = [];
  for (const stop of stops) {
    const name = `stops/stop-${String(stop.turn).padStart(2, '0')}.json`;
    await writeArtifact('stop', path.join(dir, name), stop);
    names.push(name);
  }
  const checks = plan.checks
    ? [...plan.checks]
    : plan.checksPass === null
      ? []
      : [
          {
            name: 'tests',
            command: 'npm test',
            passed: plan.checksPass,
            exit_code: plan.checksPass ? 0 : 1,
            duration_ms: 900,
            output: 'ok',
            truncated: false,
          },
        ];
  const stoppedAtHandOver = spec.stopAtHandOver ?? false;
  const record: RunRecord = {
    schema: 'evalrig/run@1',
    campaign: 'synthetic',
    eval: evalId,
    condition,
    run,
    status: plan.status,
    ...(plan.status === 'failed' ? { error: 'the container could not start' } : {}),
    ...(plan.failure ? { failure: plan.failure } : {}),
    started_at: new Date(T0).toISOString(),
    finished_at: new Date(T0 + plan.durationMs).toISOString(),
    duration_ms: plan.durationMs,
    turns_planned: 2,
    turns_completed: stops.length,
    stopped_at_hand_over: stoppedAtHandOver,
    stops: names,
    ...(codebase ? { codebase } : {}),
    image: { tag: 'evalrig-test:latest', id: `sha256:${'d'.repeat(64)}` },
    diff,
    checks,
    message_checks: runMessageChecks(BUILTIN_MESSAGE_CHECKS, stops),
    ...(plan.treatment ? { treatment: plan.treatment } : {}),
    ...(plan.agent
      ? {
          agent: {
            ...AGENT_IDENTITY,
            totals: {
              tool_calls: plan.agent.toolCalls,
              tool_calls_failed: plan.agent.toolCallsFailed,
              ...(plan.agent.toolCallsRefused !== undefined
                ? { tool_calls_refused: plan.agent.toolCallsRefused }
                : {}),
              model_requests: plan.agent.modelRequests,
              tokens: {
                input: plan.agent.tokensIn,
                output: plan.agent.tokensOut,
                cache_read: plan.agent.cacheRead,
                cache_write: plan.agent.cacheWrite,
              },
              cost_usd: plan.agent.costUsd,
            },
          },
        }
      : {}),
    measures: measureRun({
      stops,
      checks,
      diff,
      turnsCompleted: stops.length,
      durationMs: plan.durationMs,
      stoppedAtHandOver,
      status: plan.status,
      allCalls: stops.flatMap((s) => s.calls),
      conditionReached: plan.treatment?.reached ?? null,
      skillUsed: plan.treatment?.used ?? null,
      checksDeclared: spec.checks?.length ?? checks.length,
      ...(plan.failure ? { failure: plan.failure.class } : {}),
    }),
  };
  await writeArtifact('run', path.join(dir, 'run.json'), record);
}

/**
 * Two evals x two conditions x 5 runs. with_skill does everything right, but
 * one run times out after planning. without_skill moves every measure, and one
 * of its runs failed (counted in the status only).
 *
 * Agents: every with_skill run has an adapter agent's record (run i: 1000 i
 * tokens in, $0.01 i, 4 + i tool calls, one failed in run 1). without_skill
 * runs 1-3 have one (2000 tokens in, $0.02, 3 tool calls; run 3 reports no
 * cost); its runs 4 and 5 played a command agent: no agent record.
 *
 * Messages: without_skill runs 1 and 2 say "gh: command not found" at every
 * stop (no_missing_gh: 5 of 9 measured runs pass it against 10 of 10).
 */
export const MIXED: CampaignSpec = {
  evals: ['add-feature', 'fix-bug'],
  conditions: ['without_skill', 'with_skill'],
  baseline: 'without_skill',
  runs: 5,
  plan: (evalId, condition, i): RunPlan => {
    const agent = mixedAgent(condition, i);
    return { ...mixedPlan(evalId, condition, i), ...(agent ? { agent } : {}) };
  },
};

function mixedAgent(condition: string, i: number): AgentPlan | undefined {
  if (condition === 'with_skill') {
    return {
      tokensIn: 1000 * i,
      tokensOut: 100 * i,
      cacheRead: 500,
      cacheWrite: 50,
      costUsd: 0.01 * i,
      toolCalls: 4 + i,
      toolCallsFailed: i === 1 ? 1 : 0,
      modelRequests: 3,
    };
  }
  if (i > 3) return undefined;
  return {
    tokensIn: 2000,
    tokensOut: 200,
    cacheRead: 0,
    cacheWrite: 0,
    costUsd: i === 3 ? null : 0.02,
    toolCalls: 3,
    toolCallsFailed: 0,
    modelRequests: 2,
  };
}

function mixedPlan(evalId: string, condition: string, i: number): RunPlan {
  if (condition === 'with_skill') {
    return evalId === 'add-feature' && i === 5
      ? { ...GOOD_RUN, status: 'timed_out', stops: 1 }
      : GOOD_RUN;
  }
  if (evalId === 'fix-bug' && i === 5) return { ...GOOD_RUN, status: 'failed', stops: 0 };
  return {
    ...GOOD_RUN,
    draft: i % 2 === 1,
    described: i !== 2,
    refreshed: i === 1,
    marksReady: i === 2,
    notPlayed: i === 3 ? 1 : 0,
    checksPass: i <= 3,
    filesChanged: i,
    durationMs: i * 10_000,
    // Runs 1 and 2 hand over saying gh is missing: no_missing_gh fails there.
    ...(i <= 2 ? { message: 'I could not open the PR.\n\ngh: command not found' } : {}),
  };
}

/**
 * A campaign of `runsPer` runs per (eval, condition) for the viewer's benchmarks: a third of
 * the baseline's runs leave no draft, a fifth fail their checks.
 */
export function largeCampaign(runsPer: number): CampaignSpec {
  return {
    evals: ['add-feature', 'fix-bug'],
    conditions: ['without_skill', 'with_skill'],
    baseline: 'without_skill',
    runs: runsPer,
    plan: (_e, condition, i) => ({
      ...GOOD_RUN,
      draft: condition === 'with_skill' || i % 3 !== 0,
      checksPass: i % 5 !== 0,
    }),
  };
}
