/**
 * The shapes the APIs document beyond text and tool calls, played by the stand-in over HTTP
 * and read back through the host's own wire readers (src/flight): thinking, redacted thinking
 * and server tools, pings between deltas, pause_turn and refusal, the running usage of
 * message_delta, the documented error types with their request ids, rate-limit headers; for
 * the Responses API reasoning items with summaries, the `error` event, a 529 as scripted.
 * What the real binaries make of them: test/e2e/claude-code.test.ts and codex.test.ts.
 */
import { expect } from 'chai';
import { WIRE_APIS, type ResponseFacts, type WireApiName } from '../../../src/flight/index.js';
import { learntLimits } from '../../../src/gateway/index.js';
import type { ModelScript } from '../../../src/model-stand-in/index.js';
import { post, standInPerTest, type Answer } from './http.js';

/** The SSE frames as [event, data] pairs. */
function events(body: string): { event: string; data: Record<string, unknown> }[] {
  return body
    .split('\n\n')
    .filter((f) => f.trim() !== '')
    .map((frame) => {
      const [ev, data] = frame.split('\n');
      return { event: ev!.slice(7), data: JSON.parse(data!.slice(6)) as Record<string, unknown> };
    });
}

/** What the host's reader of `api` makes of an answer, as the gateway hands it over. */
function witnessed(api: WireApiName, a: Answer): ResponseFacts {
  const reader = WIRE_APIS[api].responseReader({
    status: a.status,
    contentType: String(a.headers['content-type']),
  });
  reader.push(Buffer.from(a.body));
  return reader.end(undefined);
}

const ASK = {
  model: 'm-1',
  max_tokens: 100,
  stream: true,
  messages: [{ role: 'user', content: 'hi' }],
};
const ASK_RESPONSES = { model: 'gpt-x', stream: true, input: 'go' };
const ASK_CHAT = { model: 'gpt-x', stream: true, messages: [{ role: 'user', content: 'hi' }] };
const ASK_GEMINI = { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] };
const GEMINI_PATH = '/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse';
/** The error statuses a script may ask beyond 400, 429 and 500. */
const SCRIPTED = [401, 403, 404, 413, 503, 529] as const;

