import { expect } from 'chai';
import type { GhCall, RunRecord, StopRecord } from '../../../src/artifacts/index.js';
import type { FlightRecord, ModelCall } from '../../../src/flight/index.js';
import {
  assertTrajectory,
  buildTrajectory,
  citedStep,
  MAX_STEPS,
  trajectoryExcerpt,
  type TrajectoryInputs,
} from '../../../src/trajectory/index.js';
import { answerOf, requestEntries } from '../../../src/trajectory/wire/index.js';

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const at = (s: number): string => new Date(T0 + s * 1000).toISOString();

function call(seq: number, s: number, toolCalls: ModelCall['toolCalls'] = []): ModelCall {
  return {
    seq,
    time: at(s),
    method: 'POST',
    path: '/v1/messages',
    api: 'messages',
    model: 'm',
    status: 200,
    outcome: 'complete',
    reason: null,
    requestBytes: 1,
    responseBytes: 1,
    latencyMs: 500,
    tokens: { input: 10, output: 2, cacheRead: 0, cacheWrite: 0 },
    answerId: null,
    stopReason: null,
    toolCalls,
    request: { block: `req${seq}` },
    response: { block: `res${seq}` },
  };
}

/** A Messages-API answer as server-sent events: a text, then one tool call streamed in pieces. */
function sse(text: string, tool?: { id: string; input: string }): string {
  const events: object[] = [
    { type: 'message_start', message: { id: 'x' } },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
  ];
  if (tool) {
    events.push({
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'tool_use', id: tool.id, name: 'Bash', input: {} },
    });
    const half = Math.floor(tool.input.length / 2);
    for (const part of [tool.input.slice(0, half), tool.input.slice(half)])
      events.push({
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: part },
      });
  }
  events.push({ type: 'message_stop' });
  return events.map((e) => `event: x\ndata: ${JSON.stringify(e)}\n\n`).join('');
}

const TOOLS = [{ name: 'Bash' }];
const user = (text: string) => ({ role: 'user', content: [{ type: 'text', text }] });
const echo = (text: string, id: string, command: string) => ({
  role: 'assistant',
  content: [
    { type: 'text', text },
    { type: 'tool_use', id, name: 'Bash', input: { command } },
  ],
});
const result = (id: string, output: string) => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: id, content: output, is_error: true }],
});

