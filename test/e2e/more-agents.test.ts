/**
 * Gemini CLI, OpenCode, Qwen Code, Copilot CLI and Kilo Code, each the REAL binary in the test image through `evalrig
 * run`: the toy project's pull-request workflow over two turns (the second resuming the
 * session) against a "real" upstream at a URL whose key the gateway adds on the host, and a
 * model that refuses (400) failing the run in phase `agent`. Their
 * model calls leave the container through the relay and the run's gateway to the model
 * stand-in speaking their API (Gemini's streamGenerateContent, Chat Completions). One campaign
 * per agent (an eval set has one agent), its two runs at once.
 */
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  AGENT_ADAPTERS,
  COPILOT_CLI_VERIFIED_VERSION,
  ensureNodeRuntime,
  GEMINI_CLI_VERIFIED_VERSION,
  KILO_CODE_VERIFIED_VERSION,
  OPENCODE_VERIFIED_VERSION,
  QWEN_CODE_VERIFIED_VERSION,
} from '../../src/agents/index.js';
import type { ConditionsFile } from '../../src/artifacts/index.js';
import type { ModelCall } from '../../src/gateway/index.js';
import { loadModelScript, type ModelScript } from '../../src/model-stand-in/index.js';
import {
  adapterCampaign,
  expectAgentRecorded,
  expectModelCallsAnswered,
  expectNominalCompleted,
  expectNominalTurnsParsed,
  expectPullRequestMeasured,
  pullRequestScript,
  type ShellTool,
} from '../support/adapter-campaign.js';
import { readJson, readJsonLines } from '../support/campaign.js';
import { E2E_KEY, E2E_KEY_ENV, everythingWritten } from '../support/witness-evals.js';

interface Case {
  readonly type: 'gemini-cli' | 'opencode' | 'qwen-code' | 'copilot-cli' | 'kilo-code';
  readonly package: string;
  readonly version: string;
  readonly model: string;
  readonly shell: ShellTool;
  /** Fields its shell tool requires beside the command. */
  readonly more: Record<string, unknown>;
  readonly apiPath: string;
  /** The session id a turn's stream names. */
  session(line: Record<string, unknown>): unknown;
  /** How the refused turn fails: the run's error. */
  readonly refused: RegExp;
  /** The example's model script the nominal run plays as shipped, when the toy's cannot be. */
  readonly example?: string;
}

