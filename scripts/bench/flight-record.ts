/**
 * The flight record's size for a real session: the real Claude Code binary plays one turn of
 * 50 model requests (49 Bash calls whose outputs grow the history, then an answer) against
 * the model stand-in, through a run gateway keeping its record as a campaign's does. The
 * figure: bytes kept (model-blocks.jsonl.gz, model-calls.jsonl and model-record.json) against
 * the sum of the raw request bodies the gateway relayed. Goal: at most 1/10.
 *
 * Needs the agent in the cache (scripts/agents.sh). Run:
 *   node --import tsx scripts/bench/flight-record.ts [requests=50]
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  CLAUDE_CODE_BIN,
  CLAUDE_CODE_PACKAGE,
  CLAUDE_CODE_VERIFIED_VERSION,
  ClaudeCodeSession,
  claudeCodeBinds,
  ensureAgentInstalled,
  playClaudeCodeTurn,
} from '../../src/agents/index.js';
import { flightFiles, readRunFlight } from '../../src/campaign-folder/index.js';
import { openRunGateway } from '../../src/gateway/index.js';
import type { ScriptResponse } from '../../src/model-stand-in/index.js';
import { connectDocker, startContainer } from '../../src/runtime/index.js';

const REQUESTS = Number(process.argv[2] ?? 50);
// Each call's output (a listing, a file) joins the history the next request resends.
const step = (i: number): ScriptResponse => ({
  content: [
    { text: `Step ${i}: looking at more of the repository.` },
    {
      tool_use: {
        name: 'Bash',
        input: {
          command: `seq ${i * 100} ${i * 100 + 60} | sed 's/^/line /'`,
          description: `step ${i}`,
        },
      },
    },
  ],
  usage: {
    input_tokens: 2000 + i * 300,
    output_tokens: 60,
    cache_read_input_tokens: 1500 + i * 250,
  },
});
const script = {
  responses: [
    ...Array.from({ length: REQUESTS - 1 }, (_, i) => step(i + 1)),
    { content: [{ text: 'Done.' }], usage: { input_tokens: 20_000, output_tokens: 5 } },
  ],
};

const install = await ensureAgentInstalled({
  package: CLAUDE_CODE_PACKAGE,
  version: CLAUDE_CODE_VERIFIED_VERSION,
  bin: CLAUDE_CODE_BIN,
});
const dir = await mkdtemp(path.join(tmpdir(), 'evalrig-bench-flight-'));
const files = flightFiles(dir);
const gw = await openRunGateway({
  source: { script },
  logPath: files.calls,
  record: { blocksPath: files.blocks, manifestPath: files.manifest },
});
const container = await startContainer(connectDocker(), {
  image: process.env.EVALRIG_BASE_IMAGE ?? 'evalrig-base:bookworm',
  user: '65534:65534',
  execUser: '1000:1000',
  labels: { 'evalrig.bench': 'flight-record' },
  binds: claudeCodeBinds(install.binary, gw.hostDir),
});
try {
  await container.exec(['mkdir', '-p', '/tmp/home', '/tmp/work']);
  const played = await playClaudeCodeTurn(container, new ClaudeCodeSession(), {
    prompt: 'Look through the repository, one step at a time.',
    home: '/tmp/home',
    workingDir: '/tmp/work',
    timeoutMs: 600_000,
    maxTranscriptBytes: 16 * 1024 * 1024,
  });
  if (played.summary.finalMessage !== 'Done.')
    throw new Error(`the session failed: ${played.exec.stderr}`);
  await gw.close();
  const record = await readRunFlight(dir);
  const m = record.manifest!;
  const size = async (f: string) => (await stat(f)).size;
  const kept =
    (await size(files.blocks)) + (await size(files.calls)) + (await size(files.manifest));
  const raw = m.bodies.request_bytes;
  console.log(
    `requests: ${record.calls.length} (answered ${record.calls.filter((c) => c.status === 200).length})`,
  );
  console.log(`raw request bodies: ${raw} bytes (responses ${m.bodies.response_bytes})`);
  console.log(
    `kept: ${kept} bytes (blocks ${m.bodies.bytes}, ${m.bodies.blocks} blocks; index and manifest ${kept - m.bodies.bytes})`,
  );
  console.log(`ratio: 1/${(raw / kept).toFixed(1)} of the raw requests (goal: at most 1/10)`);
  const last = record.calls.at(-1)!;
  const rebuilt = JSON.stringify(record.request(last));
  console.log(`the last request rebuilt: ${rebuilt.length} bytes (${last.requestBytes} relayed)`);
} finally {
  await container.remove();
  await gw.close().catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
}
