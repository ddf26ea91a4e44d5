/**
 * What the stand-in reads of a request, in every API's words: the renderers (chat.ts,
 * gemini.ts) fill it and the server (server.ts) notes it. Its own file so that the server
 * imports the renderers and nothing imports the server back.
 */
import type { PickHow } from './player.js';

/** One tool result the agent sent back (what its tool returned). */
export interface SeenToolResult {
  readonly toolUseId: string;
  readonly isError: boolean;
  readonly text: string;
}

/** What the stand-in saw of one request, for tests and the run's record. */
export interface StandInRequest {
  /** 1, 2, … in arrival order. */
  readonly n: number;
  readonly path: string;
  readonly model: string | null;
  readonly stream: boolean;
  /** The number of messages in the conversation sent. */
  readonly messages: number;
  /** The tool results in the last user message (what the agent's tools returned). */
  readonly toolResults: readonly SeenToolResult[];
  /** Which scripted response answered it (index in `responses`), or null if none did. */
  readonly response: number | null;
  /** How it was chosen (see player.ts); absent for a request never matched (404, 413, not JSON). */
  readonly how?: PickHow;
  readonly status: number;
}

/** One request's facts as an API's reader gives them to the server. */
export interface SeenRequest {
  model: string | null;
  stream: boolean;
  messages: number;
  toolResults: StandInRequest['toolResults'];
  /** Chat Completions' `stream_options.include_usage`: a last chunk with the usage. */
  includeUsage?: boolean;
}
