import { expect } from 'chai';
import {
  WIRE_APIS,
  wireApiFor,
  type ResponseFacts,
  type WireApiName,
} from '../../../src/flight/index.js';
import {
  apiMessage,
  responsesObject,
  sseFrames,
  type ScriptMessage,
} from '../../../src/model-stand-in/index.js';
import { sseFramesCut } from '../../../src/model-stand-in/anthropic.js';
import { responsesFrames, responsesFramesFailed } from '../../../src/model-stand-in/openai.js';

/** Reads a body through an API's reader, pushed in pieces of `step` bytes (a stream's chunks). */
function read(
  api: WireApiName,
  body: string,
  {
    status = 200,
    sse = true,
    step = 7,
    cut,
  }: { status?: number; sse?: boolean; step?: number; cut?: string } = {},
): ResponseFacts {
  const reader = WIRE_APIS[api].responseReader({
    status,
    contentType: sse ? 'text/event-stream; charset=utf-8' : 'application/json',
  });
  const bytes = Buffer.from(body);
  for (let i = 0; i < bytes.length; i += step) reader.push(bytes.subarray(i, i + step));
  return reader.end(cut);
}

const MESSAGE: ScriptMessage = {
  content: [{ text: 'I will commit.' }, { tool_use: { name: 'Bash', input: { command: 'ls' } } }],
  usage: {
    input_tokens: 1200,
    output_tokens: 40,
    cache_read_input_tokens: 300,
    cache_creation_input_tokens: 50,
  },
};

