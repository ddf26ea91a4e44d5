import { ArtifactSchemaError, assertArtifact } from '../artifacts/index.js';
import type { ModelCall } from '../flight/index.js';
import { readBytes } from './json.js';
import { runFiles } from './layout.js';
import type { Read } from './result.js';

/** model-calls.jsonl is capped at 32 MiB by its writer; a bigger one is not evalrig's. */
const MAX_CALLS_BYTES = 64 * 1024 * 1024;

/**
 * The model calls a run's gateway logged (model-calls.jsonl), each line checked against its
 * schema, without the bodies (no block is read). Read as every file of the folder is: no link
 * followed, a size cap, regular files only. Missing when the run made no call; broken, at the
 * first line that is not a call, when the log is damaged. The last line of a run cut while
 * its gateway wrote may be torn: that one is left out, as it was never finished.
 *
 * @example
 * const read = await readRunCalls('out/runs/fix-bug/with_skill/run-01');
 * if (read.status === 'ok') console.log(read.value.map((c) => c.tokens.output));
 */
export async function readRunCalls(dir: string): Promise<Read<ModelCall[]>> {
  const file = runFiles(dir).modelCallsJsonl;
  const bytes = await readBytes(file, MAX_CALLS_BYTES);
  if (bytes.status !== 'ok') return bytes;
  const lines = bytes.value.toString('utf8').split('\n');
  const calls: ModelCall[] = [];
  for (const [i, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const last = i === lines.length - 1;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      if (last) break;
      return { status: 'broken', file, problem: `${file}: line ${i + 1} is not JSON` };
    }
    try {
      assertArtifact('model-call', value, `${file}:${i + 1}`);
    } catch (error) {
      if (!(error instanceof ArtifactSchemaError)) throw error;
      return { status: 'broken', file, problem: error.message };
    }
    calls.push(value as ModelCall);
  }
  return { status: 'ok', file, value: calls };
}
