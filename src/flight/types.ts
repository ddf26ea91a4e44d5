import type { DeepReadonly } from '../artifacts/readonly.js';
import type * as Generated from '../artifacts/schemas/model-call.js';
import type * as GeneratedRecord from '../artifacts/schemas/model-record.js';
import type { RequestFacts, ToolCallAsked } from './wire/types.js';

/** Where a call's body is in the record: a block of model-blocks.jsonl.gz, or why it is not. */
export type BodyRef = DeepReadonly<Generated.Body>;

/**
 * One line of a flight record's model-calls.jsonl: one model call as the gateway relayed it
 * (generated from model-call.schema.json). Figures here are the witness's: the host read
 * them from the bytes it relayed.
 */
export type ModelCall = DeepReadonly<Generated.ModelCall>;

/** A call as the gateway holds it in memory: the line, and what the witness reads beyond it. */
export interface RelayedCall extends Omit<ModelCall, 'toolCalls'> {
  /** The tool calls the answer asked for, with their inputs (capped; never written in the line). */
  readonly toolCalls: readonly ToolCallAsked[];
  /** The answer's text blocks (capped), for the turn's final message. */
  readonly texts: readonly string[];
  readonly requestFacts: RequestFacts | null;
}

/** Something whose arrival at the model the record watches for: every part in one string of a request. */
export interface Needle {
  readonly id: string;
  /** Strings (whitespace is normalized on both sides) that one string of one request must all hold. */
  readonly all: readonly string[];
}

/** Where a needle was first seen: the call whose request held it first, or null when none did. */
export type NeedleSeen = ModelRecordFile['needles'][number];

/** The caps of one run's record. */
export interface RecordCaps {
  /** Calls logged and numbered; past it the gateway answers 429 (default 5,000). */
  readonly maxCalls: number;
  /** Compressed bytes of bodies kept; past it bodies are no longer kept (default 256 MiB). */
  readonly maxBodyBytes: number;
  /** Refused calls logged one by one; the rest are counted (default 20). */
  readonly maxRefusalLines: number;
  /** Bytes of model-calls.jsonl; past it, no more lines (default 32 MiB). */
  readonly maxLogBytes: number;
}

export const DEFAULT_RECORD_CAPS: RecordCaps = {
  maxCalls: 5_000,
  maxBodyBytes: 256 * 1024 * 1024,
  maxRefusalLines: 20,
  maxLogBytes: 32 * 1024 * 1024,
};

/**
 * model-record.json: what a run's record holds, written when its gateway closes
 * (generated from model-record.schema.json).
 */
export type ModelRecordFile = DeepReadonly<GeneratedRecord.ModelRecordFile>;

export const MODEL_RECORD_SCHEMA = 'evalrig/model-record@1';
