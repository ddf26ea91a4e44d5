/**
 * The model gateway's added latency per model call: the median wall time of one streamed
 * `POST /v1/messages` (a text block and a tool_use block, as an agent's turn asks) sent
 * through the gateway's Unix socket to the model stand-in, against the same call sent to the
 * stand-in directly, interleaved, keep-alive on both sides; the gateway keeps its flight
 * record as a run's does (bodies cut into blocks, compressed, written), and once more with
 * the log alone. The body is a Claude Code-like request whose history grows by one exchange
 * a call (the system prompt and tools repeated). Goal: under 5 ms at the median, recording.
 *
 * Run: node --import tsx scripts/bench/gateway.ts [calls=300]
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { flightFiles, readRunFlight } from '../../src/campaign-folder/index.js';
import { startModelGateway } from '../../src/gateway/index.js';
import { startModelStandIn, type ScriptResponse } from '../../src/model-stand-in/index.js';

const CALLS = Number(process.argv[2] ?? 300);
const response: ScriptResponse = {
  content: [
    { text: 'I will look at the repository first.' },
    { tool_use: { name: 'Bash', input: { command: 'git status && git log --oneline -5' } } },
  ],
  usage: { input_tokens: 5000, output_tokens: 80, cache_read_input_tokens: 4000 },
};
/** The n-th call's body: 20 kB of system prompt and tools, and a history of n exchanges. */
function body(n: number): string {
  const messages: unknown[] = [];
  for (let i = 0; i < n; i++) {
    messages.push({
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: `t${i}`, content: `out ${i} ${'o'.repeat(800)}` },
      ],
    });
    messages.push({
      role: 'assistant',
      content: [{ type: 'text', text: `step ${i} ${'a'.repeat(200)}` }],
    });
  }
  messages.push({ role: 'user', content: 'go on' });
  return JSON.stringify({
    model: 'bench',
    max_tokens: 1000,
    stream: true,
    system: [{ type: 'text', text: 'You are a coding agent. '.repeat(500) }],
    tools: Array.from({ length: 12 }, (_, i) => ({
      name: `T${i}`,
      description: 'd'.repeat(700),
      input_schema: {},
    })),
    messages,
  });
}

const dir = await mkdtemp(path.join(tmpdir(), 'evalrig-bench-gateway-'));
await mkdir(path.join(dir, 'model'), { mode: 0o711 });
await mkdir(path.join(dir, 'log'), { mode: 0o711 });
const standIn = await startModelStandIn({
  script: { responses: Array.from({ length: CALLS * 3 + 30 }, () => response) },
  listen: { port: 0 },
});
const files = flightFiles(dir);
// Keyed as a real upstream is: the key is added to each call and masked in each answer.
const upstream = { url: standIn.url, apiKey: 'sk-ant-api03-bench-key-0000000000000000' };
const recording = await startModelGateway({
  socketPath: path.join(dir, 'model', 'model.sock'),
  upstream,
  logPath: files.calls,
  record: { blocksPath: files.blocks, manifestPath: files.manifest },
});
const logOnly = await startModelGateway({
  socketPath: path.join(dir, 'log', 'model.sock'),
  upstream,
  logPath: path.join(dir, 'log-only.jsonl'),
});
const direct = new URL(standIn.url);
type Via = 'direct' | 'recording' | 'logOnly';
const agents: Record<Via, Agent> = {
  direct: new Agent({ keepAlive: true }),
  recording: new Agent({ keepAlive: true }),
  logOnly: new Agent({ keepAlive: true }),
};

function once(via: Via, n: number): Promise<number> {
  const began = performance.now();
  const target =
    via === 'direct'
      ? { host: direct.hostname, port: Number(direct.port) }
      : { socketPath: (via === 'recording' ? recording : logOnly).socketPath };
  return new Promise((resolve, reject) => {
    const req = request(
      {
        ...target,
        agent: agents[via],
        method: 'POST',
        path: '/v1/messages',
        headers: { 'content-type': 'application/json' },
      },
      (res) => {
        res.on('data', () => undefined);
        res.on('end', () => resolve(performance.now() - began));
      },
    );
    req.on('error', reject);
    req.end(body(n));
  });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

for (let i = 0; i < 10; i++) await once((['direct', 'recording', 'logOnly'] as const)[i % 3]!, 0);
const times: Record<Via, number[]> = { direct: [], recording: [], logOnly: [] };
for (let i = 0; i < CALLS; i++) {
  for (const via of ['direct', 'recording', 'logOnly'] as const)
    times[via].push(await once(via, i % 60));
}
const d = median(times.direct);
const r = median(times.recording);
const l = median(times.logOnly);
await recording.close();
const manifest = (await readRunFlight(dir)).manifest!;
console.log(
  `calls: ${CALLS} each way, interleaved; bodies ${Math.round(body(0).length / 1024)}-${Math.round(body(59).length / 1024)} kB`,
);
console.log(`direct to the stand-in:         median ${d.toFixed(2)} ms`);
console.log(
  `through the gateway, log only:  median ${l.toFixed(2)} ms (+${(l - d).toFixed(2)} ms)`,
);
console.log(
  `through the gateway, recording: median ${r.toFixed(2)} ms (+${(r - d).toFixed(2)} ms; goal < 5 ms)`,
);
console.log(
  `record: ${manifest.bodies.bytes} bytes kept for ${manifest.bodies.request_bytes + manifest.bodies.response_bytes} bytes relayed (${((manifest.bodies.bytes / (manifest.bodies.request_bytes + manifest.bodies.response_bytes)) * 100).toFixed(1)}%)`,
);
await logOnly.close();
await standIn.close();
for (const a of Object.values(agents)) a.destroy();
await rm(dir, { recursive: true, force: true });
