/**
 * One turn of a real agent (gemini-cli, opencode or qwen-code) played through evalrig's pieces
 * (the run's model gateway, the exec through the Docker API, the transcript capped and parsed)
 * against the same binary run by a bare `docker exec` whose relay pipes to the model stand-in's
 * own socket, in the same container, interleaved. Both go through the model relay: none of
 * these agents can reach a unix socket. The turn: one shell call, then a text answer. Goal:
 * <= 1.2x.
 *
 * Needs the agent in the cache (scripts/agents.sh) and the relay built (npm run build). Qwen Code
 * needs a passwd entry for uid 1000 (os.userInfo): give it a test image (EVALRIG_BASE_IMAGE). Run:
 *   node --import tsx scripts/bench/agent-turn.ts gemini-cli|opencode|qwen-code [turns=5]
 */
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  AGENT_ADAPTERS,
  agentFiles,
  ensureAgentInstalled,
  ensureNodeRuntime,
  ensureSettingsFile,
  playAgentTurn,
  type AdapterType,
} from '../../src/agents/index.js';
import { relayBundle } from '../../src/campaign/agent.js';
import { flightFiles } from '../../src/campaign-folder/index.js';
import { openRunGateway } from '../../src/gateway/index.js';
import { startModelStandIn, type ScriptResponse } from '../../src/model-stand-in/index.js';
import { connectDocker, startContainer } from '../../src/runtime/index.js';

/** The agents measured, each at its version and with the name of its shell tool. */
const VERSIONS: Record<string, { version: string; shell: string }> = {
  'gemini-cli': { version: '0.61.0', shell: 'run_shell_command' },
  opencode: { version: '1.18.33', shell: 'bash' },
  'qwen-code': { version: '0.15.10', shell: 'run_shell_command' },
};
const type = process.argv[2] as AdapterType;
const found = VERSIONS[type];
if (!found) throw new Error(`usage: agent-turn.ts ${Object.keys(VERSIONS).join('|')} [turns]`);
// Each asks for its default model, as an eval set that names none.
const agent = { ...found, model: AGENT_ADAPTERS[type].defaultModel ?? undefined };
const TURNS = Number(process.argv[3] ?? 5);
const run = promisify(execFile);
const input = { command: 'echo hi > f && cat f', description: 'Write f.', is_background: false };
const pair: ScriptResponse[] = [
  {
    content: [{ tool_use: { name: agent.shell, input } }],
    usage: { input_tokens: 1000, output_tokens: 20 },
  },
  { content: [{ text: 'Done.' }], usage: { input_tokens: 1100, output_tokens: 5 } },
];
const script = { responses: Array.from({ length: TURNS + 2 }, () => pair).flat() };

const adapter = AGENT_ADAPTERS[type];
const install = await ensureAgentInstalled(adapter.install(agent.version));
const support = {
  ...(adapter.runtime ? { node: (await ensureNodeRuntime()).binary } : {}),
  ...(adapter.settings
    ? { settings: await ensureSettingsFile(type, adapter.settings.content) }
    : {}),
  ...(adapter.unpacked ? { unpacked: await adapter.unpacked.unpack(install) } : {}),
};
const files = agentFiles(adapter, install, relayBundle(), support);
const dir = await mkdtemp(path.join(tmpdir(), 'evalrig-bench-turn-'));
const flight = flightFiles(dir);
const gw = await openRunGateway({
  source: { script },
  logPath: flight.calls,
  record: { blocksPath: flight.blocks, manifestPath: flight.manifest },
  paths: adapter.gatewayPaths,
});
const directDir = await mkdtemp(path.join(tmpdir(), 'evalrig-bench-direct-'));
await chmod(directDir, 0o711);
const direct = await startModelStandIn({
  script,
  listen: { socketPath: path.join(directDir, 'model.sock') },
});
const client = connectDocker();
const container = await startContainer(client, {
  image: process.env.EVALRIG_BASE_IMAGE ?? 'evalrig-base:bookworm',
  user: '65534:65534',
  execUser: '1000:1000',
  labels: { 'evalrig.bench': 'agent-turn' },
  binds: [
    ...files.map((f) => ({ host: f.host, container: f.container, readOnly: true })),
    { host: gw.hostDir, container: adapter.modelDir, readOnly: true },
    { host: directDir, container: '/run/direct', readOnly: true },
  ],
});
const HOME = '/tmp/home';
await container.exec(['mkdir', '-p', HOME, '/tmp/work']);
const newSession = () => adapter.newSession({ model: agent.model, extraArgs: [] });

async function viaEvalrig(): Promise<number> {
  const began = performance.now();
  const played = await playAgentTurn(container, newSession(), adapter.env(HOME, agent.model), {
    prompt: 'go',
    home: HOME,
    workingDir: '/tmp/work',
    timeoutMs: 120_000,
    maxTranscriptBytes: 4 * 1024 * 1024,
  });
  if (played.exec.exitCode !== 0 || played.summary.finalMessage !== 'Done.') {
    throw new Error(`evalrig turn failed: ${played.exec.stderr.slice(-2000)}`);
  }
  return performance.now() - began;
}

async function bare(): Promise<number> {
  const began = performance.now();
  const argv = newSession()
    .argv('go')
    .map((a) => (a === `${adapter.modelDir}/model.sock` ? '/run/direct/model.sock' : a));
  const env = Object.entries(adapter.env(HOME, agent.model)).flatMap(([k, v]) => [
    '-e',
    `${k}=${v}`,
  ]);
  const { stdout } = await run(
    'docker',
    ['exec', '-u', '1000:1000', '-w', '/tmp/work', ...env, container.id, ...argv],
    { maxBuffer: 1 << 24 },
  );
  if (!stdout.includes('Done.')) throw new Error('bare turn failed');
  return performance.now() - began;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
try {
  await viaEvalrig(); // warm the page cache for the binary and both paths
  await bare();
  const times = { evalrig: [] as number[], bare: [] as number[] };
  for (let i = 0; i < TURNS; i++) {
    times.evalrig.push(await viaEvalrig());
    times.bare.push(await bare());
  }
  const e = median(times.evalrig);
  const b = median(times.bare);
  console.log(`${type} ${agent.version}: ${TURNS} turns each, interleaved (a shell call, a text)`);
  console.log(`bare docker exec, stand-in socket: median ${b.toFixed(0)} ms`);
  console.log(`through evalrig (gateway, parse):  median ${e.toFixed(0)} ms`);
  console.log(`ratio: ${(e / b).toFixed(2)}x (goal <= 1.2x)`);
} finally {
  await container.remove();
  await gw.close();
  await direct.close();
  await rm(dir, { recursive: true, force: true });
  await rm(directDir, { recursive: true, force: true });
}
