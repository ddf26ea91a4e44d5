/**
 * A cross-agent campaign: one eval set whose conditions are agents, the REAL Claude Code and
 * Codex binaries over the same pull-request task, each through its run's gateway to the model
 * stand-in playing its own script (each agent speaks its own API and names its shell tool its
 * own way). The report compares them like any conditions; the provenance names each agent.
 */
import { expect } from 'chai';
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { CLAUDE_CODE_VERIFIED_VERSION, CODEX_VERIFIED_VERSION } from '../../src/agents/index.js';
import type { AgentIdentity, ConditionsFile, RunRecord } from '../../src/artifacts/index.js';
import type { CompareFile } from '../../src/compare/index.js';
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

  it("names each condition's agent in report.html and the terminal summary", async () => {
    const html = await readFile(path.join(ws.outDir, 'report.html'), 'utf8');
    for (const [condition, a] of Object.entries(AGENTS)) {
      expect(html).to.include(
        `<td class="v" data-condition="${condition}" data-measure="agent">${a.package}@${a.version}</td>`,
      );
      expect(html).to.include(
        `<th>agent (${condition})</th><td>${a.package}@${a.version} (binary sha256 `,
      );
    }
    expect(run.stdout).to.match(
      new RegExp(`^agent +@anthropic-ai/claude-code@${CLAUDE} +@openai/codex@${CODEX}$`, 'mu'),
    );
  });

  it("compare names each condition's agent: nothing differs with itself, an upgraded agent by its condition", async () => {
    const evalrig = (args: string[]) =>
      execa('node', ['--import', 'tsx', 'src/cli/main.ts', ...args], { reject: false });
    const same = await evalrig([
      'compare',
      ws.outDir,
      ws.outDir,
      '--out',
      path.join(ws.root, 'same'),
    ]);
    expect(same.exitCode, same.stderr).to.equal(0);
    expect(same.stdout).to.match(/^Nothing recorded differs/u);
    const sameFile = await readJson<CompareFile>(path.join(ws.root, 'same', 'compare.json'));
    expect(Object.keys(sameFile.provenance.a.agents ?? {}).sort()).to.deep.equal([
      'claude-code',
      'codex',
    ]);

    // The same campaign as if codex had been another version: its files say so, nothing else.
    const other = path.join(ws.root, 'other');
    await cp(ws.outDir, other, { recursive: true });
    const bumped = `${CODEX}-next.1`;
    await edit(
      path.join(other, 'benchmark.json'),
      (b) => (b.provenance.agents.codex.version = bumped),
    );
    await edit(
      path.join(other, 'conditions.json'),
      (c) =>
        (c.conditions.find((x: { name: string }) => x.name === 'codex').agent.version = bumped),
    );
    const r = await evalrig(['compare', ws.outDir, other, '--out', path.join(ws.root, 'cmp')]);
    expect(r.exitCode, r.stderr).to.equal(0);
    expect(r.stdout).to.include('One thing differs: the agent version of condition codex.');
    const cmp = await readJson<CompareFile>(path.join(ws.root, 'cmp', 'compare.json'));
    expect(cmp.provenance.differences).to.have.length(1);
    expect(cmp.provenance.differences[0]).to.deep.include({ aspect: 'agent' });
    expect(cmp.provenance.differences[0]!.b).to.include(`@openai/codex@${bumped} `);
  });
});

/** Rewrites a JSON file in place (a test's stand-in for a campaign that ran another version). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function edit(file: string, change: (json: any) => void): Promise<void> {
  const json: unknown = JSON.parse(await readFile(file, 'utf8'));
  change(json);
  await writeFile(file, `${JSON.stringify(json, null, 2)}\n`);
}
