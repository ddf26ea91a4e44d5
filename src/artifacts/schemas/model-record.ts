// Generated from model-record.schema.json by scripts/generate-types.mjs: do not edit.
// Change the schema, then run `npm run build` (or node scripts/generate-types.mjs).

/**
 * evalrig flight record manifest (runs/<eval>/<condition>/run-NN/model-record.json; src/flight/README.md)
 */
export interface ModelRecordFile {
  schema: 'evalrig/model-record@1';
  calls: number;
  refused: {
    total: number;
    logged: number;
    by_status: {
      [k: string]: number;
    };
  };
  connections_cut: number;
  /**
   * Secrets the host added (the key or token) that the upstream sent back, over all calls logged: masked before they reached the agent.
   */
  echoes_scrubbed?: number;
  bodies: {
    kept: boolean;
    blocks: number;
    bytes: number;
    request_bytes: number;
    response_bytes: number;
  };
  caps: {
    max_calls: number;
    max_body_bytes: number;
    max_refusal_lines: number;
    max_log_bytes: number;
  };
  truncated: null | {
    at_seq: number;
    why: string;
  };
  needles: {
    id: string;
    seq: number | null;
  }[];
  /**
   * Requests the needle search could not read (not JSON, too large, not the API's shape): a needle not seen is then undecided, not absent.
   */
  unsearched?: {
    count: number;
    first_seq: number;
    why: string;
  };
}
