import { appendFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { assertArtifact } from '../artifacts/index.js';
import { splitJson, type Block } from './blocks.js';
import { NeedleSearch } from './needles.js';
import { harnessTexts } from './wire/harness.js';
import type { WireApiName } from './wire/types.js';
import {
  DEFAULT_RECORD_CAPS,
  MODEL_RECORD_SCHEMA,
  type BodyRef,
  type ModelCall,
  type ModelRecordFile,
  type Needle,
  type NeedleSeen,
  type RecordCaps,
} from './types.js';

const gzipAsync = promisify(gzip);

/** Bytes of memory the recorder may hold for bodies waiting to be written (the campaign's budget). */
export interface MemoryBudget {
  /** Takes `bytes` from the budget; false when they do not fit (nothing is taken). */
  take(bytes: number): boolean;
  give(bytes: number): void;
}

/** A JSON value's strings and arrays below this size stay inside their parent's block. */
const MIN_BLOCK_BYTES = 256;
/** A request body larger than this is never parsed (the witness reads no facts of it). */
const MAX_PARSE_BYTES = 16 * 1024 * 1024;
/** A body larger than this is not kept in the record (its line says so). */
const MAX_KEPT_BODY_BYTES = 8 * 1024 * 1024;
/** Block ids remembered for deduplication; past it, blocks are written again (the byte cap holds). */
const MAX_SEEN = 500_000;
/** What stands where a secret was, in what is kept and in what the gateway relays. */
export const SECRET_MARK = '[evalrig: the upstream key was here]';

export interface FlightRecorderOptions {
  /** model-calls.jsonl: one line per call. */
  readonly logPath: string;
  /** model-blocks.jsonl.gz and model-record.json; absent: no bodies kept (the judge's log). */
  readonly bodies?: { readonly blocksPath: string; readonly manifestPath: string };
  readonly caps?: Partial<RecordCaps>;
  /** Strings that must never be written (the upstream key): replaced wherever they appear. */
  readonly secrets?: readonly string[];
  readonly needles?: readonly Needle[];
  /** The run's prompts: taken out of what is searched for the needles (a prompt is not the harness's). */
  readonly prompts?: readonly string[];
  /** The campaign's memory for bodies in flight; absent: unbounded but by the caps. */
  readonly budget?: MemoryBudget;
}

/** A request as the recorder kept it: where its body is, and the body parsed (null if not JSON). */
export interface KeptRequest {
  readonly ref: BodyRef | undefined;
  readonly parsed: unknown;
}

/**
 * The one writer of a flight record (model-calls.jsonl, model-blocks.jsonl.gz,
 * model-record.json): bodies cut into content-addressed blocks and compressed, lines
 * validated, every string scrubbed of the secrets, every file within its cap. Writes are
 * queued in order, off the relay's path; {@link flushed} waits for them.
 */
export class FlightRecorder {
  readonly caps: RecordCaps;
  private readonly seen = new Set<string>();
  private readonly needles: NeedleSearch;
  private queue: Promise<void> = Promise.resolve();
  private seq = 0;
  private logged = 0;
  private logBytes = 0;
  private truncated: { at_seq: number; why: string } | null = null;
  private readonly stats = { blocks: 0, bytes: 0, requestBytes: 0, responseBytes: 0 };
  private readonly refused = { total: 0, logged: 0, byStatus: {} as Record<string, number> };
  private connectionsCut = 0;
  private echoesScrubbed = 0;
  private readonly dropped = new Set<number>();

  constructor(private readonly options: FlightRecorderOptions) {
    this.caps = { ...DEFAULT_RECORD_CAPS, ...options.caps };
    this.needles = new NeedleSearch(options.needles ?? [], options.prompts ?? []);
  }

  /** The run's call cap is reached: no call may be numbered any more. */
  full(): boolean {
    return this.seq >= this.caps.maxCalls;
  }

  /** The next call's number, or null once the run's call cap is reached. */
  nextSeq(): number | null {
    if (this.seq >= this.caps.maxCalls) return null;
    return ++this.seq;
  }

  /** Replaces every secret in `text` (an answer's text, a problem, a body). */
  scrub(text: string): string {
    let out = text;
    for (const s of this.options.secrets ?? []) if (s !== '') out = out.split(s).join(SECRET_MARK);
    return out;
  }

  /**
   * Keeps call `seq`'s request body (scrubbed, cut into blocks) and searches what the agent's
   * harness wrote in it (`api`'s structure) for the needles.
   */
  keepRequest(seq: number, raw: Buffer, api: WireApiName | null = null): KeptRequest {
    this.stats.requestBytes += raw.length;
    if (raw.length > MAX_PARSE_BYTES && raw.length > MAX_KEPT_BODY_BYTES) {
      // Neither read nor kept: not even turned into a string.
      this.needles.search(seq, null, `its body is over the ${MAX_PARSE_BYTES} bytes read`);
      const ref = this.options.bodies
        ? { omitted: `over the ${MAX_KEPT_BODY_BYTES} bytes kept of a body` }
        : undefined;
      return { ref, parsed: null };
    }
    const { text, scrubbed } = this.scrubBody(raw);
    let parsed: unknown = null;
    if (raw.length <= MAX_PARSE_BYTES) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = null;
      }
    }
    if (this.needles.active) {
      const why =
        parsed === null ? 'its body is not JSON' : `it is not a request of the ${api} API`;
      this.needles.search(
        seq,
        api === null ? null : harnessTexts(api, parsed),
        api === null ? 'its API is not known' : why,
      );
    }
    if (!this.options.bodies) return { ref: undefined, parsed };
    if (raw.length > MAX_KEPT_BODY_BYTES) {
      return { ref: { omitted: `over the ${MAX_KEPT_BODY_BYTES} bytes kept of a body` }, parsed };
    }
    const ref = this.keepBody(seq, raw.length, () =>
      parsed === null
        ? { ...splitJson(text, Infinity), exact: true }
        : {
            ...splitJson(parsed, MIN_BLOCK_BYTES),
            exact: JSON.stringify(parsed) === text,
          },
    );
    return { ref: scrubbed && 'block' in ref ? { ...ref, scrubbed: true } : ref, parsed };
  }

  /** Keeps call `seq`'s response body (null: it was not kept whole, `why` says why). */
  keepResponse(seq: number, raw: Buffer | null, why?: string): BodyRef | undefined {
    if (!this.options.bodies) return undefined;
    if (raw === null) return { omitted: why ?? 'not kept' };
    this.stats.responseBytes += raw.length;
    if (raw.length > MAX_KEPT_BODY_BYTES) {
      return { omitted: `over the ${MAX_KEPT_BODY_BYTES} bytes kept of a body` };
    }
    const { text, scrubbed } = this.scrubBody(raw);
    const ref = this.keepBody(seq, raw.length, () => ({
      ...splitJson(text, Infinity),
      exact: true,
    }));
    return scrubbed && 'block' in ref ? { ...ref, scrubbed: true } : ref;
  }

  /**
   * Appends call lines in order, after the bodies they name (a dropped body is marked so),
   * until the log's byte cap: past it the record says where it stopped.
   */
  log(call: ModelCall): void {
    this.enqueue(async () => {
      const line = this.dropped.has(call.seq) ? withDroppedBodies(call) : call;
      assertArtifact('model-call', line, this.options.logPath);
      const text = `${JSON.stringify(line)}\n`;
      if (this.logBytes + text.length > this.caps.maxLogBytes) {
        this.truncated ??= {
          at_seq: call.seq,
          why: `the log passed ${this.caps.maxLogBytes} bytes`,
        };
        return;
      }
      this.logBytes += text.length;
      this.echoesScrubbed += line.echoesScrubbed ?? 0;
      this.logged++;
      await appendFile(this.options.logPath, text, { mode: 0o600 });
    });
  }

  /**
   * Counts a refused call; logs it (numbered) only among the first `maxRefusalLines`. Returns
   * the number to log it under, or null when it is only counted.
   */
  refuse(status: number): number | null {
    this.refused.total++;
    const key = String(status);
    this.refused.byStatus[key] = (this.refused.byStatus[key] ?? 0) + 1;
    if (this.refused.logged >= this.caps.maxRefusalLines) return null;
    const seq = this.nextSeq();
    if (seq !== null) this.refused.logged++;
    return seq;
  }

  connectionCut(): void {
    this.connectionsCut++;
  }

  needlesSeen(): NeedleSeen[] {
    return this.needles.seen();
  }

  /** Requests the needle search could not read (a needle not seen is then undecided). */
  unsearched(): ReturnType<NeedleSearch['unsearched']> {
    return this.needles.unsearched();
  }

  /** Resolves once everything queued so far is written. */
  flushed(): Promise<void> {
    return this.queue;
  }

  /** Flushes and writes model-record.json (with bodies kept). */
  async close(): Promise<void> {
    await this.queue;
    const b = this.options.bodies;
    if (!b) return;
    const manifest = this.manifest();
    assertArtifact('model-record', manifest, b.manifestPath);
    await writeFile(b.manifestPath, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });
  }

  manifest(): ModelRecordFile {
    return {
      schema: MODEL_RECORD_SCHEMA,
      calls: this.logged,
      refused: {
        total: this.refused.total,
        logged: this.refused.logged,
        by_status: { ...this.refused.byStatus },
      },
      connections_cut: this.connectionsCut,
      echoes_scrubbed: this.echoesScrubbed,
      bodies: {
        kept: this.options.bodies !== undefined,
        blocks: this.stats.blocks,
        bytes: this.stats.bytes,
        request_bytes: this.stats.requestBytes,
        response_bytes: this.stats.responseBytes,
      },
      caps: {
        max_calls: this.caps.maxCalls,
        max_body_bytes: this.caps.maxBodyBytes,
        max_refusal_lines: this.caps.maxRefusalLines,
        max_log_bytes: this.caps.maxLogBytes,
      },
      truncated: this.truncated,
      needles: this.needlesSeen(),
      ...(this.unsearched() ? { unsearched: this.unsearched()! } : {}),
    };
  }

  private scrubBody(raw: Buffer): { text: string; scrubbed: boolean } {
    const text = raw.toString('utf8');
    const scrubbed = (this.options.secrets ?? []).some((s) => s !== '' && raw.includes(s));
    return { text: scrubbed ? this.scrub(text) : text, scrubbed };
  }

  /**
   * Queues the new blocks of a body (`make` cuts it) within the budget, and says where the
   * body is. Past the byte cap (found when a batch does not fit), every later body is
   * dropped, so that no kept line names a block that was not written.
   */
  private keepBody(
    seq: number,
    rawBytes: number,
    make: () => { root: string; blocks: readonly Block[]; exact: boolean },
  ): BodyRef {
    if (this.truncated) {
      return { omitted: `the record stopped keeping bodies at call ${this.truncated.at_seq}` };
    }
    const budget = this.options.budget;
    // Held until written: the new blocks' text, then the same bytes given to the compressor.
    const held = 2 * rawBytes;
    if (budget && !budget.take(held)) {
      return { omitted: "the campaign's memory for bodies in flight was full" };
    }
    let made: ReturnType<typeof make>;
    try {
      made = make();
    } catch {
      budget?.give(held);
      return { omitted: 'the body could not be cut into blocks' };
    }
    const fresh = made.blocks.filter((b) => !this.seen.has(b.id));
    for (const b of fresh) if (this.seen.size < MAX_SEEN) this.seen.add(b.id);
    const text = fresh.map((b) => `${JSON.stringify(b)}\n`).join('');
    this.enqueue(() => this.writeBatch(seq, text).finally(() => budget?.give(held)));
    return made.exact ? { block: made.root } : { block: made.root, exact: false };
  }

  private async writeBatch(seq: number, text: string): Promise<void> {
    if (this.truncated) {
      this.dropped.add(seq);
      return;
    }
    if (text === '') return;
    const packed = await gzipAsync(text);
    if (this.stats.bytes + packed.length > this.caps.maxBodyBytes) {
      this.truncated = { at_seq: seq, why: `the bodies passed ${this.caps.maxBodyBytes} bytes` };
      this.dropped.add(seq);
      return;
    }
    await appendFile(this.options.bodies!.blocksPath, packed, { mode: 0o600 });
    this.stats.bytes += packed.length;
    this.stats.blocks += text.split('\n').length - 1;
  }

  private enqueue(job: () => Promise<void>): void {
    this.queue = this.queue.then(job).catch((e: unknown) => {
      this.truncated ??= { at_seq: this.seq, why: `a write failed: ${String(e).slice(0, 200)}` };
    });
  }
}

/** Whitespace runs as one space, trimmed: a needle is found however the agent wraps it. */
export function normalize(s: string): string {
  return s.replace(/\s+/gu, ' ').trim();
}

function withDroppedBodies(call: ModelCall): ModelCall {
  const omitted = { omitted: 'past the record cap' };
  return {
    ...call,
    ...(call.request ? { request: omitted } : {}),
    ...(call.response ? { response: omitted } : {}),
  };
}
