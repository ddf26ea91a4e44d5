import { expect } from 'chai';
import {
  pathMatches,
  WIRE_APIS,
  wireApiFor,
  type ResponseFacts,
  type WireApiName,
} from '../../../src/flight/index.js';
import type { ScriptMessage } from '../../../src/model-stand-in/index.js';
import {
  chatCompletion,
  chatError,
  chatFrames,
  chatFramesCut,
} from '../../../src/model-stand-in/chat.js';
import {
  geminiError,
  geminiFrames,
  geminiFramesCut,
  geminiResponse,
} from '../../../src/model-stand-in/gemini.js';

/** Reads a body through an API's reader, pushed in pieces of `step` bytes (a stream's chunks). */
function read(
  api: WireApiName,
  body: string,
  { status = 200, sse = true, step = 7 }: { status?: number; sse?: boolean; step?: number } = {},
): ResponseFacts {
  const reader = WIRE_APIS[api].responseReader({
    status,
    contentType: sse ? 'text/event-stream' : 'application/json; charset=UTF-8',
  });
  const bytes = Buffer.from(body);
  for (let i = 0; i < bytes.length; i += step) reader.push(bytes.subarray(i, i + step));
  return reader.end();
}

const LONG = 'I will write the notes file and then commit it on a branch of its own. '.repeat(3);
const MESSAGE: ScriptMessage = {
  content: [
    { text: LONG },
    { tool_use: { id: 'call_1', name: 'run_shell_command', input: { command: 'ls' } } },
    { tool_use: { id: 'call_2', name: 'write_file', input: { file_path: 'a', content: 'b' } } },
  ],
  usage: { input_tokens: 1200, output_tokens: 40, cache_read_input_tokens: 300 },
};
const TOKENS = { input: 1200, output: 40, cacheRead: 300, cacheWrite: 0 };