/** Two turns: a tool call and an answer, then a message and an answer; a side request between. */
function flight(): FlightRecord {
  const h1 = [user('Do <it>.')];
  const h2 = [...h1, echo('Running.', 't1', 'ls'), result('t1', 'boom')];
  const h3 = [
    ...h2,
    { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    user('Again.'),
  ];
  const calls = [
    call(1, 1, [{ id: 't1', name: 'Bash' }]),
    { ...call(2, 2), time: at(2) },
    call(3, 3),
    call(4, 10),
  ];
  const requests: Record<number, unknown> = {
    1: { tools: TOOLS, messages: h1 },
    2: { messages: [user('a title please')] },
    3: { tools: TOOLS, messages: h2 },
    4: { tools: TOOLS, messages: h3 },
  };
  const responses: Record<number, string> = {
    1: sse('Running.', { id: 't1', input: '{"command":"ls"}' }),
    2: sse('A title'),
    3: sse('Done.'),
    4: sse('Again done.'),
  };
  return {
    manifest: null,
    calls,
    request: (c) => requests[c.seq],
    responseText: (c) => responses[c.seq] ?? null,
    responseFacts: () => null,
  };
}

function stop(
  turn: number,
  s: number,
  first: number,
  last: number,
  calls: GhCall[] = [],
): StopRecord {
  return {
    turn,
    phase: turn === 1 ? 'planning' : 'execution',
    exit_code: 0,
    duration_ms: 1000,
    kind: 'done',
    hand_over: true,
    branch: 'b',
    head: null,
    origin_has_head: false,
    pull: null,
    calls,
    diff: {
      files_added: 0,
      files_modified: 1,
      files_deleted: 0,
      lines_added: 1,
      lines_removed: 0,
      untracked: 0,
    },
    probes: {},
    at: at(s),
    final_message: turn === 1 ? 'Done.' : 'Again done.',
    agent: {
      transcript: `turns/turn-0${turn}.jsonl`,
      final_message: null,
      tool_calls: { total: 0, failed: 0, by_name: {} },
      model_requests: 1,
      api_retries: 0,
      tokens: { input: 1, output: 1, cache_read: 0, cache_write: 0 },
      cost_usd: null,
      error: null,
      complete: true,
      truncated: false,
      witness: { by: 'gateway', calls: { first, last }, tokens_unreported: 0, price_table: 'x' },
    },
  };
}

const gh: GhCall = {
  seq: 1,
  time: at(1.8),
  argv: ['pr', 'create', '--title', '<b>x</b>'],
  cwd: '/w',
  command: 'pr create',
  stdin: null,
  description: null,
  exit_code: 0,
  stdout: 'url\n',
  stderr: '',
  played: true,
  marks_ready: false,
  pr: 1,
};

function inputs(): TrajectoryInputs {
  const record = {
    schema: 'evalrig/run@1',
    campaign: 'c',
    eval: 'e',
    condition: 'k',
    run: 1,
    status: 'completed',
    started_at: at(0),
    finished_at: at(20),
    duration_ms: 20_000,
    turns_planned: 2,
    turns_completed: 2,
    stopped_at_hand_over: false,
    stops: ['stops/stop-01.json', 'stops/stop-02.json'],
    image: { tag: 'i', id: 'sha256:1' },
    diff: {
      files_added: 0,
      files_modified: 1,
      files_deleted: 0,
      lines_added: 1,
      lines_removed: 0,
      untracked: 0,
    },
    checks: [],
    measures: {} as RunRecord['measures'],
    message_checks: [
      {
        name: 'done',
        stops: 'every',
        rule: { contains: 'done' },
        passed: true,
        looked_at: [{ turn: 2, passed: true }],
      },
    ],
    agent: {} as RunRecord['agent'],
  } as RunRecord;
  return {
    record,
    stops: [stop(1, 5, 1, 3, [gh]), stop(2, 12, 4, 4)],
    patches: ['--- a/x\n+++ b/x\n', null],
    flight: flight(),
    ghCalls: [gh],
    outputs: [],
    grading: null,
  };
}

describe('trajectory: a run step by step from the flight record', () => {
  it('orders each turn by time: what was said, the answer, its tool with input and output, gh in place, the stop last', () => {
    const t = buildTrajectory(inputs());
    assertTrajectory(t, 'test');
    expect(t.source).to.equal('gateway');
    expect(t.steps.map((s) => `${s.turn}:${s.kind}`)).to.deep.equal([
      '1:message',
      '1:model',
      '1:tool',
      '1:gh',
      '1:model',
      '1:model',
      '1:stop',
      '2:message',
      '2:model',
      '2:stop',
    ]);
    const [prompt, first, tool, ghStep, side, done, stop1, again] = t.steps;
    expect(prompt).to.include({ kind: 'message', role: 'user', text: 'Do <it>.', call: 1 });
    expect(first).to.include({ kind: 'model', text: 'Running.', side: false });
    expect(first!.kind === 'model' && first!.tool_steps).to.deep.equal([2]);
    expect(tool).to.include({
      kind: 'tool',
      name: 'Bash',
      input: '{"command":"ls"}',
      output: 'boom',
      is_error: true,
    });
    // From the answer's end to the request that carried the result back.
    expect(tool!.duration_ms).to.equal(1500);
    expect(ghStep).to.include({ kind: 'gh', args: 'pr create --title <b>x</b>' });
    expect(side).to.include({ kind: 'model', side: true, text: 'A title' });
    expect(done).to.include({ kind: 'model', text: 'Done.' });
    expect(stop1).to.include({ kind: 'stop', final_step: 5, patch: '--- a/x\n+++ b/x\n' });
    expect(again).to.include({ kind: 'message', text: 'Again.' });
    expect(t.totals).to.deep.equal({
      model_calls: 4,
      tool_calls: 1,
      gh_calls: 1,
      tokens_in: 40,
      tokens_out: 8,
    });
    expect(t.message_checks[0]!.looked_at[0]).to.include({ turn: 2, step: 8 });
  });

  it("serves the trajectory of a run that reached a limit (its status is one of run.json's)", () => {
    const base = inputs();
    const t = buildTrajectory({
      ...base,
      record: { ...base.record, status: 'limit_reached', limit: 'cost' } as RunRecord,
    });
    expect(t.status).to.equal('limit_reached');
    assertTrajectory(t, 'test');
  });

  it("carries each turn's refused tool calls by name, and the run's treatment check", () => {
    const base = inputs();
    const [first, second] = base.stops as StopRecord[];
    const refusing: StopRecord = {
      ...second!,
      agent: {
        ...second!.agent!,
        tool_calls: {
          total: 3,
          failed: 0,
          refused: 2,
          by_name: {
            run_shell_command: { count: 2, failed: 0, refused: 2 },
            read_file: { count: 1, failed: 0 },
          },
        },
      },
    };
    const treatment = {
      staged: [
        {
          kind: 'skill' as const,
          path: '.gemini/skills/x/SKILL.md',
          name: 'x',
          loads: true,
          reached: null,
          first_call: null,
          undecided: 'call 3 could not be read',
          used: false,
          first_use_call: null,
        },
      ],
      reached: null,
      used: false,
    };
    const t = buildTrajectory({
      ...base,
      record: { ...base.record, treatment },
      stops: [first!, refusing],
    });
    assertTrajectory(t, 'test');
    const stops = t.steps.filter((s) => s.kind === 'stop');
    expect(stops[1]!.agent).to.deep.include({
      tool_calls_refused: 2,
      refused_by_name: { run_shell_command: 2 },
    });
    // A record that did not count refusals says nothing of them.
    expect(stops[0]!.agent).to.not.have.property('tool_calls_refused');
    expect(t.treatment).to.deep.equal(treatment);
  });

  it("links a piece of the judge's evidence to the step holding what it quotes, else the turn it names", () => {
    const t = buildTrajectory(inputs());
    expect(citedStep('The agent said "Again done." at the end.', t.steps)).to.equal(8);
    expect(citedStep('It ran `{"command":"ls"}` first.', t.steps)).to.equal(2);
    expect(citedStep('Nothing at turn 1 says so.', t.steps)).to.equal(5);
    expect(citedStep('No quote here.', t.steps)).to.equal(null);
  });

  it('keeps every stop and as many steps as fit past the cap, links renumbered', function () {
    this.timeout(20_000);
    const many = inputs();
    const h = flight();
    const calls = Array.from({ length: MAX_STEPS }, (_, k) => call(k + 1, 1 + k / 1e5));
    const t = buildTrajectory({
      ...many,
      stops: [stop(1, 5, 1, MAX_STEPS)],
      ghCalls: [],
      patches: [null],
      flight: {
        ...h,
        calls,
        request: () => ({ tools: TOOLS, messages: [] }),
        responseText: () => sse('x'),
      },
    });
    expect(t.steps.length).to.equal(MAX_STEPS);
    expect(t.steps_omitted).to.equal(1);
    expect(t.steps.at(-1)!.kind).to.equal('stop');
    expect(t.steps.every((s, i) => s.i === i)).to.equal(true);
  });

  it('gives the judge the end of a turn, from the witnessed steps, within its budget', () => {
    const t = buildTrajectory(inputs());
    const whole = trajectoryExcerpt(t, 1, 10_000);
    expect(whole.split('\n')[0]).to.equal('[user] Do <it>.');
    expect(whole).to.contain('[tool Bash] {"command":"ls"}\n  -> boom (error)');
    const cut = trajectoryExcerpt(t, 1, 60);
    expect(cut).to.match(/^\[evalrig: \d+ earlier steps not shown\]\n/u);
    expect(cut).to.contain('[stop, turn 1: done, hands over]');
  });
});

describe('trajectory wire: requests and answers of both APIs', () => {
  it('reads a Responses request: messages, function calls and their outputs', () => {
    const entries = requestEntries('responses', {
      input: [
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'rules' }] },
        { type: 'function_call', call_id: 'c1', name: 'exec', arguments: '{"cmd":"ls"}' },
        { type: 'function_call_output', call_id: 'c1', output: 'a.txt' },
        { type: 'reasoning', summary: [] },
      ],
    });
    expect(entries.map((e) => e.role)).to.deep.equal([
      'developer',
      'assistant',
      'tool',
      'reasoning',
    ]);
    expect(entries[1]!.items[0]).to.deep.equal({
      type: 'tool_call',
      id: 'c1',
      name: 'exec',
      input: '{"cmd":"ls"}',
    });
    expect(entries[2]!.items[0]).to.deep.equal({
      type: 'tool_result',
      id: 'c1',
      output: 'a.txt',
      isError: null,
    });
  });

  it('reads a Responses stream by its finished items, and a JSON answer by its output', () => {
    const item = { type: 'function_call', call_id: 'c2', name: 'exec', arguments: '{"cmd":"pwd"}' };
    const stream = [
      {
        type: 'response.output_item.done',
        item: {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'hi' }],
        },
      },
      { type: 'response.output_item.done', item },
    ]
      .map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`)
      .join('');
    expect(answerOf('responses', stream)).to.deep.equal({
      texts: ['hi'],
      toolCalls: [{ id: 'c2', name: 'exec', input: '{"cmd":"pwd"}' }],
    });
    expect(answerOf('responses', JSON.stringify({ output: [item] })).toolCalls).to.have.length(1);
    expect(
      answerOf('messages', JSON.stringify({ content: [{ type: 'text', text: 'ok' }] })).texts,
    ).to.deep.equal(['ok']);
    expect(answerOf('messages', 'not json')).to.deep.equal({ texts: [], toolCalls: [] });
  });
});
