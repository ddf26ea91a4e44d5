/**
 * The pull-request workflow of the toy project played by the REAL Codex binary in the test
 * image, through `evalrig run`: its model calls go through the relay in the container and the
 * run's gateway to the model stand-in (the Responses API) playing the eval's model script, so
 * the agent runs real commands (branch, commit, push, gh pr create --draft, then gh pr edit
 * after `exec resume`) and every measure comes from what it did.
 */
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { CODEX_VERIFIED_VERSION, priceTokens } from '../../src/agents/index.js';
import type { ConditionsFile, GhCall, RunRecord, StopRecord } from '../../src/artifacts/index.js';
import type { ModelCall } from '../../src/gateway/index.js';
import type { ModelScript } from '../../src/model-stand-in/index.js';
import { requireDocker } from '../support/docker.js';
import {
  PLAN,
  PLAN_DONE,
  TOY_PROBES,
  makeToyWorkspace,
  type ToyWorkspace,
} from '../support/toy.js';

const VERSION = process.env.EVALRIG_CODEX_VERSION ?? CODEX_VERIFIED_VERSION;
const MODEL = 'gpt-5.1-codex';
/** A probe: how many mounts the run's container has under /opt/evalrig (binary, relay). */
const MOUNTS_PROBE = "grep -c ' /opt/evalrig' /proc/mounts || true";
const KIND = 'mkdir -p "$(git rev-parse --git-dir)/evalrig-agent" && echo';
const KIND_FILE = '> "$(git rev-parse --git-dir)/evalrig-agent/stop-kind"';
/** printf's argument for a file's text (the shell sees \n, printf writes newlines). */
const printf = (text: string) => `printf '${text.replace(/\n/gu, '\\n')}'`;

/** Planning, then execution after --resume: what the toy's scripted agent does, as tool calls. */
const NOMINAL: ModelScript = {
  responses: [
    {
      content: [
        { text: 'I will write the plan and open a draft pull request with it.' },
        {
          tool_use: {
            name: 'exec_command',
            input: {
              cmd: [
                'git checkout -q -b feature/multiply',
                `${printf(PLAN)} > PLAN.md`,
                'git add PLAN.md',
                'git commit -qm "plan: multiply"',
                'git push -q -u origin HEAD',
                'gh pr create --draft --title "Add multiply" --body-file PLAN.md',
                `${KIND} awaiting-approval ${KIND_FILE}`,
              ].join(' && '),
            },
          },
        },
      ],
      usage: { input_tokens: 3000, output_tokens: 90 },
    },
    {
      content: [{ text: 'The plan is in a draft pull request, awaiting your approval.' }],
      usage: { input_tokens: 3200, output_tokens: 12, cache_read_input_tokens: 1000 },
    },
    {
      content: [
        {
          tool_use: {
            name: 'exec_command',
            input: {
              cmd: [
                "echo 'exports.multiply = (a, b) => a * b;' >> math.js",
                `${printf(PLAN_DONE)} > PLAN.md`,
                'git add -A',
                'git commit -qm multiply',
                'git push -q',
                'gh pr edit --body-file PLAN.md',
                `${KIND} conformant ${KIND_FILE}`,
              ].join(' && '),
            },
          },
        },
      ],
      usage: { input_tokens: 3500, output_tokens: 40 },
    },
    {
      content: [{ text: 'multiply is done and the description refreshed.' }],
      usage: { input_tokens: 3700, output_tokens: 9 },
    },
  ],
};

/** The model refuses the first request: Codex does not retry a 400, it fails the turn. */
const REFUSED: ModelScript = {
  responses: [{ error: { status: 400, message: 'prompt is too long' } }],
};

async function json<T>(file: string): Promise<T> {
  return JSON.parse(await readFile(file, 'utf8')) as T;
}

