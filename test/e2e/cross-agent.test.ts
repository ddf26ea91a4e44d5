/**
 * A cross-agent campaign: one eval set whose conditions are agents, the REAL Claude Code and
 * Codex binaries over the same pull-request task, each through its run's gateway to the model
 * stand-in playing its own script (each agent speaks its own API and names its shell tool its
 * own way). The report compares them like any conditions; the provenance names each agent.
 */
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { CLAUDE_CODE_VERIFIED_VERSION, CODEX_VERIFIED_VERSION } from '../../src/agents/index.js';
import type { AgentIdentity, ConditionsFile, RunRecord } from '../../src/artifacts/index.js';
import { pullRequestScript } from '../support/adapter-campaign.js';
import { readJson } from '../support/campaign.js';
import { requireDocker } from '../support/docker.js';
import { evalrigRun, makeToyWorkspace, type CliRun, type ToyWorkspace } from '../support/toy.js';

const CLAUDE = process.env.EVALRIG_CLAUDE_CODE_VERSION ?? CLAUDE_CODE_VERIFIED_VERSION;
const CODEX = process.env.EVALRIG_CODEX_VERSION ?? CODEX_VERIFIED_VERSION;
const AGENTS = {
  'claude-code': { package: '@anthropic-ai/claude-code', version: CLAUDE },
  codex: { package: '@openai/codex', version: CODEX, model: 'gpt-5.1-codex' },
};

describe('e2e: a cross-agent campaign plays Claude Code and Codex over the same task', function () {
  this.timeout(600_000);
  let ws: ToyWorkspace;
  let run: CliRun;
  const runDir = (condition: string) =>
    path.join(ws.outDir, 'runs', 'nominal', condition, 'run-01');

  before(requireDocker);
  before(async () => {
    const script = (name: string, field: string) =>
      `${JSON.stringify(pullRequestScript({ name, field }), null, 2)}\n`;
    ws = await makeToyWorkspace({
      scripts: {},
      files: {
        'model/claude-code.json': script('Bash', 'command'),
        'model/codex.json': script('exec_command', 'cmd'),
      },
      set: {
        // The set's agent is the default; each condition here names its own.
        agent: {
          type: 'claude-code',
          version: CLAUDE,
          model: { script: 'model/claude-code.json' },
        },
        conditions: {
          'claude-code': {},
          codex: {
            agent: { type: 'codex', version: CODEX, model: { script: 'model/codex.json' } },
          },
        },
        checks: [{ name: 'tests', run: 'node test.js' }],
        evals: [
          {
            id: 'nominal',
            prompt: 'Plan multiply.',
            turns: [{ message: 'The plan is approved: carry it out.', phase: 'execution' }],
          },
        ],
      },
    });
    // One run per condition, both at once: the machine has two cores.
    run = await evalrigRun(ws, undefined, ['--jobs', '2']);
  });
  after(() => ws?.cleanup());

  it("plays each condition's run with its own agent, both completing the workflow", async () => {
    expect(run.exitCode, run.stderr).to.equal(0);
    for (const [condition, agent] of Object.entries(AGENTS)) {
      const record = await readJson<RunRecord>(path.join(runDir(condition), 'run.json'));
      expect(record, `${condition}: ${run.stderr}`).to.include({
        status: 'completed',
        turns_completed: 2,
      });
      expect(record.checks.map((c) => c.passed)).to.deep.equal([true]);
      expect(record.agent).to.deep.include(agent);
      expect(record.agent!.binary_sha256).to.match(/^[0-9a-f]{64}$/u);
      // Each agent's own wire: four model calls witnessed by its run's gateway.
      expect(record.agent!.totals.model_requests).to.equal(4);
    }
  });

  it("records each condition's agent in conditions.json and benchmark.json's provenance", async () => {
    const conditions = await readJson<ConditionsFile>(path.join(ws.outDir, 'conditions.json'));
    // Two agents: no single `agent`, each condition names its own.
    expect(conditions.agent).to.equal(undefined);
    const byName = new Map(conditions.conditions.map((c) => [c.name, c.agent]));
    expect(byName.get('claude-code')).to.deep.include(AGENTS['claude-code']);
    expect(byName.get('codex')).to.deep.include(AGENTS.codex);
    expect(byName.get('claude-code')!.binary_sha256).to.not.equal(
      byName.get('codex')!.binary_sha256,
    );

    const bench = await readJson<{
      provenance: { agent?: AgentIdentity; agents?: Record<string, AgentIdentity> };
      conditions: { condition: string; runs: number }[];
      comparisons: { condition: string }[];
    }>(path.join(ws.outDir, 'benchmark.json'));
    expect(bench.provenance.agent).to.equal(undefined);
    expect(bench.provenance.agents).to.deep.equal({
      'claude-code': byName.get('claude-code'),
      codex: byName.get('codex'),
    });
    // Compared like any conditions: codex against the baseline, the first condition.
    expect(bench.conditions.map((c) => [c.condition, c.runs])).to.deep.equal([
      ['claude-code', 1],
      ['codex', 1],
    ]);
    expect(bench.comparisons.map((c) => c.condition)).to.deep.equal(['codex']);
  });

  it("names each condition's agent in report.md and BASELINE.md", async () => {
    const report = await readFile(path.join(ws.outDir, 'report.md'), 'utf8');
    expect(report).to.match(
      new RegExp(
        `\\| agent \\| @anthropic-ai/claude-code@${CLAUDE} \\| @openai/codex@${CODEX} \\|`,
        'u',
      ),
    );
    const baseline = await readFile(path.join(ws.outDir, 'BASELINE.md'), 'utf8');
    expect(baseline).to.include(`agent (codex) | @openai/codex@${CODEX}`);
    expect(baseline).to.include(`agent (claude-code) | @anthropic-ai/claude-code@${CLAUDE}`);
  });
});
