import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  startModelStandIn,
  type ModelScript,
  type ModelStandIn,
} from '../../../src/model-stand-in/index.js';
import { dataFrames, post } from './http.js';

const SCRIPT: ModelScript = {
  responses: [
    {
      content: [
        { text: 'I will write the notes, then look.' },
        {
          tool_use: { name: 'write_file', input: { file_path: 'n.txt', content: 'x'.repeat(100) } },
        },
        { tool_use: { name: 'run_shell_command', input: { command: 'ls' }, id: 'call_ls' } },
      ],
      usage: { input_tokens: 1000, output_tokens: 40, cache_read_input_tokens: 300 },
    },
    { content: [{ text: 'Done.' }], usage: { input_tokens: 1200, output_tokens: 5 } },
    { error: { status: 429, retry_after: 7 } },
    { error: { status: 529 } },
    { error: { status: 400, message: 'prompt too long' } },
    { content: [{ text: 'cut' }], stop_reason: 'max_tokens' },
  ],
};

interface ToolCall {
  id: string;
  type: string;
  function: { name: string; arguments: string };
}

/**
 * A streamed completion put back together as the OpenAI SDK's ChatCompletionStream does:
 * content deltas appended, tool calls gathered by their `index` (id, type and name from the
 * first delta, argument pieces appended), the finish reason and the usage chunk kept; nothing
 * may follow `[DONE]`.
 */
function assemble(frames: string[]) {
  expect(frames[frames.length - 1]).to.equal('[DONE]');
  let content = '';
  let role: string | undefined;
  let finish: string | null = null;
  let usage: unknown;
  const calls: ToolCall[] = [];
  for (const f of frames.slice(0, -1)) {
    const chunk = JSON.parse(f) as {
      object: string;
      choices: {
        index: number;
        delta: {
          role?: string;
          content?: string;
          tool_calls?: (Partial<ToolCall> & { index: number })[];
        };
        finish_reason: string | null;
      }[];
      usage?: unknown;
    };
    expect(chunk.object).to.equal('chat.completion.chunk');
    if (chunk.usage) usage = chunk.usage;
    for (const choice of chunk.choices) {
      expect(choice.index).to.equal(0);
      role ??= choice.delta.role;
      content += choice.delta.content ?? '';
      finish = choice.finish_reason ?? finish;
      for (const d of choice.delta.tool_calls ?? []) {
        const call = (calls[d.index] ??= {
          id: d.id!,
          type: d.type!,
          function: { name: d.function!.name!, arguments: '' },
        });
        call.function.arguments += d.function?.arguments ?? '';
      }
    }
  }
  return { role, content, finish, calls, usage };
}

