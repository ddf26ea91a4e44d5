import { readFile } from 'node:fs/promises';
import { InputError } from '../errors/index.js';
import { isObject, kind, token } from './json-shape.js';

/** A tool call: the agent's own tool (`tool_use`) or one the API runs (`server_tool_use`). */
export interface ScriptToolCall {
  readonly name: string;
  readonly input: Record<string, unknown>;
  readonly id?: string;
}

/**
 * One content block the model answers with: text, a call of the agent's tool, the model's
 * thinking (its text; the signature is the stand-in's), thinking the API redacted (its opaque
 * data), or a call of a tool the API runs itself (e.g. `web_search`).
 */
export type ScriptBlock =
  | { readonly text: string }
  | { readonly tool_use: ScriptToolCall }
  | { readonly thinking: string }
  | { readonly redacted_thinking: string }
  | { readonly server_tool_use: ScriptToolCall };

export interface ScriptUsage {
  readonly input_tokens?: number;
  readonly output_tokens?: number;
  readonly cache_read_input_tokens?: number;
  readonly cache_creation_input_tokens?: number;
}

/** The Messages API's stop reasons (`pause_turn` and `refusal` are the Messages API's alone). */
export type StopReason =
  'end_turn' | 'tool_use' | 'max_tokens' | 'stop_sequence' | 'pause_turn' | 'refusal';

/**
 * When a response may answer: the request's text (every string of its JSON body: system
 * prompt, messages, tool results) holds every string of `contains`. Absent: any request. Lets one script answer different requests (a judge grading
 * two evals) whatever their order.
 */
export interface ScriptWhen {
  readonly contains: readonly string[];
}

/** A scripted message answer. */
export interface ScriptMessage {
  readonly when?: ScriptWhen;
  readonly content: readonly ScriptBlock[];
  readonly stop_reason?: StopReason;
  readonly usage?: ScriptUsage;
  /**
   * The streamed answer stops early with this error, as the APIs document it: a mid-stream
   * `event: error` (Messages API), `response.failed` (Responses API), a `data: {"error": …}`
   * chunk (Chat Completions, Gemini).
   */
  readonly stream_error?: StreamError;
  /** Messages API: a `ping` event after every delta, as a loaded API sends them. */
  readonly pings?: boolean;
}

/** How a scripted stream is cut. */
export interface StreamError {
  readonly type: string;
  readonly message?: string;
  /** The Responses API's event that ends it: `response.failed` (default) or `error`. */
  readonly event?: 'response.failed' | 'error';
}

/** The statuses a script can answer, each in the API's own error shape. */
export type ScriptErrorStatus = 400 | 401 | 403 | 404 | 413 | 429 | 500 | 503 | 529;

/** A scripted error answer: the HTTP status and the API's error body. */
export interface ScriptErrorAnswer {
  readonly when?: ScriptWhen;
  readonly error: {
    readonly status: ScriptErrorStatus;
    readonly message?: string;
    readonly retry_after?: number;
  };
}

export type ScriptResponse = ScriptMessage | ScriptErrorAnswer;

/**
 * What the model stand-in plays: one response per model request, in order (the first not yet
 * played whose `when` the request meets).
 */
export interface ModelScript {
  readonly model?: string;
  /** Per-minute limits the stand-in states in each answer's rate-limit headers. */
  readonly rate_limits?: ScriptRateLimits;
  readonly responses: readonly ScriptResponse[];
}

export interface ScriptRateLimits {
  readonly requests_per_minute?: number;
  readonly tokens_per_minute?: number;
}

/** A model script that cannot be played: names the file and the JSON pointer. */
export class ModelScriptError extends InputError {
  constructor(
    readonly file: string,
    readonly pointer: string,
    problem: string,
  ) {
    super(`model script ${file}: ${pointer === '' ? '(document)' : pointer}: ${problem}`);
  }
}

const STATUSES = [400, 401, 403, 404, 413, 429, 500, 503, 529];
const STOP_REASONS = [
  'end_turn',
  'tool_use',
  'max_tokens',
  'stop_sequence',
  'pause_turn',
  'refusal',
];
const BLOCKS = ['text', 'tool_use', 'thinking', 'redacted_thinking', 'server_tool_use'];
const USAGE_KEYS = [
  'input_tokens',
  'output_tokens',
  'cache_read_input_tokens',
  'cache_creation_input_tokens',
];
const COMMENT = 'description';

