/**
 * A matrix campaign: with_skill and without_skill crossed with three REAL agents (Claude Code,
 * Codex, Gemini CLI), each through its run's gateway to the model stand-in playing its own
 * script, offline. By construction the skill helps Claude Code (its script acts only when the
 * skill is staged), does nothing for Codex (it acts either way) and hurts Gemini CLI (it acts
 * only without it): the report gives a verdict per agent against its own baseline, says first
 * that the skill helps one and hurts another, and its interaction lines match an independent
 * computation.
 */
import { expect } from 'chai';
import { startViewServer, type ViewServer } from '../../src/view/index.js';
import { launchChromium, watchedPage } from '../support/viewer.js';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  CLAUDE_CODE_VERIFIED_VERSION,
  CODEX_VERIFIED_VERSION,
  GEMINI_CLI_VERIFIED_VERSION,
} from '../../src/agents/index.js';
import type { ConditionsFile } from '../../src/artifacts/index.js';
import type { BenchmarkFile } from '../../src/report/index.js';
import { differenceOfDifferences } from '../support/interaction-check.js';
import { readJson } from '../support/campaign.js';
import { requireDocker } from '../support/docker.js';
import { evalrigRun, makeToyWorkspace, type CliRun, type ToyWorkspace } from '../support/toy.js';

const RUNS = 4;
/** What each agent's model runs: the skill decides for Claude Code one way, for Gemini CLI the other. */
const ACTS = {
  'claude-code': 'test -f SKILL.md && echo ok > result.txt || true',
  codex: 'echo ok > result.txt',
  'gemini-cli': 'test -f SKILL.md || echo ok > result.txt',
};
const SHELL = {
  'claude-code': (command: string) => ({ name: 'Bash', input: { command } }),
  codex: (command: string) => ({ name: 'exec_command', input: { cmd: command } }),
  'gemini-cli': (command: string) => ({
    name: 'run_shell_command',
    input: { command, description: 'Run the step.' },
  }),
};
const script = (agent: keyof typeof ACTS) =>
  `${JSON.stringify({
    responses: [
      { content: [{ text: 'On it.' }, { tool_use: SHELL[agent](ACTS[agent]) }] },
      { content: [{ text: 'Done.' }] },
    ],
  })}\n`;

