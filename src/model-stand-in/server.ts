import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listen } from '../host-server/index.js';
import {
  apiError,
  apiMessage,
  requestId,
  sseFrames,
  sseFramesCut,
  standInError,
} from './anthropic.js';
import {
  failedResponse,
  openaiRequestId,
  responsesError,
  responsesFrames,
  responsesFramesFailed,
  responsesObject,
} from './openai.js';
import {
  chatCompletion,
  chatCutWhole,
  chatError,
  chatFrames,
  chatFramesCut,
  chatRequest,
} from './chat.js';
import {
  geminiCutWhole,
  geminiError,
  geminiFrames,
  geminiFramesCut,
  geminiRequest,
  geminiResponse,
} from './gemini.js';
import { ScriptPlayer, requestText } from './player.js';
import { RateWindow } from './rate-limits.js';
import type { ModelScript, ScriptErrorAnswer, ScriptMessage } from './script.js';
import type { SeenRequest, StandInRequest } from './request.js';

/** Where the stand-in listens: a Unix socket, or a loopback TCP port (0: any free one). */
export type StandInListen = { readonly socketPath: string } | { readonly port: number };

export interface ModelStandInOptions {
  readonly script: ModelScript;
  readonly listen: StandInListen;
  /** A request body larger than this is answered 413 (default 32 MiB). */
  readonly maxRequestBytes?: number;
}

export interface ModelStandIn {
  /** `http://127.0.0.1:PORT` for a TCP stand-in; `http://localhost` for a socket one. */
  readonly url: string;
  readonly socketPath: string | null;
  requests(): StandInRequest[];
  /** Scripted responses not played yet. */
  remaining(): number;
  close(): Promise<void>;
}

const MESSAGES_PATH = '/v1/messages';
const RESPONSES_PATH = '/v1/responses';
const CHAT_PATH = '/v1/chat/completions';
/** Gemini's two methods, under whichever API version the client names. */
const GEMINI_PATH =
  /^\/(v1|v1beta|v1alpha)\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/** The wire APIs the stand-in plays, each from the same script. */
type Api = 'messages' | 'responses' | 'chat' | 'gemini';

function apiOf(pathname: string): Api | null {
  if (pathname === MESSAGES_PATH) return 'messages';
  if (pathname === RESPONSES_PATH) return 'responses';
  if (pathname === CHAT_PATH) return 'chat';
  return GEMINI_PATH.test(pathname) ? 'gemini' : null;
}

/** A scripted error in the API's own shape, with the request's id where the API gives one. */
function errorAnswer(api: Api, error: ScriptErrorAnswer['error'], n: number) {
  if (api === 'messages') return apiError(error, requestId(n));
  if (api === 'responses') return responsesError(error, openaiRequestId(n));
  return api === 'chat' ? chatError(error, openaiRequestId(n)) : geminiError(error);
}

/** The header that names each request: `request-id` (Anthropic), `x-request-id` (OpenAI). */
function idHeader(api: Api | null, n: number): [string, string] | null {
  if (api === null || api === 'messages') return ['request-id', requestId(n)];
  return api === 'gemini' ? null : ['x-request-id', openaiRequestId(n)];
}

/**
 * Plays a model script as the Anthropic Messages API, the OpenAI Responses API, OpenAI Chat
 * Completions and the Gemini API: each `POST /v1/messages`, `POST /v1/responses`,
 * `POST /v1/chat/completions` or `POST /v1beta/models/{model}:generateContent` takes the next
 * scripted response, streamed as server-sent events when the request asks `"stream": true`
 * (Gemini: `:streamGenerateContent?alt=sse`), else one JSON object. A request past the
 * script's end is answered 400 (never retried by the client) saying so; any other path is 404.
 */
