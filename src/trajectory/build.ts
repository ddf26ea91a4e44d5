import type { GhCall, GradingFile, RunRecord, StopRecord } from '../artifacts/index.js';
import type { FlightRecord } from '../flight/index.js';
import { finalMessageOf } from '../measure/index.js';
import { modelSteps, type Draft, type DraftModel, type DraftStep } from './model-steps.js';
import { clipText, quotedFragments } from './text.js';
import { treatmentOf } from './treatment.js';
import {
  MAX_STEPS,
  PATCH_CAP,
  TEXT_CAP,
  TRAJECTORY_SCHEMA,
  type GhStep,
  type OutputStep,
  type Step,
  type StopStep,
  type Trajectory,
} from './types.js';

/** What a run's trajectory is built from: the host's records of it, read by ./source.ts. */
export interface TrajectoryInputs {
  readonly record: RunRecord;
  /** The stops run.json names, in order (null: a stop file missing). */
  readonly stops: ReadonlyArray<StopRecord | null>;
  /** The patch at each stop, in the same order (null: none kept). */
  readonly patches: ReadonlyArray<string | null>;
  /** The flight record, for an adapter agent whose gateway kept one. */
  readonly flight: FlightRecord | null;
  /** The host's gh record of the whole run (calls.jsonl). */
  readonly ghCalls: readonly GhCall[];
  /** Per turn: a command agent's stdout and stderr, or an adapter's own stream. */
  readonly outputs: ReadonlyArray<{
    readonly turn: number;
    readonly stdout: string | null;
    readonly stderr: string | null;
    readonly transcript: string | null;
  }>;
  readonly grading: GradingFile | null;
}

type AnyDraft = DraftStep | Draft<GhStep> | Draft<OutputStep> | StopDraft;

const timeOf = (iso: string): number => {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 0 : t;
};

/**
 * Builds a run's trajectory: its steps turn by turn (from the flight record where there is
 * one, else from what the agent printed), gh calls in their place, each stop closing its turn
 * with what was measured there, and the checks and the judge's evidence linked to steps.
 *
 * @example
 * const t = buildTrajectory(await readTrajectoryInputs(runDir));
 * for (const s of t.steps) console.log(s.i, s.kind, s.turn);
 */
export function buildTrajectory(inputs: TrajectoryInputs): Trajectory {
  const { record } = inputs;
  const stops = inputs.stops.filter((s): s is StopRecord => s !== null);
  const turnOf = turnOfCall(stops);
  const source: Trajectory['source'] = inputs.flight
    ? 'gateway'
    : record.agent
      ? inputs.outputs.some((o) => o.transcript !== null)
        ? 'stream'
        : 'none'
      : 'output';
  const drafts: AnyDraft[] = [
    ...(inputs.flight ? modelSteps(inputs.flight, turnOf) : outputSteps(inputs, stops, source)),
    ...ghSteps(inputs.ghCalls, stops),
  ];
  const steps = placeSteps(drafts, stops, inputs);
  const kept = capSteps(steps);
  return {
    schema: TRAJECTORY_SCHEMA,
    campaign: record.campaign,
    eval: record.eval,
    condition: record.condition,
    run: record.run,
    status: record.status,
    error: record.error ?? null,
    source,
    started_at: record.started_at,
    duration_ms: record.duration_ms,
    steps: kept,
    steps_omitted: steps.length - kept.length,
    totals: totalsOf(steps),
    checks: record.checks.map((c) => ({
      name: c.name,
      passed: c.passed,
      exit_code: c.exit_code,
      output: clipText(c.output, TEXT_CAP),
    })),
    message_checks: messageChecksOf(record, kept),
    grading: gradingOf(inputs.grading, kept),
    ...treatmentOf(record),
  };
}

/** The turn of a model call, from the call ranges each stop's witness recorded. */
function turnOfCall(stops: readonly StopRecord[]): (seq: number) => number {
  const ranges = stops.flatMap((s) => {
    const calls = s.agent?.witness?.calls;
    return calls ? [{ turn: s.turn, ...calls }] : [];
  });
  const lastTurn = stops.length === 0 ? 0 : stops[stops.length - 1]!.turn;
  return (seq) => {
    const hit = ranges.find((r) => seq >= r.first && seq <= r.last);
    if (hit) return hit.turn;
    // A call past every witnessed range: the turn no stop closed (cut, or still in flight).
    const before = ranges.filter((r) => r.last < seq);
    return before.length === ranges.length ? lastTurn + 1 : (before.at(-1)?.turn ?? 1);
  };
}

