/**
 * What one gateway's calls share (its options, upstream, recorder, budget) and what one call
 * carries from its arrival to its line in the log. Types and defaults only.
 */
import type { Agent as HttpAgent, request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import type {
  BodyRef,
  FlightRecorder,
  RelayedCall,
  RequestFacts,
  ResponseReader,
  WireApi,
} from '../flight/index.js';
import type { BodyBudget } from './budget.js';
import type { QueuedTime, UpstreamTicket } from './limiter.js';
import type { SecretScrubber } from './scrub.js';
import type { ModelGatewayOptions } from './types.js';

export const DEFAULTS = {
  paths: ['/v1/messages'] as readonly string[],
  maxRequestBytes: 32 * 1024 * 1024,
  maxResponseBytes: 64 * 1024 * 1024,
  maxKeptResponseBytes: 8 * 1024 * 1024,
  maxBodyMemory: 64 * 1024 * 1024,
  idleTimeoutMs: 300_000,
  requestTimeoutMs: 60_000,
  maxConnections: 16,
  maxRefusalsPerConnection: 3,
};
export type Options = typeof DEFAULTS & ModelGatewayOptions;

/** What every call of one gateway shares. */
export interface Gateway {
  readonly opts: Options;
  readonly upstream: URL;
  readonly agent: HttpAgent;
  readonly send: typeof httpRequest;
  readonly recorder: FlightRecorder;
  readonly budget: BodyBudget;
  readonly calls: RelayedCall[];
  readonly refusalsOf: WeakMap<Socket, number>;
  readonly flight: { inFlight: number; waiters: (() => void)[] };
  /** Wall time this gateway's calls waited behind the campaign's upstream limiter. */
  readonly queued: QueuedTime;
  /** What the host added that the container must never see (the key or token). */
  readonly secrets: readonly string[];
}

/** One call from its arrival to its line in the log. */
export interface CallState {
  readonly began: number;
  readonly time: string;
  readonly method: string;
  readonly path: string;
  readonly api: WireApi | null;
  readonly socket: Socket;
  seq: number;
  requestBytes: number;
  responseBytes: number;
  requestFacts: RequestFacts | null;
  requestRef: BodyRef | undefined;
  reader: ResponseReader | null;
  kept: Buffer[] | null;
  keptBytes: number;
  keptWhy: string | undefined;
  done: boolean;
  /** Counted among the calls in flight (until it ends, once). */
  flying: boolean;
  /** Its place at the upstream, when the campaign's limiter gave one. */
  ticket?: UpstreamTicket;
  /** Masks the host's secrets in what is relayed back (an upstream echoing them). */
  readonly scrubber: SecretScrubber;
}