export async function startModelStandIn(options: ModelStandInOptions): Promise<ModelStandIn> {
  const stand: StandIn = {
    player: new ScriptPlayer(options.script),
    requests: [],
    maxRequestBytes: options.maxRequestBytes ?? 32 * 1024 * 1024,
    rates: options.script.rate_limits ? new RateWindow(options.script.rate_limits) : null,
  };
  const server = createServer((req, res) => {
    handleRequest(stand, req, res).catch((e: unknown) => {
      if (!res.headersSent) send(res, standInError(500, `stand-in failure: ${String(e)}`));
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 5000;
  const listening = await listen(server, { what: 'model stand-in', where: options.listen });
  return {
    url: listening.url,
    socketPath: listening.socketPath,
    requests: () => [...stand.requests],
    remaining: () => stand.player.left,
    close: () => listening.close(),
  };
}

/** One stand-in's state: its script, what it saw, and its limit. */
interface StandIn {
  readonly player: ScriptPlayer;
  readonly requests: StandInRequest[];
  readonly maxRequestBytes: number;
  /** The script's stated rate limits, or null. */
  readonly rates: RateWindow | null;
}

/** What the stand-in notes of a request it answered (its number and path are added). */
type RequestNote = Omit<StandInRequest, 'n' | 'path'>;

/** Answers one HTTP request: refuses what is not a model API call, else plays the script. */
async function handleRequest(
  stand: StandIn,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { maxRequestBytes } = stand;
  const url = new URL(req.url ?? '/', 'http://stand-in');
  const n = stand.requests.length + 1;
  const note = (r: RequestNote): void => {
    stand.requests.push({ n, path: url.pathname, ...r });
  };
  const empty = { model: null, stream: false, messages: 0, toolResults: [], response: null };
  const api = apiOf(url.pathname);
  const id = idHeader(api, n);
  if (id) res.setHeader(...id);
  if (req.method !== 'POST' || api === null) {
    send(
      res,
      standInError(
        404,
        `the model stand-in serves only POST ${MESSAGES_PATH}, ${RESPONSES_PATH}, ${CHAT_PATH} and /v1beta/models/{model}:generateContent or :streamGenerateContent`,
        requestId(n),
      ),
    );
    note({ ...empty, status: 404 });
    req.resume();
    return;
  }
  const body = await readBody(req, maxRequestBytes);
  if (body === null) {
    send(res, standInError(413, `request body over ${maxRequestBytes} bytes`, requestId(n)));
    note({ ...empty, status: 413 });
    return;
  }
  const request = parseRequest(body, api, url);
  if (!request) {
    send(res, standInError(400, 'the request body is not a JSON object', requestId(n)));
    note({ ...empty, status: 400 });
    return;
  }
  playNext(stand, res, { api, url, n, body, request }, note);
}

/** A model API request the stand-in will answer from its script. */
interface ApiCall {
  readonly api: Api;
  readonly url: URL;
  /** The request's number, 1, 2, … in arrival order. */
  readonly n: number;
  readonly body: Buffer;
  readonly request: SeenRequest;
}

/** Answers a request with the next scripted response that fits it, or a 400 when none does. */
function playNext(
  stand: StandIn,
  res: ServerResponse,
  call: ApiCall,
  note: (r: RequestNote) => void,
): void {
  const { api, n, request } = call;
  const { player } = stand;
  const { script } = player;
  const seen = {
    model: request.model,
    stream: request.stream,
    messages: request.messages,
    toolResults: request.toolResults,
  };
  const { index, how } = player.pick(requestText(call.body));
  const scripted = index < 0 ? undefined : script.responses[index];
  if (!scripted) {
    const why =
      player.left === 0
        ? `has no response left for request ${n} (it holds ${script.responses.length})`
        : `has no response left whose "when" fits request ${n} (${player.left} of ${script.responses.length} not played)`;
    // In the API's own error shape, so the agent reports it as that API's 400.
    send(res, errorAnswer(api, { status: 400, message: `the model script ${why}` }, n));
    note({ ...seen, response: null, how, status: 400 });
    return;
  }
  player.markPlayed(index);
  stateRateLimits(stand, res, api, scripted);
  if ('error' in scripted) {
    const answer = errorAnswer(api, scripted.error, n);
    send(res, answer);
    note({ ...seen, response: index, how, status: answer.status });
    return;
  }
  const model = script.model ?? request.model ?? 'stand-in-model';
  const rendered = render(api, scripted, model, n, request);
  note({ ...seen, response: index, how, status: 200 });
  sendRendered(res, call, rendered);
}

/** The script's rate limits in this answer's headers, in its API's words (Gemini sends none). */
function stateRateLimits(
  stand: StandIn,
  res: ServerResponse,
  api: Api,
  scripted: ModelScript['responses'][number],
): void {
  if (!stand.rates || api === 'gemini') return;
  const u = 'usage' in scripted ? (scripted.usage ?? {}) : {};
  const tokens =
    (u.input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) + (u.output_tokens ?? 0);
  const exhausted = 'error' in scripted && scripted.error.status === 429;
  const headers = stand.rates.headers(
    api === 'messages' ? 'anthropic' : 'openai',
    tokens,
    exhausted,
  );
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
}

/** Sends a rendered answer whole, or as server-sent events when the request streams. */
function sendRendered(res: ServerResponse, call: ApiCall, rendered: Rendered): void {
  const { api, url, request } = call;
  if (!request.stream || (api === 'gemini' && url.searchParams.get('alt') !== 'sse')) {
    if (rendered.whole) return send(res, rendered.whole);
    // Gemini streamed without alt=sse is one JSON array of the chunks.
    const json = request.stream ? [rendered.message] : rendered.message;
    send(res, {
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(json),
    });
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  for (const frame of rendered.frames()) res.write(frame);
  res.end();
}

function send(
  res: ServerResponse,
  a: { status: number; headers: Record<string, string>; body: string },
): void {
  res.writeHead(a.status, { ...a.headers, 'content-length': Buffer.byteLength(a.body) });
  res.end(a.body);
}

/** The body, or null once it passes the cap (the rest is then drained, not kept). */
function readBody(req: IncomingMessage, cap: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > cap) over = true;
      if (!over) chunks.push(c);
      else chunks.length = 0;
    });
    req.on('end', () => resolve(over ? null : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** A scripted answer in one API's words: the whole object, its stream's frames, and the whole
 * answer to send instead of the object when the script cuts it (`stream_error`). */
interface Rendered {
  readonly message: unknown;
  readonly frames: () => string[];
  readonly whole?: { status: number; headers: Record<string, string>; body: string };
}

function render(
  api: Api,
  scripted: ScriptMessage,
  model: string,
  n: number,
  request: SeenRequest,
): Rendered {
  const cut = scripted.stream_error;
  switch (api) {
    case 'messages': {
      const m = apiMessage(scripted, model, n);
      if (!cut) return { message: m, frames: () => sseFrames(m, scripted.pings === true) };
      // Not streamed, the Messages API answers the error itself.
      const status = cut.type === 'overloaded_error' ? 529 : 500;
      const message = cut.message ? { message: cut.message } : {};
      const whole = apiError({ status, ...message }, requestId(n));
      return { message: m, frames: () => sseFramesCut(m, cut), whole };
    }
    case 'responses': {
      const r = responsesObject(scripted, model, n);
      if (!cut) return { message: r, frames: () => responsesFrames(r) };
      // Not streamed: a failed response, or the error event's error as an HTTP 500.
      const body = JSON.stringify(failedResponse(r, cut));
      const whole =
        cut.event === 'error'
          ? responsesError({ status: 500, ...(cut.message ? { message: cut.message } : {}) })
          : { status: 200, headers: { 'content-type': 'application/json' }, body };
      return { message: r, frames: () => responsesFramesFailed(r, cut), whole };
    }
    case 'chat': {
      const c = chatCompletion(scripted, model, n);
      if (!cut) return { message: c, frames: () => chatFrames(c, request.includeUsage === true) };
      return { message: c, frames: () => chatFramesCut(c, cut), whole: chatCutWhole(cut) };
    }
    case 'gemini': {
      const g = geminiResponse(scripted, model, n);
      if (!cut) return { message: g, frames: () => geminiFrames(g) };
      return { message: g, frames: () => geminiFramesCut(g, cut), whole: geminiCutWhole(cut) };
    }
  }
}

function parseRequest(body: Buffer, api: Api, url: URL): SeenRequest | null {
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  if (api === 'chat') return chatRequest(value);
  if (api === 'gemini') return geminiRequest(value, url);
  const v = value as { model?: unknown; stream?: unknown; messages?: unknown; input?: unknown };
  if (api === 'responses') {
    // The Responses API: `input` is a string or a list of items; tool outputs are
    // function_call_output items ({ call_id, output }), the latest after the last call.
    const input = Array.isArray(v.input) ? (v.input as unknown[]) : [];
    return {
      model: typeof v.model === 'string' ? v.model : null,
      stream: v.stream === true,
      messages: typeof v.input === 'string' ? 1 : input.length,
      toolResults: functionOutputs(input),
    };
  }
  const messages = Array.isArray(v.messages) ? v.messages : [];
  return {
    model: typeof v.model === 'string' ? v.model : null,
    stream: v.stream === true,
    messages: messages.length,
    toolResults: toolResults(messages[messages.length - 1]),
  };
}

function functionOutputs(input: unknown[]): StandInRequest['toolResults'] {
  const out: { toolUseId: string; isError: boolean; text: string }[] = [];
  for (const item of input.slice(-100)) {
    const i = item as { type?: unknown; call_id?: unknown; output?: unknown } | null;
    if (i?.type !== 'function_call_output') continue;
    out.push({
      toolUseId: String(i.call_id),
      isError: false,
      text: resultText(i.output).slice(0, 4000),
    });
  }
  return out;
}

function toolResults(last: unknown): StandInRequest['toolResults'] {
  const content = (last as { role?: unknown; content?: unknown } | undefined)?.content;
  if (!Array.isArray(content)) return [];
  const out: { toolUseId: string; isError: boolean; text: string }[] = [];
  for (const block of content as {
    type?: unknown;
    tool_use_id?: unknown;
    is_error?: unknown;
    content?: unknown;
  }[]) {
    if (block?.type !== 'tool_result') continue;
    out.push({
      toolUseId: String(block.tool_use_id),
      isError: block.is_error === true,
      text: resultText(block.content).slice(0, 4000),
    });
  }
  return out;
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((c: { type?: unknown; text?: unknown }) => (c?.type === 'text' ? String(c.text) : ''))
    .join('');
}