/** A command agent's output per turn, or an adapter's own stream where no record was kept. */
function outputSteps(
  inputs: TrajectoryInputs,
  stops: readonly StopRecord[],
  source: Trajectory['source'],
): Draft<OutputStep>[] {
  const out: Draft<OutputStep>[] = [];
  for (const o of inputs.outputs) {
    // A turn's output is placed at its start: its stop's time less its duration.
    const stop = stops.find((s) => s.turn === o.turn);
    const start = stop ? timeOf(stop.at) - stop.duration_ms : timeOf(inputs.record.started_at);
    const streams: Array<[OutputStep['stream'], string | null]> =
      source === 'stream'
        ? [['transcript', o.transcript]]
        : [
            ['stdout', o.stdout],
            ['stderr', o.stderr],
          ];
    streams.forEach(([stream, text], k) => {
      if (text === null || text === '') return;
      out.push({
        kind: 'output',
        i: 0,
        turn: o.turn,
        at: new Date(start).toISOString(),
        duration_ms: stop?.duration_ms ?? null,
        stream,
        text: clipText(text, TEXT_CAP),
        sortAt: start + k * 1e-3,
      });
    });
  }
  return out;
}

/** The gh calls, each in the turn whose stop listed it (a call no stop listed: the turn after). */
function ghSteps(calls: readonly GhCall[], stops: readonly StopRecord[]): Draft<GhStep>[] {
  const turnBySeq = new Map<number, number>();
  for (const s of stops) for (const c of s.calls) turnBySeq.set(c.seq, s.turn);
  const all = calls.length > 0 ? calls : stops.flatMap((s) => s.calls);
  const after = stops.length === 0 ? 1 : stops[stops.length - 1]!.turn + 1;
  return all.map((c) => ({
    kind: 'gh',
    i: 0,
    turn: turnBySeq.get(c.seq) ?? after,
    at: c.time,
    duration_ms: null,
    seq: c.seq,
    args: clipText(c.argv.join(' '), TEXT_CAP),
    exit_code: c.exit_code,
    stdout: clipText(c.stdout, TEXT_CAP),
    stderr: clipText(c.stderr, TEXT_CAP),
    played: c.played,
    marks_ready: c.marks_ready,
    sortAt: timeOf(c.time),
  }));
}

/**
 * Orders the steps: turn by turn, by time within a turn (ties keep their order), each turn
 * closed by its stop; then gives each its index and links models to their tools.
 */
function placeSteps(
  drafts: readonly AnyDraft[],
  stops: readonly StopRecord[],
  inputs: TrajectoryInputs,
): Step[] {
  const turns = new Set<number>([...drafts.map((d) => d.turn), ...stops.map((s) => s.turn)]);
  const ordered: AnyDraft[] = [];
  for (const turn of [...turns].sort((a, b) => a - b)) {
    const inTurn = drafts
      .map((d, k) => ({ d, k }))
      .filter(({ d }) => d.turn === turn)
      .sort((a, b) => a.d.sortAt - b.d.sortAt || a.k - b.k)
      .map(({ d }) => d);
    ordered.push(...inTurn);
    const at = inputs.stops.findIndex((s) => s?.turn === turn);
    if (at >= 0) ordered.push(stopDraft(inputs.stops[at]!, inputs.patches[at] ?? null, inTurn));
  }
  const index = new Map<AnyDraft, number>(ordered.map((d, i) => [d, i]));
  return ordered.map((d, i) => finish(d, i, index));
}

function finish(d: AnyDraft, i: number, index: Map<AnyDraft, number>): Step {
  const { sortAt: _sortAt, ...rest } = d;
  if (d.kind === 'model') {
    const { tools, ...model } = rest as Omit<DraftModel, 'sortAt'>;
    return { ...model, i, tool_steps: tools.map((t) => index.get(t)!) };
  }
  if (d.kind === 'stop') {
    const { said, ...stop } = rest as Omit<StopDraft, 'sortAt'>;
    return { ...stop, i, final_step: said ? (index.get(said) ?? null) : null };
  }
  return { ...rest, i } as Step;
}

/** A stop before its place, holding the step that said its final message. */
type StopDraft = Draft<StopStep> & { said?: AnyDraft };

function stopDraft(stop: StopRecord, patch: string | null, turnSteps: AnyDraft[]): StopDraft {
  const final = finalMessageOf(stop);
  const said = [...turnSteps]
    .reverse()
    .find(
      (d) =>
        final !== null &&
        ((d.kind === 'model' &&
          !d.side &&
          d.text !== null &&
          d.text.includes(final.slice(0, 200))) ||
          (d.kind === 'output' && d.text.includes(final.slice(0, 200)))),
    );
  const a = stop.agent;
  return {
    kind: 'stop',
    i: 0,
    turn: stop.turn,
    at: stop.at,
    duration_ms: stop.duration_ms,
    phase: stop.phase,
    stop_kind: stop.kind,
    hand_over: stop.hand_over,
    exit_code: stop.exit_code,
    branch: stop.branch,
    head: stop.head,
    pull: stop.pull,
    diff: stop.diff,
    patch: patch === null ? null : clipText(patch, PATCH_CAP),
    probes: stop.probes,
    final_message: final === null ? null : clipText(final, TEXT_CAP),
    final_step: null,
    agent: a
      ? {
          model_requests: a.model_requests,
          tool_calls: a.tool_calls.total,
          tokens_in: a.tokens.input + a.tokens.cache_read + a.tokens.cache_write,
          tokens_out: a.tokens.output,
          cost_usd: a.cost_usd,
          ...refusedOf(a.tool_calls),
          disagreements: a.claim?.disagreements ?? [],
        }
      : null,
    sortAt: Number.POSITIVE_INFINITY,
    ...(said ? { said } : {}),
  };
}

