import { expect } from 'chai';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import schema from '../../../src/model-stand-in/model-script.schema.json' with { type: 'json' };
import {
  checkModelScript,
  loadModelScript,
  ModelScriptError,
  type ModelScript,
} from '../../../src/model-stand-in/index.js';

import { post, standInPerTest, type Answer } from '../model-stand-in/http.js';

const FIXTURE = 'test/fixtures/transcripts/claude-code-2.1.332/model-script.json';

/** The SSE frames as [event, data] pairs. */
function events(body: string): { event: string; data: Record<string, unknown> }[] {
  return body
    .split('\n\n')
    .filter((f) => f.trim() !== '')
    .map((frame) => {
      const [ev, data] = frame.split('\n');
      expect(ev).to.match(/^event: /);
      expect(data).to.match(/^data: /);
      return { event: ev!.slice(7), data: JSON.parse(data!.slice(6)) as Record<string, unknown> };
    });
}

const ASK = {
  model: 'm-1',
  max_tokens: 100,
  stream: true,
  messages: [{ role: 'user', content: 'hi' }],
};

describe('model stand-in', () => {
  const t = standInPerTest('evalrig-standin-');
  const start = (script: ModelScript): Promise<string> => t.start(script);

  describe('script', () => {
    const problem = (value: unknown): string => {
      try {
        checkModelScript(value, 'm.json');
      } catch (e) {
        expect(e).to.be.instanceOf(ModelScriptError);
        return (e as Error).message;
      }
      throw new Error('accepted');
    };

    it('names the file and the JSON pointer of the first problem', () => {
      expect(problem({ responses: [{ content: [{ text: 'a' }], usag: {} }] })).to.equal(
        'model script m.json: /responses/0/usag: "usag" is not a field here (it takes description, when, content, stop_reason, usage, stream_error, pings)',
      );
      expect(problem({ responses: [{ error: { status: 502 } }] })).to.equal(
        'model script m.json: /responses/0/error/status: must be one of 400, 401, 403, 404, 413, 429, 500, 503, 529, not 502',
      );
      expect(
        problem({ responses: [{ content: [{ tool_use: { name: 'Bash', input: 'ls' } }] }] }),
      ).to.equal(
        'model script m.json: /responses/0/content/0/tool_use/input: must be an object, not a string',
      );
      expect(
        problem({ responses: [{ content: [{ text: 'a' }], usage: { input_tokens: -1 } }] }),
      ).to.equal(
        'model script m.json: /responses/0/usage/input_tokens: must be a whole number >= 0, not -1',
      );
      expect(
        problem({ responses: [{ when: { contains: [] }, content: [{ text: 'a' }] }] }),
      ).to.equal(
        'model script m.json: /responses/0/when/contains: must be a non-empty array of strings',
      );
      expect(problem({ responses: [] })).to.equal(
        'model script m.json: /responses: must hold at least one response',
      );
      expect(problem([])).to.equal(
        'model script m.json: (document): must be an object, not an array',
      );
    });

    it('says when the file is not JSON, with exit code 2 and no stack for the user', async () => {
      const file = path.join(t.dir(), 'bad.json');
      await writeFile(file, '{"responses": [');
      const e = await loadModelScript(file).then(
        () => null,
        (err: unknown) => err as ModelScriptError,
      );
      expect(e).to.be.instanceOf(ModelScriptError);
      expect(e!.exitCode).to.equal(2);
      expect(e!.message).to.match(/^model script .*bad\.json: \(document\): is not JSON/);
    });

    it('agrees with its JSON Schema on the recorded script and on refused ones', async () => {
      const ajv = new Ajv2020({ allErrors: true, strict: false });
      const validate = ajv.compile(schema);
      const good = await loadModelScript(FIXTURE);
      expect(validate(good), JSON.stringify(validate.errors)).to.equal(true);
      for (const bad of [
        { responses: [{ error: { status: 502 } }] },
        { responses: [{ content: [{ text: 'a', tool_use: { name: 'x', input: {} } }] }] },
        { responses: [{ content: [] }] },
        { responses: [{ error: { status: 429 }, content: [{ text: 'a' }] }] },
      ]) {
        expect(validate(bad), JSON.stringify(bad)).to.equal(false);
        expect(() => checkModelScript(bad, 'b.json')).to.throw(ModelScriptError);
      }
    });
  });

  it('streams a text and a tool_use block as the Messages API does, usage at start and, every field so far, in message_delta', async () => {
    const sock = await start({
      responses: [
        {
          content: [
            { text: 'I will run it.' },
            { tool_use: { name: 'Bash', input: { command: 'git status' } } },
          ],
          usage: {
            input_tokens: 120,
            output_tokens: 33,
            cache_read_input_tokens: 7,
            cache_creation_input_tokens: 5,
          },
        },
      ],
    });
    const answer = await post(sock, '/v1/messages?beta=true', ASK);
    expect(answer.status).to.equal(200);
    expect(answer.headers['content-type']).to.equal('text/event-stream');
    const evs = events(answer.body);
    expect(evs.map((e) => e.event)).to.deep.equal([
      'message_start',
      'ping',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    for (const e of evs) expect(e.data.type).to.equal(e.event);
    const start0 = evs[0]!.data.message as { model: string; usage: Record<string, number> };
    expect(start0.model).to.equal('m-1');
    expect(start0.usage).to.deep.equal({
      input_tokens: 120,
      output_tokens: 1,
      cache_read_input_tokens: 7,
      cache_creation_input_tokens: 5,
    });
    expect(evs[5]!.data.content_block).to.deep.include({ type: 'tool_use', name: 'Bash' });
    expect(JSON.parse((evs[6]!.data.delta as { partial_json: string }).partial_json)).to.deep.equal(
      {
        command: 'git status',
      },
    );
    expect(evs[8]!.data).to.deep.equal({
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: {
        input_tokens: 120,
        output_tokens: 33,
        cache_read_input_tokens: 7,
        cache_creation_input_tokens: 5,
      },
    });
    expect(t.standIn().remaining()).to.equal(0);
  });

  it('answers one JSON message when the request does not stream', async () => {
    const sock = await start({ model: 'scripted', responses: [{ content: [{ text: 'done' }] }] });
    const answer = await post(sock, '/v1/messages', { ...ASK, stream: false });
    expect(answer.status).to.equal(200);
    const message = JSON.parse(answer.body) as Record<string, unknown>;
    expect(message).to.deep.include({
      type: 'message',
      role: 'assistant',
      model: 'scripted',
      stop_reason: 'end_turn',
    });
    expect(message.content).to.deep.equal([{ type: 'text', text: 'done' }]);
  });

  it('answers with the first response not played whose "when" the request text meets, whatever the order of requests', async () => {
    const sock = await start({
      responses: [
        { when: { contains: ['eval: b', 'grade'] }, content: [{ text: 'for b' }] },
        { when: { contains: ['eval: a'] }, content: [{ text: 'for a' }] },
        { content: [{ text: 'for anything' }] },
      ],
    });
    const ask = (text: string) =>
      post(sock, '/v1/messages', {
        ...ASK,
        stream: false,
        system: 'grade this',
        messages: [{ role: 'user', content: [{ type: 'text', text }] }],
      });
    const text = (a: Answer) =>
      (JSON.parse(a.body) as { content: { text: string }[] }).content[0]!.text;
    // Matched on the strings of the request as written (the system prompt and the message), not its JSON escaping.
    expect(text(await ask('eval: a\nline two'))).to.equal('for a');
    expect(text(await ask('eval: b'))).to.equal('for b');
    expect(text(await ask('eval: a'))).to.equal('for anything');
    const none = await ask('eval: a');
    expect(none.status).to.equal(400);
    expect(JSON.parse(none.body).error.message).to.equal(
      'the model script has no response left for request 4 (it holds 3)',
    );
    expect(
      t
        .standIn()
        .requests()
        .map((r) => r.response),
    ).to.deep.equal([1, 0, 2, null]);
  });

  it('says so when responses are left but none fits the request', async () => {
    const sock = await start({
      responses: [{ when: { contains: ['eval: a'] }, content: [{ text: 'for a' }] }],
    });
    const answer = await post(sock, '/v1/messages', { ...ASK, stream: false });
    expect(answer.status).to.equal(400);
    expect(JSON.parse(answer.body).error.message).to.equal(
      'the model script has no response left whose "when" fits request 1 (1 of 1 not played)',
    );
    expect(t.standIn().remaining()).to.equal(1);
  });

  it('plays scripted errors (529 overloaded with retry-after, 400 not to retry) in order, then says the script ran out', async () => {
    const sock = await start({
      responses: [
        { error: { status: 529, retry_after: 0 } },
        { error: { status: 400, message: 'prompt is too long' } },
        { content: [{ text: 'ok' }] },
      ],
    });
    const first = await post(sock, '/v1/messages', ASK);
    expect(first.status).to.equal(529);
    expect(first.headers['retry-after']).to.equal('0');
    expect(JSON.parse(first.body)).to.deep.equal({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
      request_id: 'req_standin_000001',
    });
    expect(first.headers['request-id']).to.equal('req_standin_000001');
    const second = await post(sock, '/v1/messages', ASK);
    expect(second.status).to.equal(400);
    expect(second.headers['x-should-retry']).to.equal('false');
    expect(JSON.parse(second.body).error).to.deep.equal({
      type: 'invalid_request_error',
      message: 'prompt is too long',
    });
    expect((await post(sock, '/v1/messages', ASK)).status).to.equal(200);
    const past = await post(sock, '/v1/messages', ASK);
    expect(past.status).to.equal(400);
    expect(JSON.parse(past.body).error.message).to.equal(
      'the model script has no response left for request 4 (it holds 3)',
    );
    expect(
      t
        .standIn()
        .requests()
        .map((r) => [r.status, r.response]),
    ).to.deep.equal([
      [529, 0],
      [400, 1],
      [200, 2],
      [400, null],
    ]);
  });

  it('records the tool results the agent sent back, and refuses other paths with 404', async () => {
    const sock = await start({ responses: [{ content: [{ text: 'ok' }] }] });
    expect((await post(sock, '/v1/complete', ASK)).status).to.equal(404);
    await post(sock, '/v1/messages', {
      ...ASK,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }] },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't1',
              is_error: true,
              content: [{ type: 'text', text: 'Exit code 1' }],
            },
          ],
        },
      ],
    });
    const [refused, played] = t.standIn().requests();
    expect(refused).to.deep.include({ path: '/v1/complete', status: 404, response: null });
    expect(played).to.deep.include({ messages: 3, status: 200, response: 0 });
    expect(played!.toolResults).to.deep.equal([
      { toolUseId: 't1', isError: true, text: 'Exit code 1' },
    ]);
  });
});

