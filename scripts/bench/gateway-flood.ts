/**
 * Host memory of `evalrig run --jobs 4` (or the runs given) while every run's agent floods its model gateway: the
 * real Claude Code binary runs, through its Bash tool, a program that keeps 12 connections
 * busy for the flood's duration with maximal bodies (just under the request cap, over it, and
 * to a refused path). Against the same campaign whose agents do not flood, in the same run.
 * The upstream is the model stand-in in this benchmark's own process (a "real" API at a URL),
 * so that the evalrig process's peak RSS is its own: campaign, gateways, records. Goal: the
 * flood adds at most the gateways' shared budget for bodies in flight (256 MiB).
 *
 * Needs the agent in the cache (scripts/agents.sh) and `npm run build`. Run:
 *   node --import tsx scripts/bench/gateway-flood.ts [seconds=15] [runs=4]
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CLAUDE_CODE_VERIFIED_VERSION } from '../../src/agents/index.js';
import { readRunFlight } from '../../src/campaign-folder/index.js';
import { CAMPAIGN_BODY_BUDGET } from '../../src/gateway/index.js';
import { startModelStandIn, type ScriptResponse } from '../../src/model-stand-in/index.js';
import { makeToyWorkspace } from '../../test/support/toy.js';

const SECONDS = Number(process.argv[2] ?? 15);
const RUNS = Number(process.argv[3] ?? 4);
const KEY_ENV = 'EVALRIG_BENCH_KEY';

/** Runs in the container (node of the base image): floods the run's gateway socket. */
const FLOOD_JS = `const http = require('http');
const end = Date.now() + Number(process.argv[2]) * 1000;
const near = Buffer.alloc(32 * 1024 * 1024 - 4096, 'x');
const over = Buffer.alloc(33 * 1024 * 1024, 'y');
const seen = {};
const one = (p, body) => new Promise((done) => {
  const req = http.request({ socketPath: '/run/evalrig-model/model.sock', path: p, method: 'POST',
    headers: { 'content-type': 'application/json' } }, (res) => {
    seen[res.statusCode] = (seen[res.statusCode] || 0) + 1;
    res.resume(); res.on('end', done); res.on('error', done);
  });
  req.on('error', () => { seen.error = (seen.error || 0) + 1; done(); });
  req.end(body);
});
const worker = async (i) => {
  while (Date.now() < end) await one(i % 3 === 2 ? '/v1/other' : '/v1/messages', [near, over, 'x'][i % 3]);
};
Promise.all(Array.from({ length: 12 }, (_, i) => worker(i)))
  .then(() => console.log('flood finished ' + JSON.stringify(seen)));
`;

/** Each run: one Bash call (the flood, or nothing), then an answer; matched by their text. */
function script(command: string): ScriptResponse[] {
  const answer: ScriptResponse = {
    when: { contains: ['flood finished'] },
    content: [{ text: 'Done.' }],
    usage: { input_tokens: 100, output_tokens: 2 },
  };
  const call: ScriptResponse = {
    when: { contains: ['Flood the gateway.'] },
    content: [{ tool_use: { name: 'Bash', input: { command, timeout: 600_000 } } }],
    usage: { input_tokens: 90, output_tokens: 9 },
  };
  // Answers first: a second request (holding the prompt too) takes an answer, a first a call.
  return [...Array<ScriptResponse>(RUNS).fill(answer), ...Array<ScriptResponse>(RUNS).fill(call)];
}

/** Plays the campaign in its own process; returns its peak RSS (VmHWM) and its folder. */
async function campaign(
  flood: boolean,
): Promise<{ peakMiB: number; outDir: string; cleanup: () => Promise<void> }> {
  const command = flood ? `node /evalset/flood.js ${SECONDS}` : 'echo "flood finished {}"';
  const upstream = await startModelStandIn({
    script: { responses: script(command) },
    listen: { port: 0 },
  });
  const ws = await makeToyWorkspace({
    scripts: {},
    files: { 'flood.js': FLOOD_JS },
    set: {
      agent: {
        type: 'claude-code',
        version: CLAUDE_CODE_VERIFIED_VERSION,
        model: { url: upstream.url, key_env: KEY_ENV },
      },
      resources: { memory: '1g', cpus: 1, pids: 256 },
      evals: [{ id: 'flood', prompt: 'Flood the gateway.', runs: RUNS }],
    },
  });
  const child = spawn(
    'node',
    [
      path.resolve('dist/src/cli/main.js'),
      'run',
      ws.evalSetFile,
      '--out',
      ws.outDir,
      '--jobs',
      String(RUNS),
    ],
    { env: { ...process.env, [KEY_ENV]: 'bench-key' }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  let peak = 0;
  const poll = setInterval(() => {
    readFile(`/proc/${child.pid}/status`, 'utf8')
      .then((s) => {
        const kb = Number(/VmHWM:\s+(\d+)/u.exec(s)?.[1] ?? 0);
        peak = Math.max(peak, kb);
      })
      .catch(() => undefined);
  }, 100);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(poll);
  await upstream.close();
  if (code !== 0) throw new Error(`the campaign failed (exit ${code}):\n${stderr.slice(-2000)}`);
  return { peakMiB: peak / 1024, outDir: ws.outDir, cleanup: ws.cleanup };
}

const quiet = await campaign(false);
const flooded = await campaign(true);
try {
  let refused = 0;
  let cut = 0;
  let kept = 0;
  for (let n = 1; n <= RUNS; n++) {
    const record = await readRunFlight(
      path.join(flooded.outDir, 'runs/flood/default', `run-0${n}`),
    );
    refused += record.manifest!.refused.total;
    cut += record.manifest!.connections_cut;
    kept += record.calls.length;
  }
  const budget = CAMPAIGN_BODY_BUDGET / 1024 / 1024;
  console.log(
    `${RUNS} runs at --jobs ${RUNS}, each flooding its gateway for ${SECONDS} s with 12 connections`,
  );
  console.log(`refused: ${refused} requests (${kept} calls logged, ${cut} connections cut)`);
  console.log(`peak RSS of evalrig, agents quiet:    ${quiet.peakMiB.toFixed(0)} MiB`);
  console.log(`peak RSS of evalrig, agents flooding: ${flooded.peakMiB.toFixed(0)} MiB`);
  console.log(
    `added by the flood: ${(flooded.peakMiB - quiet.peakMiB).toFixed(0)} MiB (goal: at most the ${budget} MiB budget)`,
  );
} finally {
  await quiet.cleanup();
  await flooded.cleanup();
}