/** The turn's refused tool calls, in all and by name, when its record counted them. */
function refusedOf(calls: NonNullable<StopRecord['agent']>['tool_calls']) {
  if (calls.refused === undefined) return {};
  const byName = Object.entries(calls.by_name).flatMap(([name, c]) =>
    c.refused ? [[name, c.refused] as const] : [],
  );
  return { tool_calls_refused: calls.refused, refused_by_name: Object.fromEntries(byName) };
}

/** Keeps every stop and as many other steps as fit, indices renumbered and links remapped. */
function capSteps(steps: Step[]): Step[] {
  if (steps.length <= MAX_STEPS) return steps;
  const stops = steps.filter((s) => s.kind === 'stop').length;
  let room = MAX_STEPS - stops;
  const kept = steps.filter((s) => s.kind === 'stop' || room-- > 0);
  const map = new Map(kept.map((s, i) => [s.i, i]));
  return kept.map((s) => renumber(s, map));
}

function renumber(s: Step, map: ReadonlyMap<number, number>): Step {
  const i = map.get(s.i)!;
  if (s.kind === 'model')
    return { ...s, i, tool_steps: s.tool_steps.flatMap((t) => (map.has(t) ? [map.get(t)!] : [])) };
  if (s.kind === 'stop')
    return { ...s, i, final_step: s.final_step === null ? null : (map.get(s.final_step) ?? null) };
  return { ...s, i };
}

function totalsOf(steps: readonly Step[]): Trajectory['totals'] {
  let tokensIn = 0;
  let tokensOut = 0;
  for (const s of steps) {
    if (s.kind !== 'model') continue;
    tokensIn += (s.tokens.input ?? 0) + (s.tokens.cache_read ?? 0) + (s.tokens.cache_write ?? 0);
    tokensOut += s.tokens.output ?? 0;
  }
  return {
    model_calls: steps.filter((s) => s.kind === 'model').length,
    tool_calls: steps.filter((s) => s.kind === 'tool').length,
    gh_calls: steps.filter((s) => s.kind === 'gh').length,
    tokens_in: tokensIn,
    tokens_out: tokensOut,
  };
}

function stepOfTurn(steps: readonly Step[], turn: number): number | null {
  const stop = steps.find((s) => s.kind === 'stop' && s.turn === turn) as StopStep | undefined;
  if (!stop) return null;
  return stop.final_step ?? stop.i;
}

function messageChecksOf(record: RunRecord, steps: readonly Step[]): Trajectory['message_checks'] {
  return (record.message_checks ?? []).map((c) => ({
    name: c.name,
    passed: c.passed,
    looked_at: c.looked_at.map((l) => ({ ...l, step: stepOfTurn(steps, l.turn) })),
  }));
}

/** The step a piece of evidence cites: one holding a fragment it quotes, else a turn it names. */
export function citedStep(evidence: string, steps: readonly Step[]): number | null {
  for (const fragment of quotedFragments(evidence)) {
    const hit = steps.find((s) => textsOf(s).some((t) => t.includes(fragment)));
    if (hit) return hit.i;
  }
  const turn = /\b(?:turn|stop)\s+(\d+)/iu.exec(evidence);
  return turn ? stepOfTurn(steps, Number(turn[1])) : null;
}

function textsOf(s: Step): string[] {
  switch (s.kind) {
    case 'message':
    case 'output':
      return [s.text];
    case 'model':
      return s.text === null ? [] : [s.text];
    case 'tool':
      return [s.input, s.output ?? ''];
    case 'gh':
      return [s.args, s.stdout, s.stderr];
    case 'stop':
      return [
        s.final_message ?? '',
        s.patch ?? '',
        ...Object.values(s.probes).map((p) => p.stdout),
      ];
  }
}

function gradingOf(grading: GradingFile | null, steps: readonly Step[]): Trajectory['grading'] {
  if (grading === null) return null;
  return {
    status: grading.status,
    error: grading.error ?? null,
    expectations: grading.expectations.map((e) => ({
      expectation: e.expectation,
      passed: e.passed,
      evidence: e.evidence,
      step: e.evidence === null ? null : citedStep(e.evidence, steps),
    })),
  };
}