describe('flight: each wire API read as its documentation says', () => {
  it('serves each API from its own paths and nothing else', () => {
    expect(wireApiFor('/v1/messages')?.name).to.equal('messages');
    expect(wireApiFor('/v1/responses')?.name).to.equal('responses');
    expect(wireApiFor('/v1/complete')).to.equal(null);
  });

  describe('the Messages API', () => {
    it("a whole stream: complete, its id, text, tool call and usage (the output count is message_delta's, cumulative)", () => {
      const facts = read('messages', sseFrames(apiMessage(MESSAGE, 'claude-x', 1)).join(''));
      expect(facts).to.deep.include({
        outcome: 'complete',
        reason: null,
        id: 'msg_standin_000001',
        model: 'claude-x',
        stopReason: 'tool_use',
        texts: ['I will commit.'],
      });
      expect(facts.toolCalls).to.deep.equal([
        { id: 'toolu_standin_1_1', name: 'Bash', input: '{"command":"ls"}' },
      ]);
      expect(facts.tokens).to.deep.equal({
        input: 1200,
        output: 40,
        cacheRead: 300,
        cacheWrite: 50,
      });
    });

    it('a stream the upstream ends with an error event: cut, with the error type, and the usage message_start gave', () => {
      const frames = sseFramesCut(apiMessage(MESSAGE, 'claude-x', 1), { type: 'overloaded_error' });
      const facts = read('messages', frames.join(''));
      expect(facts).to.deep.include({ outcome: 'cut', reason: 'overloaded_error' });
      // message_start reports the input side and a first output count; nothing came after.
      expect(facts.tokens).to.deep.equal({
        input: 1200,
        output: 1,
        cacheRead: 300,
        cacheWrite: 50,
      });
      expect(facts.toolCalls, 'a tool call whose block never closed is none').to.deep.equal([]);
    });

    it('a stream that just stops: cut, with the reason the gateway gives or "no message_stop"', () => {
      const frames = sseFrames(apiMessage(MESSAGE, 'claude-x', 1))
        .slice(0, 4)
        .join('');
      expect(read('messages', frames).reason).to.equal('no message_stop');
      expect(read('messages', frames, { cut: 'client_gone' }).reason).to.equal('client_gone');
      expect(read('messages', '').reason).to.equal('no message');
    });

    it('a whole JSON answer, and an HTTP error with its type', () => {
      const json = JSON.stringify(apiMessage(MESSAGE, 'claude-x', 2));
      expect(read('messages', json, { sse: false })).to.deep.include({
        outcome: 'complete',
        id: 'msg_standin_000002',
        texts: ['I will commit.'],
      });
      const error = JSON.stringify({
        type: 'error',
        error: { type: 'rate_limit_error', message: 'x' },
      });
      expect(read('messages', error, { status: 429, sse: false })).to.deep.include({
        outcome: 'error',
        reason: 'rate_limit_error',
      });
      expect(read('messages', 'not json', { status: 502, sse: false }).reason).to.equal('http_502');
    });

    it('reads CRLF line ends in chunks of any size, and skips a line past its cap without keeping it', () => {
      const crlf = sseFrames(apiMessage(MESSAGE, 'claude-x', 1))
        .join('')
        .replace(/\n/gu, '\r\n');
      expect(read('messages', crlf, { step: 3 }).outcome).to.equal('complete');
      const huge = `event: ping\ndata: ${'x'.repeat(2 * 1024 * 1024)}\n\n`;
      const facts = read('messages', huge + sseFrames(apiMessage(MESSAGE, 'm', 1)).join(''), {
        step: 65536,
      });
      expect(facts.outcome).to.equal('complete');
    });

    it('reads the request: its model, stream flag, tools, and the tool results marked errors', () => {
      const facts = WIRE_APIS.messages.readRequest({
        model: 'claude-x',
        stream: true,
        tools: [{ name: 'Bash' }],
        messages: [
          { role: 'user', content: 'hi' },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'toolu_1', is_error: true, content: 'boom' },
              { type: 'tool_result', tool_use_id: 'toolu_2', content: 'ok' },
            ],
          },
        ],
      });
      expect(facts).to.deep.equal({
        model: 'claude-x',
        stream: true,
        hasTools: true,
        toolResults: [
          { id: 'toolu_1', isError: true, text: 'boom' },
          { id: 'toolu_2', isError: false, text: 'ok' },
        ],
      });
      expect(WIRE_APIS.messages.readRequest('not an object').hasTools).to.equal(false);
    });
  });

  describe('the Responses API', () => {
    const response = (m: ScriptMessage) => responsesObject(m, 'gpt-x', 1);

    it('response.completed: its usage in the one convention (input without the cached tokens)', () => {
      const facts = read('responses', responsesFrames(response(MESSAGE)).join(''));
      expect(facts).to.deep.include({
        outcome: 'complete',
        id: 'resp_standin_000001',
        texts: ['I will commit.'],
      });
      expect(facts.toolCalls).to.deep.equal([
        { id: 'call_standin_1_1', name: 'Bash', input: '{"command":"ls"}' },
      ]);
      // The stand-in answers input_tokens 1500 with 300 of them cached.
      expect(facts.tokens).to.deep.equal({
        input: 1200,
        output: 40,
        cacheRead: 300,
        cacheWrite: 0,
      });
    });

    it('response.incomplete: incomplete, with its reason, and its usage kept', () => {
      const facts = read(
        'responses',
        responsesFrames(response({ ...MESSAGE, stop_reason: 'max_tokens' })).join(''),
      );
      expect(facts).to.deep.include({ outcome: 'incomplete', reason: 'max_output_tokens' });
      expect(facts.tokens.output).to.equal(40);
    });

    it('response.failed: failed, with its error code; no usage billed (null, never 0)', () => {
      const frames = responsesFramesFailed(response(MESSAGE), { type: 'server_error' });
      const facts = read('responses', frames.join(''));
      expect(facts).to.deep.include({ outcome: 'failed', reason: 'server_error' });
      expect(facts.tokens).to.deep.equal({
        input: null,
        output: null,
        cacheRead: null,
        cacheWrite: null,
      });
    });

    it('an error event, or no terminal event at all: cut', () => {
      const head = responsesFrames(response(MESSAGE)).slice(0, 2).join('');
      const error = `event: error\ndata: ${JSON.stringify({ type: 'error', code: 'rate_limit_exceeded', message: 'slow down', sequence_number: 2 })}\n\n`;
      expect(read('responses', head + error)).to.deep.include({
        outcome: 'cut',
        reason: 'rate_limit_exceeded',
      });
      expect(read('responses', head)).to.deep.include({
        outcome: 'cut',
        reason: 'no terminal event',
      });
    });

    it('a whole JSON response, and an HTTP error with its type', () => {
      const json = JSON.stringify({ ...response(MESSAGE), status: 'completed' });
      expect(read('responses', json, { sse: false }).outcome).to.equal('complete');
      const error = JSON.stringify({
        error: { message: 'x', type: 'invalid_request_error', code: null },
      });
      expect(read('responses', error, { status: 400, sse: false })).to.deep.include({
        outcome: 'error',
        reason: 'invalid_request_error',
      });
    });

    it('reads the request: the newest tool outputs (after the last call), unmarked', () => {
      const facts = WIRE_APIS.responses.readRequest({
        model: 'gpt-x',
        stream: true,
        tools: [{ type: 'function', name: 'exec_command' }],
        input: [
          { type: 'function_call', call_id: 'c1', name: 'exec_command', arguments: '{}' },
          { type: 'function_call_output', call_id: 'c1', output: 'old' },
          { type: 'function_call', call_id: 'c2', name: 'exec_command', arguments: '{}' },
          { type: 'function_call_output', call_id: 'c2', output: 'new' },
        ],
      });
      expect(facts.toolResults).to.deep.equal([{ id: 'c2', isError: null, text: 'new' }]);
      expect(facts.hasTools).to.equal(true);
    });
  });
});