describe('flight: Chat Completions and Gemini read as their documentation says', () => {
  it('serves each from its own paths, Gemini with the model as one path segment', () => {
    expect(wireApiFor('/v1/chat/completions')?.name).to.equal('chat');
    expect(wireApiFor('/v1beta/models/gemini-2.5-pro:streamGenerateContent')?.name).to.equal(
      'gemini',
    );
    expect(wireApiFor('/v1beta/models/gemini-2.5-pro:generateContent')?.name).to.equal('gemini');
    expect(wireApiFor('/v1beta/models/gemini-2.5-pro:countTokens')).to.equal(null);
    expect(wireApiFor('/v1beta/models/../x:generateContent')).to.equal(null);
    expect(
      pathMatches(['/v1beta/models/{model}:generateContent'], '/v1beta/models/:generateContent'),
    ).to.equal(false);
    expect([WIRE_APIS.chat.auth, WIRE_APIS.gemini.auth]).to.deep.equal([
      'bearer',
      'x-goog-api-key',
    ]);
  });

  describe('Chat Completions', () => {
    const completion = chatCompletion(MESSAGE, 'qwen3-coder-plus', 3);

    it('a whole stream with the usage chunk: complete, id, one text, both tool calls in order, tokens without the cached part', () => {
      const facts = read('chat', chatFrames(completion, true).join(''));
      expect(facts).to.deep.include({
        outcome: 'complete',
        reason: null,
        id: 'chatcmpl-standin000003',
        model: 'qwen3-coder-plus',
        stopReason: 'tool_calls',
        texts: [LONG],
        tokens: TOKENS,
      });
      expect(facts.toolCalls).to.deep.equal([
        { id: 'call_1', name: 'run_shell_command', input: '{"command":"ls"}' },
        { id: 'call_2', name: 'write_file', input: '{"file_path":"a","content":"b"}' },
      ]);
    });

    it('a stream without the usage chunk reports no tokens; one without a finish_reason is cut', () => {
      expect(read('chat', chatFrames(completion, false).join('')).tokens.input).to.equal(null);
      const frames = chatFrames(completion, false);
      const cut = read('chat', frames.slice(0, 3).join(''));
      expect([cut.outcome, cut.reason, cut.toolCalls]).to.deep.equal([
        'cut',
        'no finish_reason',
        [],
      ]);
    });

    it('an error chunk mid-stream cuts the call with its type', () => {
      const facts = read('chat', chatFramesCut(completion, { type: 'overloaded_error' }).join(''));
      expect([facts.outcome, facts.reason]).to.deep.equal(['cut', 'overloaded_error']);
    });

    it('a whole completion and an HTTP error', () => {
      const whole = read('chat', JSON.stringify(completion), { sse: false });
      expect(whole).to.deep.include({ outcome: 'complete', texts: [LONG], tokens: TOKENS });
      expect(whole.toolCalls.map((t) => t.name)).to.deep.equal(['run_shell_command', 'write_file']);
      const e = chatError({ status: 400, message: 'script used up' });
      const err = read('chat', e.body, { status: 400, sse: false });
      expect([err.outcome, err.reason]).to.deep.equal(['error', 'invalid_request_error']);
    });

    it("a request's tool results are its trailing tool messages (no error mark in this API)", () => {
      const facts = WIRE_APIS.chat.readRequest({
        model: 'm',
        stream: true,
        tools: [{ type: 'function', function: { name: 'x' } }],
        messages: [
          { role: 'tool', tool_call_id: 'old' },
          { role: 'assistant', content: null },
          { role: 'tool', tool_call_id: 'call_1', content: 'ok' },
          { role: 'tool', tool_call_id: 'call_2', content: 'ok' },
        ],
      });
      expect(facts).to.deep.equal({
        model: 'm',
        stream: true,
        hasTools: true,
        toolResults: [
          { id: 'call_1', isError: null, text: 'ok' },
          { id: 'call_2', isError: null, text: 'ok' },
        ],
      });
    });
  });

  describe('Gemini', () => {
    const plain: ScriptMessage = {
      ...MESSAGE,
      content: MESSAGE.content.map((b) =>
        'tool_use' in b ? { tool_use: { name: b.tool_use.name, input: b.tool_use.input } } : b,
      ),
    };
    const response = geminiResponse(plain, 'gemini-2.5-pro', 4);

    it('a whole stream (CRLF frames, text in pieces): complete, one text, calls without ids, the last usage', () => {
      const facts = read('gemini', geminiFrames(response).join(''));
      expect(facts).to.deep.include({
        outcome: 'complete',
        id: 'standin000004',
        model: 'gemini-2.5-pro',
        stopReason: 'STOP',
        texts: [LONG],
        tokens: TOKENS,
      });
      expect(facts.toolCalls).to.deep.equal([
        { id: null, name: 'run_shell_command', input: '{"command":"ls"}' },
        { id: null, name: 'write_file', input: '{"file_path":"a","content":"b"}' },
      ]);
    });

    it('a stream without a finishReason is cut; an error event cuts it with its status', () => {
      const frames = geminiFrames(response);
      expect(read('gemini', frames.slice(0, 1).join('')).outcome).to.equal('cut');
      const cut = read('gemini', geminiFramesCut(response, { type: 'overloaded_error' }).join(''));
      expect([cut.outcome, cut.reason]).to.deep.equal(['cut', 'UNAVAILABLE']);
    });

    it('a whole response, and an HTTP error named by its google.rpc status', () => {
      const whole = read('gemini', JSON.stringify(response), { sse: false });
      expect(whole).to.deep.include({ outcome: 'complete', texts: [LONG], tokens: TOKENS });
      const e = geminiError({ status: 429 });
      const err = read('gemini', e.body, { status: 429, sse: false });
      expect([err.outcome, err.reason]).to.deep.equal(['error', 'RESOURCE_EXHAUSTED']);
    });

    it('a request: the model and streaming from its path, tools, and its function responses', () => {
      const facts = WIRE_APIS.gemini.readRequest(
        {
          contents: [
            { role: 'user', parts: [{ text: 'go' }] },
            { role: 'user', parts: [{ functionResponse: { id: 'g-1', name: 'x', response: {} } }] },
          ],
          tools: [{ functionDeclarations: [{ name: 'x' }] }],
        },
        '/v1beta/models/gemini-2.5-pro:streamGenerateContent',
      );
      expect(facts).to.deep.equal({
        model: 'gemini-2.5-pro',
        stream: true,
        hasTools: true,
        toolResults: [{ id: 'g-1', isError: null, name: 'x', text: '{}' }],
      });
    });
  });
});
