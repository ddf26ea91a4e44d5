import type {
  ModelCall,
  Needle,
  NeedleSeen,
  RecordCaps,
  RelayedCall,
  WireAuth,
} from '../flight/index.js';
import type { BodyBudget } from './budget.js';
import type { UpstreamLimiter } from './limiter.js';

/** Where the gateway sends what it forwards: a real API (with its key) or a stand-in. */
export interface GatewayUpstream {
  /** Base URL, e.g. `http://127.0.0.1:4100` (a stand-in) or the API's https origin. */
  readonly url: string;
  /** The real key (or OAuth token), added on the host side; the container only ever holds a placeholder. */
  readonly apiKey?: string;
  /** How the key is sent; default: the header of each call's API (see WireApi.auth). */
  readonly auth?: UpstreamAuth;
}

/**
 * An API's key header ({@link WireAuth}), or `oauth`: a Claude subscription's OAuth token, sent
 * as Claude Code sends it (`Authorization: Bearer`, and the OAuth beta in `anthropic-beta`).
 */
export type UpstreamAuth = WireAuth | 'oauth';

export interface ModelGatewayOptions {
  /** Absolute path of the socket, in a folder the caller made (mode 0711, mounted read-only). */
  readonly socketPath: string;
  readonly upstream: GatewayUpstream;
  /** The run's `model-calls.jsonl`; one line per call, appended. */
  readonly logPath: string;
  /**
   * Keep the bodies too (a run's flight record): model-blocks.jsonl.gz and model-record.json.
   * Absent: the log alone (the judge's).
   */
  readonly record?: { readonly blocksPath: string; readonly manifestPath: string };
  /** The record's caps (calls, bytes of bodies, refusals logged one by one). */
  readonly caps?: Partial<RecordCaps>;
  /** What the record watches the requests for (the treatment check). */
  readonly needles?: readonly Needle[];
  /** The run's prompts, taken out of what the needles are searched in. */
  readonly prompts?: readonly string[];
  /**
   * The memory bodies in flight may hold, shared with the campaign's other gateways; this
   * gateway takes at most `maxBodyMemory` of it (default: a budget of its own of that size).
   */
  readonly budget?: BodyBudget;
  /** This gateway's share of the budget (default 64 MiB). */
  readonly maxBodyMemory?: number;
  /** The only paths forwarded, all `POST` (default `['/v1/messages']`). */
  readonly paths?: readonly string[];
  /** A request body larger than this is answered 413 (default 32 MiB). */
  readonly maxRequestBytes?: number;
  /** A response larger than this is cut (default 64 MiB). */
  readonly maxResponseBytes?: number;
  /** A response is kept in the record up to this (default 8 MiB); past it, not kept. */
  readonly maxKeptResponseBytes?: number;
  /** The longest wait for the upstream's next byte (headers included) (default 300 s). */
  readonly idleTimeoutMs?: number;
  /** The longest a client may take to send its request (default 60 s). */
  readonly requestTimeoutMs?: number;
  /** Open client connections at once (default 16). */
  readonly maxConnections?: number;
  /** Refusals in a row after which a connection is closed (default 3). */
  readonly maxRefusalsPerConnection?: number;
  /**
   * The campaign's one client of this upstream, shared with the other runs' gateways and the
   * judge's: each call waits its turn there before it is forwarded (src/gateway/limiter.ts).
   */
  readonly limiter?: UpstreamLimiter;
  /**
   * Asked before each call is forwarded: a reason refuses it (403, not to be retried), e.g. a
   * run past its limits or a campaign past its budget.
   */
  readonly admit?: () => string | undefined;
  /** Told of each call as it is logged (a run's meter, the campaign's spending). */
  readonly onCall?: (call: ModelCall) => void;
}

export interface ModelGateway {
  readonly socketPath: string;
  /** Calls logged so far (a copy), with what the witness reads of each. */
  calls(): RelayedCall[];
  /** The number of the last call logged (0 before any). */
  lastSeq(): number;
  /** Resolves once no call is in flight, or after `timeoutMs` (default 10 s). */
  settled(timeoutMs?: number): Promise<void>;
  /** Wall time (ms) during which a call of this gateway waited behind the limiter. */
  queuedMs(): number;
  /** Where each needle was first seen in a request. */
  needlesSeen(): NeedleSeen[];
  /** Requests the needle search could not read, or null when it read every one. */
  unsearched(): { count: number; first_seq: number; why: string } | null;
  /** Resolves once every call so far is written. */
  flushed(): Promise<void>;
  /** Stops listening, ends open calls, flushes the record and writes its manifest. */
  close(): Promise<void>;
}