/** Reads and checks a model script file. */
export async function loadModelScript(file: string): Promise<ModelScript> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    throw new ModelScriptError(
      file,
      '',
      `cannot be read (${(e as NodeJS.ErrnoException).code ?? String(e)})`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new ModelScriptError(file, '', `is not JSON (${(e as Error).message})`);
  }
  return checkModelScript(value, file);
}

/**
 * Checks a parsed script against model-script.schema.json's rules, with the first problem
 * named at its JSON pointer; `file` names the script in messages.
 */
export function checkModelScript(value: unknown, file: string): ModelScript {
  const fail = (at: string, problem: string): never => {
    throw new ModelScriptError(file, at, problem);
  };
  if (!isObject(value)) fail('', `must be an object, not ${kind(value)}`);
  const doc = value as Record<string, unknown>;
  onlyKeys(doc, ['$schema', COMMENT, 'model', 'rate_limits', 'responses'], '', fail);
  if ('model' in doc && (typeof doc.model !== 'string' || doc.model === '')) {
    fail('/model', `must be a non-empty string, not ${kind(doc.model)}`);
  }
  if ('rate_limits' in doc) checkRateLimits(doc.rate_limits, fail);
  if (!('responses' in doc)) fail('', 'needs "responses", the list of answers in order');
  const responses = doc.responses;
  if (!Array.isArray(responses)) {
    return fail('/responses', `must be an array of responses, not ${kind(responses)}`);
  }
  if (responses.length === 0) fail('/responses', 'must hold at least one response');
  responses.forEach((r, i) => checkResponse(r, `/responses${token(i)}`, fail));
  return doc as unknown as ModelScript;
}

type Fail = (at: string, problem: string) => never;

function checkRateLimits(value: unknown, fail: Fail): void {
  if (!isObject(value)) return fail('/rate_limits', `must be an object, not ${kind(value)}`);
  onlyKeys(value, ['requests_per_minute', 'tokens_per_minute'], '/rate_limits', fail);
  for (const [k, n] of Object.entries(value)) {
    if (!Number.isSafeInteger(n) || (n as number) < 1) {
      fail(`/rate_limits${token(k)}`, `must be a whole number >= 1, not ${JSON.stringify(n)}`);
    }
  }
}

function onlyKeys(obj: Record<string, unknown>, allowed: string[], at: string, fail: Fail): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) {
      fail(`${at}${token(key)}`, `"${key}" is not a field here (it takes ${allowed.join(', ')})`);
    }
  }
}

function checkResponse(value: unknown, at: string, fail: Fail): void {
  if (!isObject(value)) return fail(at, `a response must be an object, not ${kind(value)}`);
  if ('error' in value && 'content' in value) {
    fail(at, 'a response is a message ("content") or an error ("error"), not both');
  }
  if ('when' in value) checkWhen(value.when, `${at}/when`, fail);
  if ('error' in value) {
    onlyKeys(value, [COMMENT, 'when', 'error'], at, fail);
    const e = value.error;
    if (!isObject(e)) return fail(`${at}/error`, `must be an object, not ${kind(e)}`);
    onlyKeys(e, ['status', 'message', 'retry_after'], `${at}/error`, fail);
    if (!STATUSES.includes(e.status as number)) {
      fail(
        `${at}/error/status`,
        `must be one of ${STATUSES.join(', ')}, not ${JSON.stringify(e.status)}`,
      );
    }
    if ('message' in e && typeof e.message !== 'string') {
      fail(`${at}/error/message`, `must be a string, not ${kind(e.message)}`);
    }
    if ('retry_after' in e) {
      const r = e.retry_after;
      if (!Number.isSafeInteger(r) || (r as number) < 0 || (r as number) > 3600) {
        fail(
          `${at}/error/retry_after`,
          `must be whole seconds from 0 to 3600, not ${JSON.stringify(r)}`,
        );
      }
    }
    return;
  }
  if (!('content' in value)) fail(at, 'a response needs "content" (a message) or "error"');
  onlyKeys(
    value,
    [COMMENT, 'when', 'content', 'stop_reason', 'usage', 'stream_error', 'pings'],
    at,
    fail,
  );
  if ('pings' in value && typeof value.pings !== 'boolean') {
    fail(`${at}/pings`, `must be true or false, not ${kind(value.pings)}`);
  }
  if ('stream_error' in value) checkStreamError(value.stream_error, `${at}/stream_error`, fail);
  const content = value.content;
  if (!Array.isArray(content)) {
    return fail(`${at}/content`, `must be an array of blocks, not ${kind(content)}`);
  }
  if (content.length === 0) fail(`${at}/content`, 'must hold at least one block');
  content.forEach((b, i) => checkBlock(b, `${at}/content${token(i)}`, fail));
  if ('stop_reason' in value && !STOP_REASONS.includes(value.stop_reason as string)) {
    fail(
      `${at}/stop_reason`,
      `must be one of ${STOP_REASONS.join(', ')}, not ${JSON.stringify(value.stop_reason)}`,
    );
  }
  if ('usage' in value) {
    const u = value.usage;
    if (!isObject(u)) return fail(`${at}/usage`, `must be an object, not ${kind(u)}`);
    onlyKeys(u, USAGE_KEYS, `${at}/usage`, fail);
    for (const [k, n] of Object.entries(u)) {
      if (!Number.isSafeInteger(n) || (n as number) < 0) {
        fail(`${at}/usage${token(k)}`, `must be a whole number >= 0, not ${JSON.stringify(n)}`);
      }
    }
  }
}

