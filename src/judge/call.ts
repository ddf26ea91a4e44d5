import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import type { JudgeCallRecord, JudgeIdentity } from '../artifacts/index.js';
import type { FlightFiles } from '../campaign-folder/index.js';
import type { JudgeSpec } from '../config/index.js';
import { InputError } from '../errors/index.js';
import {
  openRunGateway,
  type ModelCall,
  type ModelGatewayOptions,
  type ModelSource,
} from '../gateway/index.js';
import { checkModelScript } from '../model-stand-in/index.js';

/** The judge, ready to be asked: where its calls go, and who it is in the record. */
export interface JudgeModel {
  readonly identity: JudgeIdentity;
  readonly source: ModelSource;
  readonly maxTokens: number;
  /** The API its questions are asked in (the stand-in plays both). */
  readonly api: 'messages' | 'responses';
  /**
   * The campaign's share of its upstream (its limiter) and its spending, for the judge's
   * gateways; `admit` refuses a call at the gateway (a budget spent).
   */
  readonly gateway?: Pick<ModelGatewayOptions, 'limiter' | 'onCall' | 'admit'>;
}

/** Where each API is asked, and how its key is sent. */
const API = {
  messages: { path: '/v1/messages', auth: 'x-api-key' },
  responses: { path: '/v1/responses', auth: 'bearer' },
} as const;

/**
 * Gets the eval set's judge ready: its script read, checked and hashed (recorded), or the API's key read from the host now, so that an unset variable
 * refuses before anything is graded. `where` names the eval set in messages.
 */
export async function prepareJudgeModel(spec: JudgeSpec, where: string): Promise<JudgeModel> {
  const model = spec.model;
  if ('script' in model) {
    const bytes = await readFile(model.script).catch((e: NodeJS.ErrnoException) => {
      throw new InputError(
        `${where}: /judge/model/script: cannot read ${model.script} (${e.code})`,
      );
    });
    let value: unknown;
    try {
      value = JSON.parse(bytes.toString('utf8'));
    } catch (e) {
      throw new InputError(
        `${where}: /judge/model/script: ${model.script} is not JSON (${(e as Error).message})`,
      );
    }
    return {
      identity: {
        model: spec.model_name,
        source: 'script',
        script_sha256: createHash('sha256').update(bytes).digest('hex'),
      },
      source: { script: checkModelScript(value, model.script) },
      maxTokens: spec.max_tokens,
      api: spec.api,
    };
  }
  const apiKey = process.env[model.key_env];
  if (!apiKey) {
    throw new InputError(
      `${where}: /judge/model/key_env: the host variable ${model.key_env} is not set (the judge's API key, added on the host side)`,
    );
  }
  return {
    identity: { model: spec.model_name, source: 'api', url: model.url },
    source: { url: model.url, apiKey, auth: API[spec.api].auth },
    maxTokens: spec.max_tokens,
    api: spec.api,
  };
}

/** What the judge said: its text, or why there is none; and every call it took. */
export interface JudgeReply {
  readonly text: string | null;
  readonly error?: string;
  readonly calls: readonly JudgeCallRecord[];
  /**
   * A script's answer came from a response without `when` while responses with one waited,
   * none fitting (the stand-in's own account of what it played): the judge's catch-all, which
   * says nothing of this run.
   */
  readonly fellBack?: true;
}

/** Statuses worth asking again (rate limits, overload, upstream trouble). */
const RETRYABLE = new Set([429, 500, 502, 503, 504, 529]);
const ATTEMPTS = 3;
/** The longest wait a retry-after is honoured for. */
const MAX_WAIT_MS = 30_000;
/** The most of an answer read. */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
/** The judge's flight record holds this question's few attempts, bodies bounded as a run's. */
const JUDGE_RECORD_CAPS = { maxCalls: ATTEMPTS, maxBodyBytes: 16 * 1024 * 1024 };

/**
 * Asks the judge once (retrying an overloaded or rate-limited API up to three times in all)
 * through a model gateway of its own on the host: the same forwarding, key handling and log as
 * a run's, keeping its flight record in `flight` (the run's judge-calls.jsonl and bodies). A script's stand-in plays from
 * its start for each question. Never throws for what the judge does: a failed call is the
 * reply's `error`.
 */
