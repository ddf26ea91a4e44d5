/**
 * The report on a campaign whose agent refused tool calls (its own policy blocked them): a
 * warning among the first lines, the refused calls as an agent figure per condition, and a
 * flag at the stop where they were refused.
 */
import { expect } from 'chai';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { assertArtifact } from '../../../src/artifacts/index.js';
import { writeReport, type BenchmarkFile } from '../../../src/report/index.js';
import { GOOD_RUN, writeCampaign, type AgentPlan, type CampaignSpec } from './fixture.js';

const AGENT: AgentPlan = {
  tokensIn: 1000,
  tokensOut: 100,
  cacheRead: 0,
  cacheWrite: 0,
  costUsd: 0.01,
  toolCalls: 4,
  toolCallsFailed: 0,
  modelRequests: 3,
};

/** gemini refused two shell commands; claude refused none; old ran a version that did not count. */
const SPEC: CampaignSpec = {
  evals: ['pr'],
  conditions: ['claude', 'gemini', 'old'],
  baseline: 'claude',
  runs: 1,
  plan: (_e, condition) => {
    if (condition === 'gemini')
      return {
        ...GOOD_RUN,
        agent: { ...AGENT, toolCallsRefused: 2, refusedTool: 'run_shell_command' },
      };
    return { ...GOOD_RUN, agent: condition === 'old' ? AGENT : { ...AGENT, toolCallsRefused: 0 } };
  },
};

const WARNING =
  'gemini: the agent refused 2 tool call(s) in 1/1 runs (run_shell_command): its own policy blocked them, so what it was asked to do did not happen';

describe('report: tool calls the agent refused', function () {
  this.timeout(60_000);
  let dir: string;
  let bench: BenchmarkFile;
  let md: string;
  let html: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'evalrig-refusals-report-'));
    await writeCampaign(dir, SPEC);
    await writeReport(dir, { now: new Date('2025-03-02T00:00:00Z') });
    bench = JSON.parse(await readFile(path.join(dir, 'benchmark.json'), 'utf8')) as BenchmarkFile;
    md = await readFile(path.join(dir, 'report.md'), 'utf8');
    html = await readFile(path.join(dir, 'report.html'), 'utf8');
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('benchmark.json warns of each condition whose agent refused, naming the tools', () => {
    assertArtifact('benchmark', bench, 'benchmark.json');
    expect(bench.refusal_warnings).to.deep.equal([
      {
        condition: 'gemini',
        refused: 2,
        runs_with_refusals: 1,
        runs: 1,
        tools: [{ name: 'run_shell_command', refused: 2 }],
        text: WARNING,
      },
    ]);
  });

  it('counts the refused calls per condition; a record that did not count them is unknown, not 0', () => {
    const refused = (c: string) =>
      bench.conditions.find((x) => x.condition === c)!.agent.tool_calls_refused;
    expect(refused('gemini')).to.deep.include({ mean: 2, n: 1 });
    expect(refused('claude')).to.deep.include({ mean: 0, n: 1 });
    expect(refused('old')).to.deep.include({ mean: null, n: 0 });
    expect(bench.comparisons[0]!.agent.tool_calls_refused).to.deep.include({ difference: 2 });
  });

  it('report.md says the warning first and has the row', () => {
    const lines = md.split('\n');
    const warning = lines.indexOf(`> ⚠ **${WARNING}.**`);
    expect(warning).to.be.greaterThan(0);
    expect(warning).to.be.below(lines.indexOf('## Per condition'));
    expect(lines).to.include(
      '| agent tool calls refused by the agent | 0 (0–0, n 1) | 2 (2–2, n 1) | n/a (n 0) |',
    );
  });

  it('report.html says the warning first, has the row and flags the stop', () => {
    const section = /<section id="treatment">(.*?)<\/section>/su.exec(html)![1]!;
    expect(section).to.contain(
      `<p class="note refusal-warning" data-condition="gemini"><strong>⚠ ${WARNING}.</strong></p>`,
    );
    expect(html).to.contain(
      'data-condition="gemini" data-measure="agent.tool_calls_refused" data-mean="2" data-n="1"',
    );
    const flags = html.match(/⚠ 2 tool calls refused by the agent/gu) ?? [];
    expect(flags).to.have.length(1);
  });
});
