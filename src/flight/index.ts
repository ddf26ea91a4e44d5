/**
 * The flight record: what a run's model gateway relayed, kept by the host as the witness of
 * the session. One module owns its three files in the run folder, their schemas and the one
 * way to write and read them; see ./README.md for the format.
 *
 * ```ts
 * const recorder = new FlightRecorder({ logPath, bodies: { blocksPath, manifestPath },
 *   secrets: [apiKey], needles });            // the gateway writes through it
 * const record = await readFlight(files);      // everyone else reads through this
 * const turn = witnessTurn(calls, priceOf);    // figures of a turn from its calls
 * ```
 */
export {
  FlightRecorder,
  normalize,
  SECRET_MARK,
  type FlightRecorderOptions,
  type KeptRequest,
  type MemoryBudget,
} from './writer.js';
export { FlightRecordError, readFlight, type FlightFiles, type FlightRecord } from './reader.js';
export { joinBlocks, splitJson, type Block, type Split } from './blocks.js';
export * from './types.js';
export * from './wire/index.js';
export { witnessTurn, type CallPricer, type WitnessedTurn, type WitnessTokens } from './witness.js';