describe('model stand-in: the OpenAI Responses API, from the same script', () => {
  const t = standInPerTest('evalrig-standin-');
  let sock: string;
  beforeEach(async () => {
    sock = await t.start({
      responses: [
        {
          content: [
            { text: 'Running it.' },
            { tool_use: { name: 'shell', input: { command: ['git', 'status'] }, id: 'call_1' } },
          ],
          usage: { input_tokens: 100, output_tokens: 20, cache_read_input_tokens: 50 },
        },
        { error: { status: 529 } },
        { content: [{ text: 'done' }] },
      ],
    });
  });

  it('streams output items, their deltas and response.completed with the usage, numbered in sequence', async () => {
    const answer = await post(sock, '/v1/responses', { model: 'gpt-x', stream: true, input: 'go' });
    expect(answer.status).to.equal(200);
    const evs = events(answer.body);
    expect(evs.map((e) => e.event)).to.deep.equal([
      'response.created',
      'response.in_progress',
      'response.output_item.added',
      'response.content_part.added',
      'response.output_text.delta',
      'response.output_text.done',
      'response.content_part.done',
      'response.output_item.done',
      'response.output_item.added',
      'response.function_call_arguments.delta',
      'response.function_call_arguments.done',
      'response.output_item.done',
      'response.completed',
    ]);
    expect(evs.map((e) => e.data.sequence_number)).to.deep.equal(evs.map((_, i) => i));
    const call = evs[11]!.data.item as Record<string, unknown>;
    expect(call).to.deep.include({ type: 'function_call', call_id: 'call_1', name: 'shell' });
    expect(JSON.parse(call.arguments as string)).to.deep.equal({ command: ['git', 'status'] });
    const done = evs[12]!.data.response as { status: string; model: string; usage: unknown };
    expect(done.status).to.equal('completed');
    expect(done.model).to.equal('gpt-x');
    // The Responses API counts cached tokens inside the input.
    expect(done.usage).to.deep.equal({
      input_tokens: 150,
      input_tokens_details: { cached_tokens: 50 },
      output_tokens: 20,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 170,
    });
  });

  it('answers a scripted 529 as scripted in the OpenAI error shape, then one JSON response; records tool outputs', async () => {
    await post(sock, '/v1/responses', { model: 'gpt-x', stream: true, input: 'go' });
    const overloaded = await post(sock, '/v1/responses', { model: 'gpt-x', input: 'go' });
    expect(overloaded.status).to.equal(529);
    expect(overloaded.headers['x-request-id']).to.match(/^req_standin0+2$/u);
    expect(JSON.parse(overloaded.body)).to.deep.equal({
      error: { message: 'overloaded', type: 'server_error', param: null, code: null },
    });
    const last = await post(sock, '/v1/responses', {
      model: 'gpt-x',
      input: [
        { role: 'user', content: 'go' },
        { type: 'function_call', call_id: 'call_1', name: 'shell', arguments: '{}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'On branch main' },
      ],
    });
    expect(last.status).to.equal(200);
    const body = JSON.parse(last.body) as { object: string; output: unknown[] };
    expect(body.object).to.equal('response');
    expect(body.output).to.deep.equal([
      {
        type: 'message',
        id: 'msg_standin_3_0',
        status: 'completed',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'done', annotations: [] }],
      },
    ]);
    expect(t.standIn().requests()[2]).to.deep.include({ path: '/v1/responses', messages: 3 });
    expect(t.standIn().requests()[2]!.toolResults).to.deep.equal([
      { toolUseId: 'call_1', isError: false, text: 'On branch main' },
    ]);
  });
});