describe('e2e: a matrix campaign crosses a skill with three agents', function () {
  this.timeout(900_000);
  let ws: ToyWorkspace;
  let run: CliRun;

  before(requireDocker);
  before(async () => {
    ws = await makeToyWorkspace({
      scripts: {},
      files: {
        'model/claude-code.json': script('claude-code'),
        'model/codex.json': script('codex'),
        'model/gemini-cli.json': script('gemini-cli'),
        'skill/SKILL.md': '# Write result.txt\n',
      },
      set: {
        agent: undefined,
        agents: [
          {
            type: 'claude-code',
            version: CLAUDE_CODE_VERIFIED_VERSION,
            model: { script: 'model/claude-code.json' },
          },
          { type: 'codex', version: CODEX_VERIFIED_VERSION, model: { script: 'model/codex.json' } },
          {
            type: 'gemini-cli',
            version: GEMINI_CLI_VERIFIED_VERSION,
            model: { script: 'model/gemini-cli.json' },
          },
        ],
        conditions: { without_skill: {}, with_skill: { stage: { 'skill/SKILL.md': 'SKILL.md' } } },
        checks: [{ name: 'result', run: 'test -f result.txt' }],
        runs: RUNS,
        evals: [{ id: 'write-result', prompt: 'Write result.txt if you should.' }],
      },
    });
    // SKILL.md at the top is loaded by none of the three: staged on purpose.
    run = await evalrigRun(ws, undefined, ['--jobs', '2', '--allow-unloaded']);
  });
  after(() => ws?.cleanup());

  it('plays every condition under each agent, named CONDITION@TYPE, each with its place', async () => {
    expect(run.exitCode, run.stderr).to.equal(0);
    const conditions = await readJson<ConditionsFile>(path.join(ws.outDir, 'conditions.json'));
    expect(conditions.baseline_condition).to.equal('without_skill@claude-code');
    expect(conditions.conditions.map((c) => [c.name, c.matrix, c.agent?.package])).to.deep.equal([
      [
        'without_skill@claude-code',
        { base: 'without_skill', agent: 'claude-code' },
        '@anthropic-ai/claude-code',
      ],
      [
        'with_skill@claude-code',
        { base: 'with_skill', agent: 'claude-code' },
        '@anthropic-ai/claude-code',
      ],
      ['without_skill@codex', { base: 'without_skill', agent: 'codex' }, '@openai/codex'],
      ['with_skill@codex', { base: 'with_skill', agent: 'codex' }, '@openai/codex'],
      [
        'without_skill@gemini-cli',
        { base: 'without_skill', agent: 'gemini-cli' },
        '@google/gemini-cli',
      ],
      ['with_skill@gemini-cli', { base: 'with_skill', agent: 'gemini-cli' }, '@google/gemini-cli'],
    ]);
  });

  it("compares each agent with its own baseline: a verdict per agent, the skill's sign by construction", async () => {
    const bench = await readJson<BenchmarkFile>(path.join(ws.outDir, 'benchmark.json'));
    const rates = Object.fromEntries(
      bench.conditions.map((c) => [
        c.condition,
        [c.measures.checks_passed.successes, c.measures.checks_passed.n],
      ]),
    );
    expect(rates).to.deep.equal({
      'without_skill@claude-code': [0, RUNS],
      'with_skill@claude-code': [RUNS, RUNS],
      'without_skill@codex': [RUNS, RUNS],
      'with_skill@codex': [RUNS, RUNS],
      'without_skill@gemini-cli': [RUNS, RUNS],
      'with_skill@gemini-cli': [0, RUNS],
    });
    expect(bench.comparisons.map((c) => [c.baseline, c.condition])).to.deep.equal([
      ['without_skill@claude-code', 'with_skill@claude-code'],
      ['without_skill@codex', 'with_skill@codex'],
      ['without_skill@gemini-cli', 'with_skill@gemini-cli'],
    ]);
    const checks = (bench.verdicts ?? []).filter((v) => v.measure === 'checks_passed');
    expect(checks.map((v) => [v.condition, v.difference, v.significant])).to.have.deep.members([
      ['with_skill@claude-code', 1, true],
      ['with_skill@gemini-cli', -1, true],
    ]);
    expect(bench.agents!.agents).to.deep.equal([
      {
        agent: 'claude-code',
        baseline: 'without_skill@claude-code',
        conditions: ['with_skill@claude-code'],
      },
      { agent: 'codex', baseline: 'without_skill@codex', conditions: ['with_skill@codex'] },
      {
        agent: 'gemini-cli',
        baseline: 'without_skill@gemini-cli',
        conditions: ['with_skill@gemini-cli'],
      },
    ]);
    expect(bench.agents!.opposite).to.deep.equal([
      {
        condition: 'with_skill',
        measure: 'checks_passed',
        helps: ['claude-code'],
        hurts: ['gemini-cli'],
        text: 'with_skill helps claude-code and hurts gemini-cli (passes the checks)',
      },
    ]);
  });

  it('gives each pair of agents an interaction whose figures match an independent computation', async () => {
    const bench = await readJson<BenchmarkFile>(path.join(ws.outDir, 'benchmark.json'));
    const counts = {
      'claude-code': { with: [RUNS, RUNS], without: [0, RUNS] },
      codex: { with: [RUNS, RUNS], without: [RUNS, RUNS] },
      'gemini-cli': { with: [0, RUNS], without: [RUNS, RUNS] },
    } as const;
    const interactions = bench.agents!.interactions.filter((i) => i.measure === 'checks_passed');
    expect(interactions.map((i) => [i.agent_a, i.agent_b])).to.deep.equal([
      ['claude-code', 'codex'],
      ['claude-code', 'gemini-cli'],
      ['codex', 'gemini-cli'],
    ]);
    for (const i of interactions) {
      const a = counts[i.agent_a as keyof typeof counts];
      const b = counts[i.agent_b as keyof typeof counts];
      const [d, lower, upper] = differenceOfDifferences(
        { with: [...a.with], without: [...a.without] },
        { with: [...b.with], without: [...b.without] },
      );
      expect(i.difference).to.be.closeTo(d, 1e-12);
      expect(i.ci95[0]).to.be.closeTo(lower, 1e-9);
      expect(i.ci95[1]).to.be.closeTo(upper, 1e-9);
      expect(i.excludes_zero).to.equal(lower > 0 || upper < 0);
    }
    // Claude Code +100 pts, Gemini CLI −100 pts: 200 pts apart, beyond chance.
    const [, lower, upper] = differenceOfDifferences(
      { with: [RUNS, RUNS], without: [0, RUNS] },
      { with: [0, RUNS], without: [RUNS, RUNS] },
    );
    const line = `with_skill's effect (passes the checks) is 200 pts larger for claude-code than for gemini-cli [${Math.round(lower * 100)}, ${Math.round(upper * 100)}]: +100 pts vs −100 pts`;
    expect(interactions[1]!.text).to.equal(line);

    const report = await readFile(path.join(ws.outDir, 'report.md'), 'utf8');
    const verdict = report.slice(report.indexOf('## Verdict'));
    const opposite = verdict.indexOf('- **with_skill helps claude-code and hurts gemini-cli');
    const firstAgent = verdict.indexOf('### claude-code (against without_skill@claude-code)');
    expect(opposite, verdict).to.be.greaterThan(0);
    expect(firstAgent).to.be.greaterThan(opposite);
    expect(verdict.indexOf('### codex (against without_skill@codex)')).to.be.greaterThan(
      firstAgent,
    );
    expect(verdict).to.include(`- **${line}**`);
    const html = await readFile(path.join(ws.outDir, 'report.html'), 'utf8');
    expect(html).to.include('<h3 data-agent="gemini-cli">gemini-cli');
    expect(html).to.include(
      `<li class="interaction sig" data-condition="with_skill" data-measure="checks_passed" data-agents="claude-code gemini-cli">`,
    );
  });

  it("lets the viewer keep one agent's runs: the overview names each agent, a link lists its runs alone", async () => {
    const browser = await launchChromium();
    let view: ViewServer | undefined;
    try {
      view = await startViewServer({ outDir: ws.outDir });
      const { page, errors } = await watchedPage(browser);
      await page.goto(view.url);
      const codex = page.locator('#agents a[data-agent="codex"]');
      await codex.waitFor();
      const agents = await page
        .locator('#agents a')
        .evaluateAll((as) => as.map((a) => a.getAttribute('data-agent')));
      expect(agents).to.deep.equal(['claude-code', 'codex', 'gemini-cli']);
      await codex.click();
      await page.waitForSelector('[data-loaded]');
      const conditions = await page
        .locator('tr[data-condition]')
        .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-condition')));
      expect(conditions.length).to.be.greaterThan(0);
      expect(
        conditions.every((c) => c!.endsWith('@codex')),
        conditions.join(' '),
      ).to.equal(true);
      expect(errors).to.deep.equal([]);
    } finally {
      await view?.close();
      await browser.close();
    }
  });
});
