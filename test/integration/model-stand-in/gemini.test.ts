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
        { text: 'I will write the notes. '.repeat(4) },
        { tool_use: { name: 'write_file', input: { file_path: 'n.txt', content: 'offline' } } },
      ],
      usage: { input_tokens: 1000, output_tokens: 40, cache_read_input_tokens: 300 },
    },
    {
      content: [{ tool_use: { name: 'run_shell_command', input: { command: 'ls' }, id: 'c1' } }],
      usage: { input_tokens: 10, output_tokens: 2 },
    },
    { error: { status: 429, retry_after: 30 } },
    { error: { status: 529 } },
    { error: { status: 500 } },
    { content: [{ text: 'cut' }], stop_reason: 'max_tokens' },
  ],
};

interface Part {
  text?: string;
  functionCall?: { name: string; args: unknown; id?: string };
}
interface Chunk {
  candidates: { content: { parts: Part[]; role: string }; finishReason?: string }[];
  usageMetadata: Record<string, unknown>;
  modelVersion: string;
  responseId: string;
}

const STREAM = '/v1beta/models/gemini-2.5-pro:streamGenerateContent?alt=sse';
const ONCE = '/v1beta/models/gemini-2.5-pro:generateContent';
const ASK = { contents: [{ role: 'user', parts: [{ text: 'write the notes' }] }] };

describe('model stand-in: the Gemini API, from the same script', () => {
  let dir: string;
  let sock: string;
  let standIn: ModelStandIn | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-standin-gemini-'));
    sock = path.join(dir, 'model.sock');
    standIn = await startModelStandIn({ script: SCRIPT, listen: { socketPath: sock } });
  });
  afterEach(async () => {
    await standIn?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('streams alt=sse chunks: text in pieces, the function call whole, finish reason and usage last', async () => {
    const answer = await post(sock, STREAM, ASK);
    expect(answer.status).to.equal(200);
    expect(answer.headers['content-type']).to.equal('text/event-stream');
    // Frames end with CRLF CRLF, as Google's servers write them.
    expect(answer.body.endsWith('}\r\n\r\n')).to.equal(true);
    const chunks = dataFrames(answer.body).map((f) => JSON.parse(f) as Chunk);
    expect(chunks.length).to.equal(3);
    const parts = chunks.flatMap((c) => c.candidates[0]!.content.parts);
    expect(parts.map((p) => p.text ?? '').join('')).to.equal('I will write the notes. '.repeat(4));
    expect(parts.filter((p) => p.functionCall)).to.deep.equal([
      { functionCall: { name: 'write_file', args: { file_path: 'n.txt', content: 'offline' } } },
    ]);
    expect(chunks.map((c) => c.candidates[0]!.finishReason)).to.deep.equal([
      undefined,
      undefined,
      'STOP',
    ]);
    expect(chunks.every((c) => c.candidates[0]!.content.role === 'model')).to.equal(true);
    expect(new Set(chunks.map((c) => c.responseId)).size).to.equal(1);
    expect(chunks[0]!.modelVersion).to.equal('gemini-2.5-pro');
    // The prompt count holds the cached tokens, named again in cachedContentTokenCount.
    expect(chunks[2]!.usageMetadata).to.deep.equal({
      promptTokenCount: 1300,
      candidatesTokenCount: 40,
      totalTokenCount: 1340,
      cachedContentTokenCount: 300,
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: 1300 }],
    });
    expect(standIn!.requests()[0]).to.deep.include({
      path: '/v1beta/models/gemini-2.5-pro:streamGenerateContent',
      model: 'gemini-2.5-pro',
      stream: true,
      messages: 1,
    });
  });

  it('answers generateContent with one response, keeps a scripted call id, and records functionResponse parts', async () => {
    await post(sock, STREAM, ASK);
    const answer = await post(sock, ONCE, {
      contents: [
        ...ASK.contents,
        { role: 'model', parts: [{ functionCall: { name: 'write_file', args: {} } }] },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'w1', name: 'write_file', response: { output: 'ok' } } },
            { functionResponse: { name: 'read_file', response: { error: 'no such file' } } },
          ],
        },
      ],
    });
    expect(answer.headers['content-type']).to.equal('application/json');
    const body = JSON.parse(answer.body) as Chunk;
    expect(body.candidates[0]!.content.parts).to.deep.equal([
      { functionCall: { name: 'run_shell_command', args: { command: 'ls' }, id: 'c1' } },
    ]);
    expect(body.candidates[0]!.finishReason).to.equal('STOP');
    expect(body.usageMetadata).to.not.have.property('cachedContentTokenCount');
    const seen = standIn!.requests()[1]!;
    expect(seen).to.deep.include({ stream: false, messages: 3 });
    expect(seen.toolResults).to.deep.equal([
      { toolUseId: 'w1', isError: false, text: 'ok' },
      { toolUseId: 'read_file', isError: true, text: 'no such file' },
    ]);
  });

  it('plays errors as google.rpc statuses: 429 with RetryInfo, 529 as 503 UNAVAILABLE, 500 INTERNAL; MAX_TOKENS', async () => {
    await post(sock, STREAM, ASK);
    await post(sock, STREAM, ASK);
    const limited = await post(sock, STREAM, ASK);
    expect(limited.status).to.equal(429);
    expect(limited.headers['retry-after']).to.equal(undefined);
    expect(JSON.parse(limited.body)).to.deep.equal({
      error: {
        code: 429,
        message: 'Resource has been exhausted (e.g. check quota).',
        status: 'RESOURCE_EXHAUSTED',
        details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '30s' }],
      },
    });
    const overloaded = await post(sock, STREAM, ASK);
    expect(overloaded.status).to.equal(503);
    expect(JSON.parse(overloaded.body)).to.deep.equal({
      error: {
        code: 503,
        message: 'The model is overloaded. Please try again later.',
        status: 'UNAVAILABLE',
      },
    });
    const internal = await post(sock, ONCE, ASK);
    expect(internal.status).to.equal(500);
    expect((JSON.parse(internal.body) as { error: { status: string } }).error.status).to.equal(
      'INTERNAL',
    );
    const cut = await post(sock, ONCE, ASK);
    expect((JSON.parse(cut.body) as Chunk).candidates[0]!.finishReason).to.equal('MAX_TOKENS');
    const over = await post(sock, STREAM, ASK);
    expect(over.status).to.equal(400);
    expect((JSON.parse(over.body) as { error: { status: string } }).error.status).to.equal(
      'INVALID_ARGUMENT',
    );
  });

  it('answers streamGenerateContent without alt=sse as one JSON array, under any API version', async () => {
    const answer = await post(sock, '/v1/models/gemini-x:streamGenerateContent', ASK);
    expect(answer.status).to.equal(200);
    const body = JSON.parse(answer.body) as Chunk[];
    expect(body).to.have.length(1);
    expect(body[0]!.modelVersion).to.equal('gemini-x');
    const wrong = await post(sock, '/v1beta/models/gemini-x:countTokens', ASK);
    expect(wrong.status).to.equal(404);
  });
});
