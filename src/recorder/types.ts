import type { GhState as StandInState } from '../../stand-in/gh/schemas/state.js';
import type { DeepReadonly, GhCall } from '../artifacts/index.js';

/** The stand-in's state.json as the stand-in reports it (generated from its state schema). */
export type GhState = DeepReadonly<StandInState>;

/** Why a message was refused. */
export type GhRecorderProblemKind =
  /** A line longer than maxMessageBytes: the connection is dropped. */
  | 'oversize'
  /** No whole message (or the acknowledgement not taken) within the connection's time. */
  | 'timeout'
  /** The connection ended before a newline. */
  | 'incomplete'
  /** More connections open at once than allowed: dropped at once. */
  | 'too-many-connections'
  /** Not UTF-8, or not JSON. */
  | 'not-json'
  /** Not `{ "v": 1, "call", "state" }`. */
  | 'bad-message'
  /** The call does not match the stand-in's call schema. */
  | 'bad-call'
  /** The state does not match the stand-in's state schema (nor is null). */
  | 'bad-state'
  /** The call's seq is not after the last accepted one. */
  | 'seq'
  /** maxCalls calls were already accepted. */
  | 'too-many-calls';

/** A message the recorder refused, or a connection it dropped. */
export interface GhRecorderProblem {
  readonly kind: GhRecorderProblemKind;
  readonly reason: string;
  /** When it happened (ISO 8601). */
  readonly at: string;
}

export interface GhRecorderOptions {
  /**
   * Where to listen: a path in a folder the caller made for this run (the folder is mounted
   * into the container). The socket is created there with mode 0666.
   */
  readonly socketPath: string;
  /** The longest message line accepted, in bytes (the newline excluded). */
  readonly maxMessageBytes: number;
  /** The most calls accepted; later ones are refused and counted. */
  readonly maxCalls: number;
  /** How long one connection may take to send its message and read the ack (ms; 5000). */
  readonly connectionTimeoutMs?: number;
  /** Connections open at once; more are dropped and counted (32). */
  readonly maxConnections?: number;
  /** Problems kept in detail; the count goes on past it (1000). */
  readonly maxProblems?: number;
}

/** The host's copy of one run's gh record. */
export interface GhRecorder {
  readonly socketPath: string;
  /** Every accepted call, in seq order. */
  calls(): readonly GhCall[];
  /** The state of the last accepted call that carried one; null before any. */
  state(): GhState | null;
  /** The refused messages and dropped connections (the first maxProblems of them). */
  problems(): readonly GhRecorderProblem[];
  /** How many problems there were in all. */
  problemCount(): number;
  /** Stops listening, drops open connections and removes the socket file. */
  close(): Promise<void>;
}