async function lines<T>(file: string): Promise<T[]> {
  return (await readFile(file, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as T);
}

describe('e2e: a codex campaign plays the real binary against the model stand-in', function () {
  before(requireDocker);
  this.timeout(600_000);
  let ws: ToyWorkspace;
  let run: { exitCode?: number; stdout: string; stderr: string };
  const runDir = (id: string) => path.join(ws.outDir, 'runs', id, 'default/run-01');
  const stopsOf = async (id: string) => {
    const record = await json<RunRecord>(path.join(runDir(id), 'run.json'));
    return Promise.all(record.stops.map((s) => json<StopRecord>(path.join(runDir(id), s))));
  };

  before(async () => {
    ws = await makeToyWorkspace({
      scripts: {},
      files: {
        'model/nominal.json': `${JSON.stringify(NOMINAL, null, 2)}\n`,
        'model/refused.json': `${JSON.stringify(REFUSED, null, 2)}\n`,
      },
      set: {
        agent: { type: 'codex', version: VERSION },
        probes: { ...TOY_PROBES, mounts: MOUNTS_PROBE },
        checks: [{ name: 'tests', run: 'node test.js' }],
        evals: [
          {
            id: 'nominal',
            prompt: 'Plan multiply.',
            turns: [{ message: 'The plan is approved: carry it out.', phase: 'execution' }],
            model_script: 'model/nominal.json',
          },
          { id: 'refused', prompt: 'Plan multiply.', model_script: 'model/refused.json' },
        ],
      },
    });
    run = await execa(
      'node',
      ['--import', 'tsx', 'src/cli/main.ts', 'run', ws.evalSetFile, '--out', ws.outDir],
      { reject: false },
    );
  });
  after(() => ws?.cleanup());

  it('completes the nominal run over two turns, the second resuming the thread of the first', async () => {
    const record = await json<RunRecord>(path.join(runDir('nominal'), 'run.json'));
    expect(record, run.stderr).to.include({ status: 'completed', turns_completed: 2 });
    expect(record.checks.map((c) => c.passed)).to.deep.equal([true]);
    const thread = async (n: number) => {
      const text = await readFile(path.join(runDir('nominal'), `turns/turn-0${n}.jsonl`), 'utf8');
      const started = text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { type: string; thread_id?: string })
        .find((l) => l.type === 'thread.started');
      return started?.thread_id;
    };
    expect(await thread(1)).to.be.a('string');
    expect(await thread(2)).to.equal(await thread(1));
  });

  it('parses each turn into its stop: final message, tool calls, tokens and the price-table cost', async () => {
    const [planning, execution] = await stopsOf('nominal');
    expect(planning!.agent).to.deep.include({
      transcript: 'turns/turn-01.jsonl',
      final_message: 'The plan is in a draft pull request, awaiting your approval.',
      // Codex's stream does not count them: the run's gateway does.
      model_requests: 2,
      error: null,
      complete: true,
    });
    const tokens = { input: 6200, output: 102, cacheRead: 1000 };
    expect(planning!.agent!.tokens).to.deep.equal({
      input: 6200,
      output: 102,
      cache_read: 1000,
      cache_write: 0,
    });
    expect(planning!.agent!.tool_calls).to.deep.include({ total: 1, failed: 0 });
    expect(planning!.agent!.cost_usd).to.equal(priceTokens(MODEL, tokens));
    expect(execution!.agent).to.deep.include({
      transcript: 'turns/turn-02.jsonl',
      final_message: 'multiply is done and the description refreshed.',
      model_requests: 2,
    });
    expect(execution!.agent!.tokens).to.include({ input: 7200, output: 49 });

    const record = await json<RunRecord>(path.join(runDir('nominal'), 'run.json'));
    expect(record.agent).to.deep.include({
      package: '@openai/codex',
      version: VERSION,
      model: MODEL,
      install: 'mount',
    });
    expect(record.agent!.totals).to.deep.include({ tool_calls: 2, model_requests: 4 });
    expect(record.agent!.totals.tokens.input).to.equal(13_400);
    expect(record.agent!.totals.cost_usd).to.be.closeTo(
      planning!.agent!.cost_usd! + execution!.agent!.cost_usd!,
      1e-9,
    );
  });

  it('measures the pull request from what the agent did through the gh stand-in', async () => {
    const [planning, execution] = await stopsOf('nominal');
    expect(planning!.probes.mounts!.stdout).to.equal('2\n'); // the binary and the relay
    expect(planning!.kind).to.equal('awaiting-approval');
    expect(planning!.pull).to.include({ draft: true, described: true, number: 1 });
    expect(execution!.kind).to.equal('conformant');
    expect(execution!.pull).to.include({ draft: true, described: true, number: 1 });
    const calls = await lines<GhCall>(path.join(runDir('nominal'), 'calls.jsonl'));
    expect(calls.map((c) => [c.command, c.exit_code])).to.deep.equal([
      ['pr create', 0],
      ['pr edit', 0],
    ]);
    const { measures } = await json<RunRecord>(path.join(runDir('nominal'), 'run.json'));
    expect(measures).to.deep.include({
      pr_draft_at_hand_over: true,
      pr_marked_ready: false,
      gh_not_played: 0,
    });
  });

  it('logs only POST /v1/responses calls through the gateway, each answered 200', async () => {
    const calls = await lines<ModelCall>(path.join(runDir('nominal'), 'model-calls.jsonl'));
    expect(calls).to.have.length(4);
    for (const c of calls)
      expect(c).to.include({ method: 'POST', path: '/v1/responses', status: 200 });
  });

  it('fails a run whose model answers 400, in the phase agent', async () => {
    const record = await json<RunRecord>(path.join(runDir('refused'), 'run.json'));
    expect(record).to.include({ status: 'failed', phase: 'agent', turns_completed: 1 });
    // Checked with 0.171.0: a `turn.failed` line with the API's error, then exit 1.
    expect(record.error).to.match(/^turn 1: the agent exited 1 \(.*prompt is too long/u);
    const [stop] = await stopsOf('refused');
    expect(stop!.agent!.error)
      .to.be.a('string')
      .and.match(/too long/u);
    const calls = await lines<ModelCall>(path.join(runDir('refused'), 'model-calls.jsonl'));
    expect(calls.map((c) => [c.path, c.status])).to.deep.equal([['/v1/responses', 400]]);
  });

  it('shows the agent numbers in the report and records the agent in conditions.json and BASELINE.md', async () => {
    const conditions = await json<ConditionsFile>(path.join(ws.outDir, 'conditions.json'));
    expect(conditions.agent).to.deep.include({
      package: '@openai/codex',
      version: VERSION,
      model: MODEL,
    });
    const baseline = await readFile(path.join(ws.outDir, 'BASELINE.md'), 'utf8');
    expect(baseline).to.include(`@openai/codex@${VERSION}`);
    expect(baseline).to.include(conditions.agent!.binary_sha256);
    const report = await readFile(path.join(ws.outDir, 'report.md'), 'utf8');
    expect(report)
      .to.match(/agent cost \(USD\)/u)
      .and.match(/agent tokens in/u);
    const bench = await json<{
      conditions: {
        condition: string;
        agent: Record<string, { n: number; mean: number | null }>;
      }[];
    }>(path.join(ws.outDir, 'benchmark.json'));
    const cost = bench.conditions[0]!.agent.cost_usd!;
    // The failed run says nothing of the agent: the nominal run alone is counted.
    expect(cost.n).to.equal(1);
    expect(cost.mean).to.be.greaterThan(0);
  });
});

describe('e2e: codex built into an image derived from the run image (agent.install "image")', function () {
  before(requireDocker);
  this.timeout(600_000);
  let ws: ToyWorkspace;
  let run: { exitCode?: number; stdout: string; stderr: string };
  const runDir = () => path.join(ws.outDir, 'runs', 'planning', 'default/run-01');

  before(async () => {
    ws = await makeToyWorkspace({
      scripts: {},
      files: { 'model/nominal.json': `${JSON.stringify(NOMINAL, null, 2)}\n` },
      set: {
        agent: {
          type: 'codex',
          version: VERSION,
          install: 'image',
          model: { script: 'model/nominal.json' },
        },
        // What the run's container has mounted under /opt/evalrig (the binary, the relay).
        probes: { ...TOY_PROBES, mounts: MOUNTS_PROBE },
        evals: [{ id: 'planning', prompt: 'Plan multiply.' }],
      },
    });
    run = await execa(
      'node',
      ['--import', 'tsx', 'src/cli/main.ts', 'run', ws.evalSetFile, '--out', ws.outDir],
      { reject: false },
    );
  });
  after(async () => {
    // The derived image this campaign built (hundreds of MB); one it found is left.
    const built = /built agent image (evalrig-agent:[0-9a-f]{12})/u.exec(run?.stderr ?? '');
    if (built) await execa('docker', ['rmi', built[1]!], { reject: false });
    await ws?.cleanup();
  });

  it('plays a real turn from the derived image: the pull request measured from what it did', async () => {
    const record = await json<RunRecord>(path.join(runDir(), 'run.json'));
    expect(record, run.stderr).to.include({ status: 'completed', turns_completed: 1 });
    const stop = await json<StopRecord>(path.join(runDir(), 'stops/stop-01.json'));
    expect(stop.kind).to.equal('awaiting-approval');
    expect(stop.pull).to.include({ draft: true, described: true, number: 1 });
    expect(stop.probes.mounts!.stdout).to.equal('0\n'); // nothing of the agent is mounted
    const calls = await lines<ModelCall>(path.join(runDir(), 'model-calls.jsonl'));
    expect(calls.map((c) => [c.path, c.status])).to.deep.equal([
      ['/v1/responses', 200],
      ['/v1/responses', 200],
    ]);
  });

  it('records the derived image and the run image it comes from in conditions.json, run.json and BASELINE.md', async () => {
    const conditions = await json<ConditionsFile>(path.join(ws.outDir, 'conditions.json'));
    expect(conditions.agent).to.deep.include({ install: 'image' });
    const [derived] = conditions.agent!.images!;
    expect(derived!.tag).to.match(/^evalrig-agent:[0-9a-f]{12}$/u);
    expect(derived!.base).to.equal(conditions.image.tag);
    const record = await json<RunRecord>(path.join(runDir(), 'run.json'));
    expect(record.agent!.images).to.deep.equal([derived]);
    const baseline = await readFile(path.join(ws.outDir, 'BASELINE.md'), 'utf8');
    expect(baseline).to.include(
      `| agent image (from ${derived!.base}) | ${derived!.tag} ${derived!.id} |`,
    );
  });
});
