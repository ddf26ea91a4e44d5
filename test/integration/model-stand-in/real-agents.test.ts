import { expect } from 'chai';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureAgentInstalled, type AgentInstall } from '../../../src/agents/index.js';
import { ensureTestImage } from '../../../src/image/index.js';
import {
  loadModelScript,
  startModelStandIn,
  type ModelStandIn,
} from '../../../src/model-stand-in/index.js';
import {
  LABELS,
  removeContainers,
  type Bind,
  type RunContainer,
} from '../../../src/runtime/index.js';
import { HOME, IDENTITY, initWork, startAgentContainer, WORK } from '../../support/agents.js';
import { requireDocker, TEST_CAMPAIGN, testDocker } from '../../support/docker.js';
import { bundleStandIn } from '../agent/bundle.js';
import { OFFLINE_AGENTS, RELAY_PORT, type AgentTurn, type OfflineAgent } from './real-agents.js';

/**
 * Gemini CLI, Qwen Code, OpenCode and Copilot CLI, the real npm packages, each in a container with no
 * network: its model calls go to the relay on the container's loopback, then through the
 * mounted socket to the model stand-in, which plays the agent's own wire API (Gemini,
 * Chat Completions) from one script. Three turns: a file written, a resumed turn whose
 * command fails, and a resumed turn the used-up script answers 400.
 *
 * `EVALRIG_RECORD_TRANSCRIPTS=1` writes the three streams to the agent's fixture folder,
 * the parser fixtures of test/fixtures/transcripts/.
 */
describe('real agents offline: Gemini CLI, Qwen Code, OpenCode and Copilot CLI against the model stand-in in a container with no network', function () {
  this.timeout(600_000);
  const client = testDocker();
  const labels = { [LABELS.campaign]: `${TEST_CAMPAIGN}-offline-agents` };
  let image: string;
  let node: string;
  let dir: string;
  let relay: string;
  let standIn: ModelStandIn | undefined;
  let container: RunContainer | undefined;

  before(async () => {
    await requireDocker();
    image = (await ensureTestImage(client, { onProgress: () => undefined })).tag;
    // The test image's node is the base's (Debian's 18); Gemini CLI and Qwen Code need 20.
    node = await realpath(process.execPath);
  });
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-offline-agent-'));
    await mkdir(path.join(dir, 'model'), { mode: 0o711 });
    relay = await bundleStandIn('model-relay', path.join(dir, 'relay', 'model-relay'));
  });
  afterEach(async () => {
    await container?.remove();
    await standIn?.close();
    container = standIn = undefined;
    await rm(dir, { recursive: true, force: true });
  });
  after(async () => {
    await removeContainers(client, labels);
  });

  // All four play whole campaigns (test/e2e/more-agents.test.ts) and the agent conformance
  // suite (test/agents/): here they are played only to record their fixtures again.
  const played = process.env.EVALRIG_RECORD_TRANSCRIPTS ? OFFLINE_AGENTS : [];
  for (const agent of played) {
    it(`${agent.name} ${agent.version}: writes a file, resumes to a failing command, reports a 400`, async () => {
      const install = await ensureAgentInstalled(agent.install);
      standIn = await startModelStandIn({
        script: await loadModelScript(path.join(agent.fixtures, 'model-script.json')),
        listen: { socketPath: path.join(dir, 'model', 'model.sock') },
      });
      container = await startAgentContainer(client, {
        image,
        labels,
        binds: binds(agent, install, node, relay, path.join(dir, 'model')),
      });
      await initWork(container);
      for (const [file, text] of Object.entries(agent.homeFiles)) {
        await writeInContainer(container, path.posix.join(HOME, file), text);
      }
      const turns = await playTurns(container, agent);
      await record(agent, turns);
      agent.check(turns);

      const notes = await container.exec(['cat', path.posix.join(WORK, 'notes.txt')]);
      expect(notes.stdout).to.equal('offline\n'); // the tool really ran, in the container
      const seen = standIn.requests();
      expect(seen.map((r) => r.status)).to.deep.equal([200, 200, 200, 200, 400]);
      expect(seen.every((r) => agent.path.test(r.path) && r.stream)).to.equal(true);
      expect(seen[1]!.toolResults).to.have.length(1);
      // The resumed turn sent the first turn's conversation again.
      expect(seen[2]!.messages).to.be.greaterThan(seen[1]!.messages);
    });
  }

  async function playTurns(c: RunContainer, agent: OfflineAgent): Promise<AgentTurn[]> {
    const prompts = ['Write notes.txt saying offline.', 'Push it.', 'Try again.'];
    const turns: AgentTurn[] = [];
    let session = agent.sessionId;
    for (const [i, prompt] of prompts.entries()) {
      const argv = agent.argv(prompt, i === 0 ? { first: session } : { resume: session });
      const r = await c.exec(
        [
          '/opt/evalrig/relay/model-relay',
          String(RELAY_PORT),
          '/run/evalrig-model/model.sock',
          '--',
          ...argv,
        ],
        { env: { ...IDENTITY, HOME, ...agent.env }, workingDir: WORK, timeoutMs: 180_000 },
      );
      expect(r.timedOut, `${agent.name} turn ${i + 1} timed out: ${r.stderr}`).to.equal(false);
      turns.push({ exitCode: r.exitCode, stdout: r.stdout, stderr: r.stderr });
      session ??= agent.sessionFrom?.(r.stdout);
    }
    return turns;
  }

  async function record(agent: OfflineAgent, turns: AgentTurn[]): Promise<void> {
    if (process.env.EVALRIG_RECORD_TRANSCRIPTS !== '1') return;
    const names = ['turn-01.jsonl', 'turn-02-resumed.jsonl', 'turn-03-api-error.jsonl'];
    for (const [i, t] of turns.entries()) {
      await writeFile(path.join(agent.fixtures, names[i]!), t.stdout);
    }
  }
});

/** The agent (read-only), the node to run it with, the relay and the stand-in's folder. */
function binds(
  agent: OfflineAgent,
  install: AgentInstall,
  node: string,
  relay: string,
  modelDir: string,
): Bind[] {
  return [
    { host: agent.mount(install), container: agent.mountAt, readOnly: true },
    { host: node, container: '/opt/evalrig/node/node', readOnly: true },
    { host: relay, container: '/opt/evalrig/relay/model-relay', readOnly: true },
    { host: modelDir, container: '/run/evalrig-model', readOnly: true },
  ];
}

async function writeInContainer(c: RunContainer, file: string, text: string): Promise<void> {
  const r = await c.exec(['sh', '-c', 'mkdir -p "$(dirname "$1")" && cat > "$1"', 'sh', file], {
    stdin: text,
  });
  expect(r.exitCode, r.stderr).to.equal(0);
}