export async function askJudge(
  model: JudgeModel,
  question: { readonly system: string; readonly user: string; readonly flight: FlightFiles },
): Promise<JudgeReply> {
  const api = API[model.api];
  const { flight } = question;
  const gateway = await openRunGateway({
    source: model.source,
    logPath: flight.calls,
    // The bodies too, keys scrubbed as a run's: what the judge was asked and answered.
    record: { blocksPath: flight.blocks, manifestPath: flight.manifest },
    caps: JUDGE_RECORD_CAPS,
    paths: [api.path],
    idleTimeoutMs: 120_000,
    ...model.gateway,
  });
  const body = JSON.stringify(
    model.api === 'messages'
      ? {
          model: model.identity.model,
          max_tokens: model.maxTokens,
          system: question.system,
          messages: [{ role: 'user', content: question.user }],
        }
      : {
          model: model.identity.model,
          max_output_tokens: model.maxTokens,
          instructions: question.system,
          input: question.user,
          store: false,
        },
  );
  let text: string | null = null;
  let error: string | undefined;
  try {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const answer = await post(gateway.socketPath, api.path, body).catch((e: Error) => ({
        status: 0,
        retryAfter: null,
        body: '',
        problem: e.message,
      }));
      if (answer.status === 200) {
        const read = answerText(answer.body, model.api);
        text = read.text;
        error = read.error;
        break;
      }
      error = `the judge's call failed: ${answer.status === 0 ? answer.problem : `status ${answer.status} ${errorMessage(answer.body)}`}`;
      if (!RETRYABLE.has(answer.status) || attempt === ATTEMPTS) break;
      const wait = answer.retryAfter ?? attempt;
      await new Promise((resolve) => setTimeout(resolve, Math.min(wait * 1000, MAX_WAIT_MS)));
    }
  } finally {
    await gateway.close();
  }
  const fellBack = gateway.standIn?.requests().some((r) => r.how === 'fallback') === true;
  return {
    text,
    ...(error === undefined ? {} : { error }),
    calls: gateway.gateway.calls().map(callRecord),
    ...(fellBack ? { fellBack } : {}),
  };
}

function callRecord(c: ModelCall): JudgeCallRecord {
  return {
    time: c.time,
    status: c.status,
    latency_ms: c.latencyMs,
    input_tokens: c.tokens.input,
    output_tokens: c.tokens.output,
    ...(c.problem === undefined ? {} : { problem: c.problem }),
  };
}

interface PostAnswer {
  readonly status: number;
  readonly retryAfter: number | null;
  readonly body: string;
  readonly problem?: string;
}

function post(socketPath: string, urlPath: string, body: string): Promise<PostAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        socketPath,
        path: urlPath,
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...(urlPath === API.messages.path ? { 'anthropic-version': '2023-06-01' } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size <= MAX_ANSWER_BYTES) chunks.push(c);
          else res.destroy(new Error(`the judge's answer passed ${MAX_ANSWER_BYTES} bytes`));
        });
        res.on('error', reject);
        res.on('end', () => {
          const after = Number(res.headers['retry-after']);
          resolve({
            status: res.statusCode ?? 0,
            retryAfter: Number.isFinite(after) && after >= 0 ? after : null,
            body: Buffer.concat(chunks).toString('utf8'),
          });
        });
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

type Block = { type?: unknown; text?: unknown };

/**
 * The text of an answer, joined: a Messages API message's text blocks, or a Responses API
 * response's output_text parts; or why there is none.
 */
function answerText(
  body: string,
  api: 'messages' | 'responses',
): { text: string | null; error?: string } {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return { text: null, error: 'the API answered with a body that is not JSON' };
  }
  if (api === 'responses') {
    const output = (value as { output?: unknown } | null)?.output;
    if (!Array.isArray(output)) return { text: null, error: 'the API answer holds no output' };
    const parts = (output as { type?: unknown; content?: unknown }[])
      .filter((item) => item?.type === 'message' && Array.isArray(item.content))
      .flatMap((item) => item.content as Block[])
      .filter((p) => p?.type === 'output_text' && typeof p.text === 'string');
    return { text: parts.map((p) => p.text as string).join('') };
  }
  const content = (value as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return { text: null, error: 'the API answer holds no content' };
  const text = content
    .filter(
      (b: { type?: unknown; text?: unknown }) => b?.type === 'text' && typeof b.text === 'string',
    )
    .map((b: { text: string }) => b.text)
    .join('');
  return { text };
}

function errorMessage(body: string): string {
  try {
    const m = (JSON.parse(body) as { error?: { message?: unknown } }).error?.message;
    return typeof m === 'string' ? `(${m.slice(0, 200)})` : '';
  } catch {
    return '';
  }
}