function checkStreamError(value: unknown, at: string, fail: Fail): void {
  if (!isObject(value)) return fail(at, `must be an object, not ${kind(value)}`);
  onlyKeys(value, ['type', 'message', 'event'], at, fail);
  if ('event' in value && value.event !== 'response.failed' && value.event !== 'error') {
    fail(`${at}/event`, `must be "response.failed" or "error", not ${JSON.stringify(value.event)}`);
  }
  if (typeof value.type !== 'string' || !/^[a-z_]{1,64}$/.test(value.type)) {
    fail(`${at}/type`, 'must be an error type: 1 to 64 lowercase letters or "_"');
  }
  if ('message' in value && typeof value.message !== 'string') {
    fail(`${at}/message`, `must be a string, not ${kind(value.message)}`);
  }
}

function checkWhen(value: unknown, at: string, fail: Fail): void {
  if (!isObject(value)) return fail(at, `must be an object, not ${kind(value)}`);
  onlyKeys(value, ['contains'], at, fail);
  const c = value.contains;
  if (!Array.isArray(c) || c.length === 0) {
    return fail(`${at}/contains`, 'must be a non-empty array of strings');
  }
  c.forEach((s, i) => {
    if (typeof s !== 'string' || s === '') {
      fail(`${at}/contains${token(i)}`, `must be a non-empty string, not ${kind(s)}`);
    }
  });
}

function checkBlock(value: unknown, at: string, fail: Fail): void {
  if (!isObject(value)) return fail(at, `a block must be an object, not ${kind(value)}`);
  const keys = Object.keys(value);
  if (keys.length !== 1 || !BLOCKS.includes(keys[0]!)) {
    fail(
      at,
      `a block is one of {"text"}, {"tool_use"}, {"thinking"}, {"redacted_thinking"}, {"server_tool_use"}, not {${keys.join(', ')}}`,
    );
  }
  const key = keys[0]!;
  if (key === 'tool_use' || key === 'server_tool_use') {
    return checkToolCall(value[key], `${at}${token(key)}`, fail);
  }
  if (typeof value[key] !== 'string')
    fail(`${at}${token(key)}`, `must be a string, not ${kind(value[key])}`);
  if (key === 'redacted_thinking' && value[key] === '') {
    fail(`${at}/redacted_thinking`, 'must be the non-empty opaque data the API sends');
  }
}

function checkToolCall(t: unknown, at: string, fail: Fail): void {
  if (!isObject(t)) return fail(at, `must be an object, not ${kind(t)}`);
  onlyKeys(t, ['name', 'input', 'id'], at, fail);
  if (typeof t.name !== 'string' || t.name === '') {
    fail(`${at}/name`, `must be a non-empty string, not ${kind(t.name)}`);
  }
  if (!isObject(t.input)) fail(`${at}/input`, `must be an object, not ${kind(t.input)}`);
  if ('id' in t && (typeof t.id !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(t.id))) {
    fail(`${at}/id`, 'must be 1 to 64 letters, digits, "_" or "-"');
  }
}
