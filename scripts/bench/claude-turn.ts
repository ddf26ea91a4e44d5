/**
 * One turn of the real Claude Code binary played through evalrig's pieces (the run's model
 * gateway, the exec through the Docker API, the transcript capped and parsed) against the same
 * binary run by a bare `docker exec` talking to the model stand-in's own socket, in the same
 * container, interleaved. The turn: one Bash call, then a text answer. Goal: <= 1.2x.
 *
 * Needs the agent in the cache (scripts/agents.sh). Run:
 *   node --import tsx scripts/bench/claude-turn.ts [turns=5]
 */
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import {
  CLAUDE_CODE_BIN,
  CLAUDE_CODE_PACKAGE,
  CLAUDE_CODE_VERIFIED_VERSION,
  ClaudeCodeSession,
  claudeCodeArgv,
  claudeCodeBinds,
  ensureAgentInstalled,
  newSessionId,
  playClaudeCodeTurn,
} from '../../src/agents/index.js';
import { flightFiles } from '../../src/campaign-folder/index.js';
import { openRunGateway } from '../../src/gateway/index.js';
import { startModelStandIn, type ScriptResponse } from '../../src/model-stand-in/index.js';
import { connectDocker, startContainer } from '../../src/runtime/index.js';

const TURNS = Number(process.argv[2] ?? 5);
const run = promisify(execFile);
const pair: ScriptResponse[] = [
  {
    content: [{ tool_use: { name: 'Bash', input: { command: 'echo hi > f && cat f' } } }],
    usage: { input_tokens: 1000, output_tokens: 20 },
  },
  { content: [{ text: 'Done.' }], usage: { input_tokens: 1100, output_tokens: 5 } },
];
const script = { responses: Array.from({ length: TURNS + 2 }, () => pair).flat() };

const install = await ensureAgentInstalled({
  package: CLAUDE_CODE_PACKAGE,
  version: CLAUDE_CODE_VERIFIED_VERSION,
  bin: CLAUDE_CODE_BIN,
});
const dir = await mkdtemp(path.join(tmpdir(), 'evalrig-bench-turn-'));
// The gateway keeps its flight record, as a campaign's run gateway does.
const files = flightFiles(dir);
const gw = await openRunGateway({
  source: { script },
  logPath: files.calls,
  record: { blocksPath: files.blocks, manifestPath: files.manifest },
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
  labels: { 'evalrig.bench': 'claude-turn' },
  binds: [
    ...claudeCodeBinds(install.binary, gw.hostDir),
    { host: directDir, container: '/run/direct', readOnly: true },
  ],
});
const HOME = '/tmp/home';
await container.exec(['mkdir', '-p', HOME, '/tmp/work']);

async function viaEvalrig(): Promise<number> {
  const began = performance.now();
  const played = await playClaudeCodeTurn(container, new ClaudeCodeSession(), {
    prompt: 'go',
    home: HOME,
    workingDir: '/tmp/work',
    timeoutMs: 120_000,
    maxTranscriptBytes: 4 * 1024 * 1024,
  });
  if (played.exec.exitCode !== 0 || played.summary.finalMessage !== 'Done.') {
    throw new Error(`evalrig turn failed: ${played.exec.stderr}`);
  }
  return performance.now() - began;
}

async function bare(): Promise<number> {
  const began = performance.now();
  const argv = claudeCodeArgv({ prompt: 'go', sessionId: newSessionId(), resume: false });
  const { stdout } = await run(
    'docker',
    [
      'exec',
      '-u',
      '1000:1000',
      '-w',
      '/tmp/work',
      '-e',
      `HOME=${HOME}`,
      '-e',
      'ANTHROPIC_UNIX_SOCKET=/run/direct/model.sock',
      '-e',
      'ANTHROPIC_BASE_URL=http://localhost',
      '-e',
      'ANTHROPIC_API_KEY=placeholder',
      '-e',
      'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1',
      container.id,
      ...argv,
    ],
    { maxBuffer: 1 << 24 },
  );
  if (!stdout.includes('"result":"Done."')) throw new Error('bare turn failed');
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
  console.log(`turns: ${TURNS} each, interleaved (one Bash call and a text answer per turn)`);
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
