/**
 * The model gateway's added latency per model call: the median wall time of one streamed
 * `POST /v1/messages` (a text block and a tool_use block, as an agent's turn asks) sent
 * through the gateway's Unix socket to the model stand-in, against the same call sent to the
 * stand-in directly, interleaved, keep-alive on both sides. Goal: under 5 ms at the median.
 *
 * Run: node --import tsx scripts/bench/gateway.ts [calls=300]
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
const body = JSON.stringify({
  model: 'bench',
  max_tokens: 1000,
  stream: true,
  messages: [{ role: 'user', content: 'x'.repeat(20_000) }],
});

const dir = await mkdtemp(path.join(tmpdir(), 'evalrig-bench-gateway-'));
await mkdir(path.join(dir, 'model'), { mode: 0o711 });
const standIn = await startModelStandIn({
  script: { responses: Array.from({ length: CALLS * 2 + 20 }, () => response) },
  listen: { port: 0 },
});
const gateway = await startModelGateway({
  socketPath: path.join(dir, 'model', 'model.sock'),
  upstream: { url: standIn.url },
  logPath: path.join(dir, 'model-calls.jsonl'),
});
const direct = new URL(standIn.url);
const agents = { direct: new Agent({ keepAlive: true }), gateway: new Agent({ keepAlive: true }) };

function once(via: 'direct' | 'gateway'): Promise<number> {
  const began = performance.now();
  const target =
    via === 'direct'
      ? { host: direct.hostname, port: Number(direct.port) }
      : { socketPath: gateway.socketPath };
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
    req.end(body);
  });
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

for (let i = 0; i < 10; i++) await once(i % 2 ? 'direct' : 'gateway'); // warm both paths
const times = { direct: [] as number[], gateway: [] as number[] };
for (let i = 0; i < CALLS; i++) {
  times.direct.push(await once('direct'));
  times.gateway.push(await once('gateway'));
}
const d = median(times.direct);
const g = median(times.gateway);
console.log(`calls: ${CALLS} each, interleaved`);
console.log(`direct to the stand-in: median ${d.toFixed(2)} ms`);
console.log(`through the gateway:    median ${g.toFixed(2)} ms`);
console.log(`added by the gateway:   ${(g - d).toFixed(2)} ms at the median (goal < 5 ms)`);
await gateway.close();
await standIn.close();
agents.direct.destroy();
agents.gateway.destroy();
await rm(dir, { recursive: true, force: true });