describe('model stand-in: OpenAI Chat Completions, from the same script', () => {
  let dir: string;
  let sock: string;
  let standIn: ModelStandIn | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-standin-chat-'));
    sock = path.join(dir, 'model.sock');
    standIn = await startModelStandIn({ script: SCRIPT, listen: { socketPath: sock } });
  });
  afterEach(async () => {
    await standIn?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const ask = (extra: object) => ({
    model: 'qwen3-coder-plus',
    messages: [
      { role: 'system', content: 'You are an agent.' },
      { role: 'user', content: 'write the notes' },
    ],
    ...extra,
  });

  it('streams chunks with tool_calls deltas by index and the usage in a last chunk with no choices', async () => {
    const answer = await post(
      sock,
      '/v1/chat/completions',
      ask({ stream: true, stream_options: { include_usage: true } }),
    );
    expect(answer.status).to.equal(200);
    expect(answer.headers['content-type']).to.equal('text/event-stream');
    const frames = dataFrames(answer.body);
    const chunks = frames.slice(0, -1).map((f) => JSON.parse(f) as Record<string, unknown>);
    // Every chunk carries `usage: null` but the last, which has no choices and the usage.
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).to.equal(true);
    expect(chunks[chunks.length - 1]!.choices).to.deep.equal([]);
    // A tool call's first delta names it (arguments ""), later ones carry only argument pieces.
    const firstCall = chunks.find((c) => JSON.stringify(c).includes('"tool_calls"'))!;
    expect(firstCall.choices).to.deep.equal([
      {
        index: 0,
        delta: {
          tool_calls: [
            {
              index: 0,
              id: 'call_standin_1_1',
              type: 'function',
              function: { name: 'write_file', arguments: '' },
            },
          ],
        },
        logprobs: null,
        finish_reason: null,
      },
    ]);
    const whole = assemble(frames);
    expect(whole).to.deep.equal({
      role: 'assistant',
      content: 'I will write the notes, then look.',
      finish: 'tool_calls',
      calls: [
        {
          id: 'call_standin_1_1',
          type: 'function',
          function: {
            name: 'write_file',
            arguments: JSON.stringify({ file_path: 'n.txt', content: 'x'.repeat(100) }),
          },
        },
        {
          id: 'call_ls',
          type: 'function',
          function: { name: 'run_shell_command', arguments: '{"command":"ls"}' },
        },
      ],
      // Prompt tokens hold the cached ones, as OpenAI counts them.
      usage: {
        prompt_tokens: 1300,
        completion_tokens: 40,
        total_tokens: 1340,
        prompt_tokens_details: { cached_tokens: 300, audio_tokens: 0 },
        completion_tokens_details: {
          reasoning_tokens: 0,
          audio_tokens: 0,
          accepted_prediction_tokens: 0,
          rejected_prediction_tokens: 0,
        },
      },
    });
    expect(standIn!.requests()[0]).to.deep.include({
      path: '/v1/chat/completions',
      model: 'qwen3-coder-plus',
      stream: true,
      messages: 2,
    });
  });

  it('streams no usage chunk unless the request asks for it, and answers one JSON completion when not streaming', async () => {
    await post(sock, '/v1/chat/completions', ask({}));
    const plain = await post(sock, '/v1/chat/completions', ask({ stream: true }));
    const frames = dataFrames(plain.body);
    expect(frames.some((f) => f.includes('"usage"'))).to.equal(false);
    expect(assemble(frames)).to.deep.include({ content: 'Done.', finish: 'stop', calls: [] });
    expect(standIn!.requests().map((r) => r.stream)).to.deep.equal([false, true]);
  });

  it('answers one chat.completion object with the text and the tool calls when not streaming', async () => {
    const answer = await post(sock, '/v1/chat/completions', ask({}));
    expect(answer.headers['content-type']).to.equal('application/json');
    const body = JSON.parse(answer.body) as {
      object: string;
      choices: {
        message: { content: string | null; tool_calls: ToolCall[] };
        finish_reason: string;
      }[];
      usage: { prompt_tokens: number };
    };
    expect(body.object).to.equal('chat.completion');
    expect(body.choices[0]!.finish_reason).to.equal('tool_calls');
    expect(body.choices[0]!.message.content).to.equal('I will write the notes, then look.');
    expect(body.choices[0]!.message.tool_calls.map((c) => c.function.name)).to.deep.equal([
      'write_file',
      'run_shell_command',
    ]);
    expect(body.usage.prompt_tokens).to.equal(1300);
  });

  it('plays errors in the OpenAI shape: 429 with retry-after, 529 as 503, 400 marked not to retry; max_tokens is length', async () => {
    await post(sock, '/v1/chat/completions', ask({}));
    await post(sock, '/v1/chat/completions', ask({}));
    const limited = await post(sock, '/v1/chat/completions', ask({ stream: true }));
    expect(limited.status).to.equal(429);
    expect(limited.headers['retry-after']).to.equal('7');
    expect(JSON.parse(limited.body)).to.deep.equal({
      error: {
        message: 'Rate limit reached for requests. Please try again later.',
        type: 'requests',
        param: null,
        code: 'rate_limit_exceeded',
      },
    });
    const overloaded = await post(sock, '/v1/chat/completions', ask({}));
    expect(overloaded.status).to.equal(503);
    expect((JSON.parse(overloaded.body) as { error: { type: string } }).error.type).to.equal(
      'server_error',
    );
    const bad = await post(sock, '/v1/chat/completions', ask({}));
    expect(bad.status).to.equal(400);
    expect(bad.headers['x-should-retry']).to.equal('false');
    expect((JSON.parse(bad.body) as { error: { message: string } }).error.message).to.equal(
      'prompt too long',
    );
    const cut = await post(sock, '/v1/chat/completions', ask({}));
    expect(
      (JSON.parse(cut.body) as { choices: { finish_reason: string }[] }).choices[0]!.finish_reason,
    ).to.equal('length');
    // Past the script's end: a 400 in this API's shape, never retried.
    const over = await post(sock, '/v1/chat/completions', ask({}));
    expect(over.status).to.equal(400);
    expect((JSON.parse(over.body) as { error: { message: string } }).error.message).to.match(
      /^the model script has no response left for request 7/,
    );
  });

  it('records the tool results after the last assistant message (role "tool")', async () => {
    await post(
      sock,
      '/v1/chat/completions',
      ask({
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: null, tool_calls: [{ id: 'call_a' }, { id: 'call_b' }] },
          { role: 'tool', tool_call_id: 'call_a', content: 'written' },
          { role: 'tool', tool_call_id: 'call_b', content: [{ type: 'text', text: 'n.txt' }] },
        ],
      }),
    );
    expect(standIn!.requests()[0]).to.deep.include({ messages: 4 });
    expect(standIn!.requests()[0]!.toolResults).to.deep.equal([
      { toolUseId: 'call_a', isError: false, text: 'written' },
      { toolUseId: 'call_b', isError: false, text: 'n.txt' },
    ]);
  });
});