const CASES: readonly Case[] = [
  {
    type: 'gemini-cli',
    package: '@google/gemini-cli',
    version: process.env.EVALRIG_GEMINI_CLI_VERSION ?? GEMINI_CLI_VERIFIED_VERSION,
    model: 'gemini-2.5-pro',
    shell: { name: 'run_shell_command', field: 'command' },
    more: { description: 'Run the step.' },
    apiPath: '/v1beta/models/gemini-2.5-pro:streamGenerateContent',
    example: 'examples/gemini-cli/model/session.json',
    session: (l) => (l.type === 'init' ? l.session_id : undefined),
    // Checked with 0.61.0: a `result` with status error and the API's body, then a non-zero exit.
    refused: /^turn 1: the agent exited \d+ \(.*the stand-in refuses this request/u,
  },
  {
    type: 'opencode',
    package: 'opencode-ai',
    version: process.env.EVALRIG_OPENCODE_VERSION ?? OPENCODE_VERIFIED_VERSION,
    model: 'gpt-5.1',
    shell: { name: 'bash', field: 'command' },
    more: { description: 'Run the step.' },
    apiPath: '/v1/chat/completions',
    session: (l) => l.sessionID,
    // Checked with 1.18.33: an `error` line (APIError 400), then exit 1.
    refused: /^turn 1: the agent exited 1 \(APIError 400: the stand-in refuses this request/u,
  },
  {
    type: 'qwen-code',
    package: '@qwen-code/qwen-code',
    version: process.env.EVALRIG_QWEN_CODE_VERSION ?? QWEN_CODE_VERIFIED_VERSION,
    model: 'qwen3-coder-plus',
    shell: { name: 'run_shell_command', field: 'command' },
    more: { is_background: false, description: 'Run the step.' },
    apiPath: '/v1/chat/completions',
    session: (l) => (l.type === 'result' ? l.session_id : undefined),
    // Checked with 0.15.10: exit 0 and a "successful" result whose text is the API error.
    refused:
      /^turn 1: the agent reported an error: \[API Error: 400 the stand-in refuses this request/u,
  },
  {
    type: 'copilot-cli',
    package: '@github/copilot',
    version: process.env.EVALRIG_COPILOT_CLI_VERSION ?? COPILOT_CLI_VERIFIED_VERSION,
    model: 'gpt-5.4',
    shell: { name: 'bash', field: 'command' },
    more: { description: 'Run the step.' },
    apiPath: '/v1/chat/completions',
    session: (l) => (l.type === 'result' ? l.sessionId : undefined),
    // Checked with 1.0.102: a `session.error` (statusCode 400), a result with exitCode 1, exit 1.
    refused: /^turn 1: the agent exited 1 \(400 the stand-in refuses this request/u,
  },
  {
    type: 'kilo-code',
    package: '@kilocode/cli',
    version: process.env.EVALRIG_KILO_CODE_VERSION ?? KILO_CODE_VERIFIED_VERSION,
    model: 'grok-code-fast-1',
    shell: { name: 'bash', field: 'command' },
    more: { description: 'Run the step.' },
    apiPath: '/v1/chat/completions',
    session: (l) => l.sessionID,
    // Checked with 7.7.7: OpenCode's `error` line (APIError 400), then exit 1.
    refused: /^turn 1: the agent exited 1 \(APIError 400: the stand-in refuses this request/u,
  },
];

/**
 * A refusal no agent takes for a full context: "prompt is too long" makes OpenCode and Qwen
 * Code compact the conversation and ask again.
 */
const REFUSED: ModelScript = {
  responses: [{ error: { status: 400, message: 'the stand-in refuses this request' } }],
};

/**
 * The nominal run's model: the agent's example as shipped where the workflow cannot be written
 * the toy's way (Gemini CLI refuses a command holding `$(…)`: examples/gemini-cli writes the
 * stop kind without one), else the toy's workflow with the fields its shell tool requires.
 */
async function scriptFor(c: Case): Promise<ModelScript> {
  if (c.example) return loadModelScript(c.example);
  const script = pullRequestScript(c.shell);
  return {
    responses: script.responses.map((r) =>
      'content' in r
        ? {
            ...r,
            content: r.content.map((b) =>
              'tool_use' in b
                ? {
                    tool_use: {
                      ...b.tool_use,
                      input: { ...b.tool_use.input, ...c.more },
                    },
                  }
                : b,
            ),
          }
        : r,
    ),
  };
}

for (const c of CASES) {
  describe(`e2e: a ${c.type} campaign plays the real binary against the model stand-in`, function () {
    this.timeout(600_000);
    const campaign = adapterCampaign({
      agent: { type: c.type, version: c.version, model_name: c.model },
      shell: c.shell,
      script: () => scriptFor(c),
      // The nominal run's model is a "real" upstream at a URL: the gateway adds the key.
      upstream: { keyEnv: E2E_KEY_ENV, key: E2E_KEY },
      jobs: 2,
      refused: REFUSED,
      // The Node agents' heap is sized by the container's memory: 512m is too little for Qwen Code.
      resources: { memory: '1g', cpus: 1, pids: 256 },
    });

    it('completes two turns, the second resuming the session of the first; the pull request measured', async () => {
      await expectNominalCompleted(campaign);
      const sessionOf = async (n: number) => {
        const file = path.join(campaign.runDir('nominal'), `turns/turn-0${n}.jsonl`);
        const lines = await readJsonLines<Record<string, unknown>>(file);
        return lines.map((l) => c.session(l)).find((s) => typeof s === 'string');
      };
      expect(await sessionOf(1)).to.be.a('string');
      expect(await sessionOf(2)).to.equal(await sessionOf(1));
      const [planning, execution] = await expectPullRequestMeasured(campaign);
      // Every command the model asked for ran: none was refused by the agent's own policy.
      for (const stop of [planning, execution]) expect(stop.agent!.tool_calls.refused).to.equal(0);
    });

    it('takes its figures from the gateway: four calls on its API path, requests, tool calls, tokens', async () => {
      await expectModelCallsAnswered(campaign, c.apiPath);
      const [planning] = await expectNominalTurnsParsed(campaign);
      expect(planning.agent!.cost_usd).to.be.greaterThan(0);
      expect(planning.agent!.claim?.disagreements).to.deep.equal([]);
      await expectAgentRecorded(campaign, {
        package: c.package,
        version: c.version,
        model: c.model,
      });
    });

    it('names the Node runtime the agent ran on (package, version, sha256) beside it, where it has one', async () => {
      const conditions = await readJson<ConditionsFile>(
        path.join(campaign.ws.outDir, 'conditions.json'),
      );
      if (AGENT_ADAPTERS[c.type].runtime !== 'node') {
        expect(conditions.agent!.runtime).to.equal(undefined);
        return;
      }
      const node = await ensureNodeRuntime();
      expect(conditions.agent!.runtime).to.deep.equal({
        package: node.package,
        version: node.version,
        sha256: node.sha256,
      });
      const baseline = await readFile(path.join(campaign.ws.outDir, 'BASELINE.md'), 'utf8');
      expect(baseline).to.include(`| agent Node runtime sha256 | ${node.sha256} |`);
    });

    it('fails a run whose model answers 400, in the phase agent', async () => {
      const record = await campaign.record('refused');
      expect(record).to.include({ status: 'failed', phase: 'agent' });
      expect(record.error, record.error).to.match(c.refused);
      const file = path.join(campaign.runDir('refused'), 'model-calls.jsonl');
      const calls = await readJsonLines<ModelCall>(file);
      expect(calls.map((x) => [x.path, x.status])).to.deep.equal([[c.apiPath, 400]]);
    });

    it('the key, added on the host for the nominal run, is in nothing the campaign wrote', async () => {
      const all = await everythingWritten(campaign.ws.outDir);
      expect(all).to.include('Plan multiply.');
      expect(all).to.not.contain(E2E_KEY);
    });
  });
}