describe('model stand-in: the shapes the APIs document, read back by the host', () => {
  const t = standInPerTest('evalrig-shapes-');
  const start = (script: ModelScript): Promise<string> => t.start(script);

  it('Messages: thinking, redacted thinking and a server tool streamed with pings between deltas, paused with pause_turn', async () => {
    const sock = await start({
      responses: [
        {
          content: [
            { thinking: 'Search first.' },
            { redacted_thinking: 'EmwKAhgBEgy3va3pzix' },
            { server_tool_use: { name: 'web_search', input: { query: 'evalrig' } } },
          ],
          stop_reason: 'pause_turn',
          pings: true,
          usage: { input_tokens: 40, output_tokens: 9, cache_read_input_tokens: 3 },
        },
      ],
    });
    const answer = await post(sock, '/v1/messages', ASK);
    const evs = events(answer.body);
    const delta = (e: { data: Record<string, unknown> }) =>
      (e.data.delta as { type?: string } | undefined)?.type;
    expect(evs.map((e) => (e.event === 'content_block_delta' ? delta(e) : e.event))).to.deep.equal([
      'message_start',
      'ping',
      'content_block_start',
      'thinking_delta',
      'ping',
      'signature_delta',
      'ping',
      'content_block_stop',
      'content_block_start',
      'content_block_stop',
      'content_block_start',
      'input_json_delta',
      'ping',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    expect(evs[2]!.data.content_block).to.deep.equal({
      type: 'thinking',
      thinking: '',
      signature: '',
    });
    expect((evs[5]!.data.delta as { signature: string }).signature)
      .to.be.a('string')
      .and.not.equal('');
    // Redacted thinking comes whole in its start, with no delta.
    expect(evs[8]!.data.content_block).to.deep.equal({
      type: 'redacted_thinking',
      data: 'EmwKAhgBEgy3va3pzix',
    });
    expect(evs[10]!.data.content_block).to.deep.include({
      type: 'server_tool_use',
      name: 'web_search',
      input: {},
    });
    expect((evs[10]!.data.content_block as { id: string }).id).to.match(/^srvtoolu_/u);
    expect(evs[14]!.data).to.deep.equal({
      type: 'message_delta',
      delta: { stop_reason: 'pause_turn', stop_sequence: null },
      usage: {
        input_tokens: 40,
        output_tokens: 9,
        cache_read_input_tokens: 3,
        cache_creation_input_tokens: 0,
        server_tool_use: { web_search_requests: 1 },
      },
    });
    expect(answer.headers['request-id']).to.equal('req_standin_000001');
    // The host: a complete call, paused; the server's tool is no tool call of the agent.
    const facts = witnessed('messages', answer);
    expect(facts).to.deep.include({ outcome: 'complete', stopReason: 'pause_turn', toolCalls: [] });
    expect(facts.tokens).to.deep.equal({ input: 40, output: 9, cacheRead: 3, cacheWrite: 0 });
    // The search is read from the usage, to be billed apart from the tokens.
    expect(facts.serverTools).to.deep.equal({ webSearch: 1, webFetch: 0 });
  });

  it('Messages: a refusal ends the answer with stop_reason refusal, whole or streamed', async () => {
    const refusal = {
      content: [{ text: 'I cannot help with that.' }],
      stop_reason: 'refusal',
    } as const;
    const sock = await start({ responses: [refusal, refusal] });
    const whole = await post(sock, '/v1/messages', { ...ASK, stream: false });
    expect(JSON.parse(whole.body)).to.deep.include({ stop_reason: 'refusal' });
    expect(witnessed('messages', whole)).to.deep.include({
      outcome: 'complete',
      stopReason: 'refusal',
    });
    const streamed = witnessed('messages', await post(sock, '/v1/messages', ASK));
    expect(streamed).to.deep.include({
      stopReason: 'refusal',
      texts: ['I cannot help with that.'],
    });
  });

  it('Messages: 401, 403, 404 and 413 with the documented error types, request_id in body and header, not to be retried', async () => {
    const statuses = [401, 403, 404, 413] as const;
    const sock = await start({ responses: statuses.map((status) => ({ error: { status } })) });
    const types = [];
    for (const [i, status] of statuses.entries()) {
      const a = await post(sock, '/v1/messages', ASK);
      expect(a.status).to.equal(status);
      const id = `req_standin_00000${i + 1}`;
      expect(a.headers).to.deep.include({ 'request-id': id, 'x-should-retry': 'false' });
      const body = JSON.parse(a.body) as {
        type: string;
        error: { type: string };
        request_id: string;
      };
      expect(body).to.deep.include({ type: 'error', request_id: id });
      types.push(body.error.type);
      expect(witnessed('messages', a)).to.deep.include({ outcome: 'error' });
    }
    expect(types).to.deep.equal([
      'authentication_error',
      'permission_error',
      'not_found_error',
      'request_too_large',
    ]);
    // The stand-in's own refusals are typed the same way.
    const other = await post(sock, '/v1/complete', ASK);
    expect(other.status).to.equal(404);
    expect(JSON.parse(other.body).error.type).to.equal('not_found_error');
    expect(other.headers['request-id']).to.equal('req_standin_000005');
  });

  it('states its rate limits in the headers each API uses, which the gateway learns from', async () => {
    const sock = await start({
      rate_limits: { requests_per_minute: 50, tokens_per_minute: 10_000 },
      responses: [
        { content: [{ text: 'a' }], usage: { input_tokens: 900, output_tokens: 100 } },
        { content: [{ text: 'b' }], usage: { input_tokens: 900, output_tokens: 100 } },
        { error: { status: 429, retry_after: 7 } },
      ],
    });
    const first = await post(sock, '/v1/messages', ASK);
    expect(first.headers).to.deep.include({
      'anthropic-ratelimit-requests-limit': '50',
      'anthropic-ratelimit-requests-remaining': '49',
      'anthropic-ratelimit-tokens-limit': '10000',
      'anthropic-ratelimit-tokens-remaining': '9000',
    });
    const reset = Date.parse(String(first.headers['anthropic-ratelimit-requests-reset']));
    expect(reset - Date.now()).to.be.within(55_000, 60_000);
    const second = await post(sock, '/v1/responses', ASK_RESPONSES);
    expect(second.headers).to.deep.include({
      'x-ratelimit-limit-requests': '50',
      'x-ratelimit-remaining-requests': '48',
      'x-ratelimit-remaining-tokens': '8000',
    });
    expect(second.headers['x-ratelimit-reset-requests']).to.match(/^(\d+m)?\d+s$/u);
    const limited = await post(sock, '/v1/messages', ASK);
    expect(limited.status).to.equal(429);
    expect(limited.headers).to.deep.include({
      'retry-after': '7',
      'anthropic-ratelimit-requests-remaining': '0',
    });
    expect(learntLimits(first.headers)).to.deep.equal({
      requestsPerMinute: 50,
      tokensPerMinute: 10_000,
    });
    const learnt = learntLimits(limited.headers);
    expect(learnt.exhaustedForMs).to.be.within(50_000, 60_000);
  });

  it('Responses: reasoning items with their summary streamed, redacted thinking as encrypted content', async () => {
    const sock = await start({
      responses: [
        {
          content: [
            { thinking: 'Look at the tree.' },
            { redacted_thinking: 'gAAAAB' },
            { text: 'Done.' },
          ],
          usage: { input_tokens: 10, output_tokens: 5 },
        },
      ],
    });
    const answer = await post(sock, '/v1/responses', ASK_RESPONSES);
    expect(answer.headers['x-request-id']).to.match(/^req_standin0+1$/u);
    const evs = events(answer.body);
    expect(evs.slice(2, 9).map((e) => e.event)).to.deep.equal([
      'response.output_item.added',
      'response.reasoning_summary_part.added',
      'response.reasoning_summary_text.delta',
      'response.reasoning_summary_text.done',
      'response.reasoning_summary_part.done',
      'response.output_item.done',
      'response.output_item.added',
    ]);
    expect(evs[4]!.data).to.deep.include({
      summary_index: 0,
      delta: 'Look at the tree.',
      output_index: 0,
    });
    const done = evs[evs.length - 1]!.data.response as { output: Record<string, unknown>[] };
    expect(done.output.slice(0, 2)).to.deep.equal([
      {
        type: 'reasoning',
        id: 'rs_standin_1_0',
        summary: [{ type: 'summary_text', text: 'Look at the tree.' }],
        encrypted_content: null,
      },
      { type: 'reasoning', id: 'rs_standin_1_1', summary: [], encrypted_content: 'gAAAAB' },
    ]);
    expect(evs.map((e) => e.data.sequence_number)).to.deep.equal(evs.map((_, i) => i));
    expect(witnessed('responses', answer)).to.deep.include({
      outcome: 'complete',
      texts: ['Done.'],
    });
  });

  it('Responses: an error event cuts the stream; a 529 and a 401 are answered as scripted, with x-request-id', async () => {
    const sock = await start({
      responses: [
        {
          content: [{ text: 'x' }],
          stream_error: { type: 'server_error', event: 'error', message: 'boom' },
        },
        { error: { status: 529 } },
        { error: { status: 401 } },
      ],
    });
    const cut = await post(sock, '/v1/responses', ASK_RESPONSES);
    const evs = events(cut.body);
    expect(evs.map((e) => e.event)).to.deep.equal([
      'response.created',
      'response.in_progress',
      'error',
    ]);
    expect(evs[2]!.data).to.deep.equal({
      type: 'error',
      sequence_number: 2,
      code: 'server_error',
      message: 'boom',
      param: null,
    });
    expect(witnessed('responses', cut)).to.deep.include({ outcome: 'cut', reason: 'server_error' });
    const overloaded = await post(sock, '/v1/responses', ASK_RESPONSES);
    expect(overloaded.status).to.equal(529);
    const denied = await post(sock, '/v1/responses', ASK_RESPONSES);
    expect(denied.status).to.equal(401);
    expect(JSON.parse(denied.body).error).to.deep.include({ code: 'invalid_api_key' });
    expect(denied.headers['x-request-id']).to.match(/^req_standin0+3$/u);
  });

  it("Chat Completions: 401, 403, 404, 413, 503 and 529 in OpenAI's error object with its types and codes, and x-request-id", async () => {
    const sock = await start({ responses: SCRIPTED.map((status) => ({ error: { status } })) });
    const seen = [];
    for (const [i, status] of SCRIPTED.entries()) {
      const a = await post(sock, '/v1/chat/completions', ASK_CHAT);
      const { error } = JSON.parse(a.body) as { error: Record<string, unknown> };
      expect(Object.keys(error).sort()).to.deep.equal(['code', 'message', 'param', 'type']);
      expect(a.headers['x-request-id']).to.equal(`req_standin${String(i + 1).padStart(26, '0')}`);
      const facts = witnessed('chat', a);
      expect(facts.outcome, String(status)).to.equal('error');
      seen.push([a.status, error.type, error.code, facts.reason]);
    }
    expect(seen).to.deep.equal([
      [401, 'invalid_request_error', 'invalid_api_key', 'invalid_request_error'],
      [403, 'request_forbidden', 'unsupported_country_region_territory', 'request_forbidden'],
      [404, 'invalid_request_error', 'model_not_found', 'invalid_request_error'],
      [413, 'invalid_request_error', null, 'invalid_request_error'],
      [503, 'server_error', null, 'server_error'],
      // OpenAI has no 529: its overload is a 503.
      [503, 'server_error', null, 'server_error'],
    ]);
  });

  it('Gemini: 401, 403, 404, 413, 503 and 529 with google.rpc status names, as the API answers them', async () => {
    const sock = await start({
      responses: [
        ...SCRIPTED.map((status) => ({ error: { status } })),
        { error: { status: 429, retry_after: 9 } },
      ],
    });
    const seen = [];
    for (const status of [...SCRIPTED, 429]) {
      const a = await post(sock, GEMINI_PATH, ASK_GEMINI);
      const { error } = JSON.parse(a.body) as { error: { code: number; status: string } };
      expect(error.code, String(status)).to.equal(a.status);
      const facts = witnessed('gemini', a);
      expect(facts.outcome, String(status)).to.equal('error');
      seen.push([a.status, error.status, facts.reason]);
    }
    expect(seen).to.deep.equal([
      [401, 'UNAUTHENTICATED', 'UNAUTHENTICATED'],
      [403, 'PERMISSION_DENIED', 'PERMISSION_DENIED'],
      [404, 'NOT_FOUND', 'NOT_FOUND'],
      // The API has no 413: a request over its size limit is a 400.
      [400, 'INVALID_ARGUMENT', 'INVALID_ARGUMENT'],
      [503, 'UNAVAILABLE', 'UNAVAILABLE'],
      [503, 'UNAVAILABLE', 'UNAVAILABLE'],
      [429, 'RESOURCE_EXHAUSTED', 'RESOURCE_EXHAUSTED'],
    ]);
  });
});
