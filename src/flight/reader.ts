import { readFile } from 'node:fs/promises';
import { gunzip } from 'node:zlib';
import { promisify } from 'node:util';
import { assertArtifact } from '../artifacts/index.js';
import { EvalrigError } from '../errors/index.js';
import { joinBlocks, type Block } from './blocks.js';
import type { BodyRef, ModelCall, ModelRecordFile } from './types.js';
import { WIRE_APIS, type ResponseFacts } from './wire/index.js';

const gunzipAsync = promisify(gunzip);

/**
 * The files of a flight record. Where they are and what they are called is the campaign
 * folder's business (src/campaign-folder's flightFiles); their format is this module's.
 */
export interface FlightFiles {
  /** One line per model call. */
  readonly calls: string;
  /** The bodies, split in blocks, compressed. */
  readonly blocks: string;
  readonly manifest: string;
}

/** A flight record that cannot be read as one: names the file and what is wrong. */
export class FlightRecordError extends EvalrigError {}

/** A run's flight record, read and checked. */
export interface FlightRecord {
  /** null when the record has none (the gateway did not close: a cut run, or a judge log). */
  readonly manifest: ModelRecordFile | null;
  readonly calls: readonly ModelCall[];
  /** A call's request body, rebuilt; null when it was not kept. */
  request(call: ModelCall): unknown;
  /** A call's response body as relayed (server-sent events or JSON text); null when not kept. */
  responseText(call: ModelCall): string | null;
  /** What the witness reads in a call's kept response (its texts, tool calls, usage). */
  responseFacts(call: ModelCall): ResponseFacts | null;
}

/**
 * Reads the flight record in `files`: each line of model-calls.jsonl checked against its
 * schema, the manifest too, and the blocks (at most `maxBlockBytes` compressed, default
 * 512 MiB) loaded to rebuild bodies on demand.
 *
 * ```ts
 * const record = await readFlight(flightFiles('out/runs/e/c/run-01'));
 * for (const call of record.calls) console.log(call.seq, call.outcome, record.request(call));
 * ```
 */
export async function readFlight(
  files: FlightFiles,
  options: {
    readonly maxBlockBytes?: number;
    /**
     * Rebuilt blocks are kept and shared between the bodies that hold them, so reading every
     * request of a growing history costs its new blocks only. The bodies returned then share
     * parts: a caller must not change them.
     */
    readonly shared?: boolean;
  } = {},
): Promise<FlightRecord> {
  const calls = parseLines(await readFile(files.calls, 'utf8'), files.calls);
  const manifest = await readManifest(files.manifest);
  const blocks = await readBlocks(files.blocks, options.maxBlockBytes ?? 512 * 1024 * 1024);
  const memo = options.shared ? new Map<string, unknown>() : undefined;
  const body = (ref: BodyRef | undefined): unknown =>
    ref && 'block' in ref ? joinBlocks(ref.block, (id) => blocks.get(id), memo) : null;
  const responseText = (call: ModelCall): string | null => {
    const v = body(call.response);
    return typeof v === 'string' ? v : null;
  };
  return {
    manifest,
    calls,
    request: (call) => body(call.request),
    responseText,
    responseFacts: (call) => {
      const text = responseText(call);
      if (text === null || call.api === null) return null;
      const sse = text.startsWith('event:') || text.startsWith('data:');
      const reader = WIRE_APIS[call.api].responseReader({
        status: call.status,
        contentType: sse ? 'text/event-stream' : 'application/json',
      });
      reader.push(Buffer.from(text));
      return reader.end(call.outcome === 'cut' ? (call.reason ?? undefined) : undefined);
    },
  };
}

function parseLines(text: string, file: string): ModelCall[] {
  const calls: ModelCall[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      throw new FlightRecordError(`${file}: line ${i + 1} is not JSON`);
    }
    assertArtifact('model-call', v, `${file}:${i + 1}`);
    calls.push(v as ModelCall);
  });
  return calls;
}

async function readManifest(file: string): Promise<ModelRecordFile | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return null;
  }
  const v = JSON.parse(text) as unknown;
  assertArtifact('model-record', v, file);
  return v as ModelRecordFile;
}

async function readBlocks(file: string, maxBytes: number): Promise<Map<string, Block>> {
  const blocks = new Map<string, Block>();
  let packed: Buffer;
  try {
    packed = await readFile(file);
  } catch {
    return blocks;
  }
  if (packed.length > maxBytes) {
    throw new FlightRecordError(`${file}: ${packed.length} bytes, over the ${maxBytes} read here`);
  }
  const text = (await gunzipAsync(packed)).toString('utf8');
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const b = JSON.parse(line) as Block;
    blocks.set(b.id, b);
  }
  return blocks;
}
