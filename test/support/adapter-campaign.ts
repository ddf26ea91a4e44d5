/**
 * The campaign every real-agent adapter plays in its e2e test: the toy project's pull-request
 * workflow, scripted as the model's tool calls, through `evalrig run`. The agents differ in how
 * their model calls a shell and what their wire looks like; what the workflow must measure is
 * the same, so it is said here once.
 */
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ConditionsFile, GhCall, RunRecord, StopRecord } from '../../src/artifacts/index.js';
import type { ModelCall } from '../../src/gateway/index.js';
import { execa } from 'execa';
import type { CompareFile } from '../../src/compare/index.js';
import {
  startModelStandIn,
  type ModelScript,
  type ModelStandIn,
} from '../../src/model-stand-in/index.js';
import { readJson, readJsonLines } from './campaign.js';
import { requireDocker } from './docker.js';
import {
  PLAN,
  PLAN_DONE,
  TOY_PROBES,
  evalrigRun,
  makeToyWorkspace,
  type CliRun,
  type ToyWorkspace,
} from './toy.js';

/** How an agent's model runs a shell command: the tool's name and the input field of the line. */
export interface ShellTool {
  readonly name: string;
  readonly field: string;
}

const KIND = 'mkdir -p "$(git rev-parse --git-dir)/evalrig-agent" && echo';
const KIND_FILE = '> "$(git rev-parse --git-dir)/evalrig-agent/stop-kind"';
/** printf's argument for a file's text (the shell sees \n, printf writes newlines). */
const printf = (text: string) => `printf '${text.replace(/\n/gu, '\\n')}'`;

/**
 * Planning, then execution after the agent resumes: what the toy's scripted agent does, as
 * tool calls of the given shell tool. Tokens: 6200 in, 102 out, 1000 cache reads in planning;
 * 7200 in, 49 out in execution.
 */
export function pullRequestScript(shell: ShellTool): ModelScript {
  const shellCall = (lines: string[]) => ({
    tool_use: { name: shell.name, input: { [shell.field]: lines.join(' && ') } },
  });
  return {
    responses: [
      {
        content: [
          { text: 'I will write the plan and open a draft pull request with it.' },
          shellCall([
            'git checkout -q -b feature/multiply',
            `${printf(PLAN)} > PLAN.md`,
            'git add PLAN.md',
            'git commit -qm "plan: multiply"',
            'git push -q -u origin HEAD',
            'gh pr create --draft --title "Add multiply" --body-file PLAN.md',
            `${KIND} awaiting-approval ${KIND_FILE}`,
          ]),
        ],
        usage: { input_tokens: 3000, output_tokens: 90 },
      },
      {
        content: [{ text: 'The plan is in a draft pull request, awaiting your approval.' }],
        usage: { input_tokens: 3200, output_tokens: 12, cache_read_input_tokens: 1000 },
      },
      {
        content: [
          shellCall([
            "echo 'exports.multiply = (a, b) => a * b;' >> math.js",
            `${printf(PLAN_DONE)} > PLAN.md`,
            'git add -A',
            'git commit -qm multiply',
            'git push -q',
            'gh pr edit --body-file PLAN.md',
            `${KIND} conformant ${KIND_FILE}`,
          ]),
        ],
        usage: { input_tokens: 3500, output_tokens: 40 },
      },
      {
        content: [{ text: 'multiply is done and the description refreshed.' }],
        usage: { input_tokens: 3700, output_tokens: 9 },
      },
    ],
  };
}

/** The model refuses the first request. */
export const REFUSED_SCRIPT: ModelScript = {
  responses: [{ error: { status: 400, message: 'prompt is too long' } }],
};

/** A played campaign: its workspace, what the CLI said, and readers of its runs. */
export interface AdapterCampaign {
  readonly ws: ToyWorkspace;
  readonly run: CliRun;
  runDir(evalId: string): string;
  record(evalId: string): Promise<RunRecord>;
  stopsOf(evalId: string): Promise<StopRecord[]>;
}

export interface AdapterCampaignOptions {
  /** The eval set's `agent`. */
  readonly agent: Record<string, unknown>;
  readonly shell: ShellTool;
  /** The nominal run's script, or how to read it (default: {@link pullRequestScript} of `shell`). */
  readonly script?: ModelScript | (() => Promise<ModelScript>);
  /** The refused run's script (default {@link REFUSED_SCRIPT}). */
  readonly refused?: ModelScript;
  /** The eval set's resources (default the toy's). */
  readonly resources?: Record<string, unknown>;
  /** Runs at once (default: 2 with `extra`, else 1). */
  readonly jobs?: number;
  /** More `evalrig run` arguments, asked for when the campaign plays (a cluster's `--engine`). */
  readonly args?: () => readonly string[];
  /** Probes beside the toy's. */
  readonly probes?: Record<string, string>;
  /** Evals (and their files) played beside nominal and refused. */
  readonly extra?: { readonly files: Record<string, string>; readonly evals: object[] };
  /**
   * A script the model stand-in plays on a loopback port as the agent's "real" upstream
   * (`agent.model.url`, its key read from the host): the evals without a script play it.
   */
  readonly upstream?: {
    /** Its script; absent: the nominal run's, which then plays the upstream (one run fewer). */
    readonly script?: ModelScript;
    readonly keyEnv: string;
    readonly key: string;
    /** The key is a Claude subscription's OAuth token (`token_env`), not an API key. */
    readonly oauth?: boolean;
  };
}

/**
 * Plays, once for the enclosing `describe`, a campaign of two evals: `nominal` (the pull-request
 * workflow over a planning and an execution turn, checked by `node test.js`) and `refused` (the
 * model refuses at once). Call it inside `describe`; read the campaign in the `it`s.
 */
export function adapterCampaign(options: AdapterCampaignOptions): AdapterCampaign {
  let ws: ToyWorkspace | undefined;
  let run: CliRun | undefined;
  const runDir = (id: string) => path.join(campaign.ws.outDir, 'runs', id, 'default/run-01');
  const record = (id: string) => readJson<RunRecord>(path.join(runDir(id), 'run.json'));
  const campaign: AdapterCampaign = {
    get ws() {
      if (!ws) throw new Error('the adapter campaign is read before it was played');
      return ws;
    },
    get run() {
      if (!run) throw new Error('the adapter campaign is read before it was played');
      return run;
    },
    runDir,
    record,
    stopsOf: async (id) => {
      const { stops } = await record(id);
      return Promise.all(stops.map((s) => readJson<StopRecord>(path.join(runDir(id), s))));
    },
  };
  let upstream: ModelStandIn | undefined;
  before(requireDocker);
  before(async () => {
    const up = options.upstream;
    const given = typeof options.script === 'function' ? await options.script() : options.script;
    const nominal = given ?? pullRequestScript(options.shell);
    if (up)
      upstream = await startModelStandIn({ script: up.script ?? nominal, listen: { port: 0 } });
    ws = await makeToyWorkspace({
      scripts: {},
      files: {
        'model/nominal.json': `${JSON.stringify(nominal, null, 2)}\n`,
        'model/refused.json': `${JSON.stringify(options.refused ?? REFUSED_SCRIPT, null, 2)}\n`,
        ...options.extra?.files,
      },
      set: {
        agent: {
          ...options.agent,
          ...(upstream
            ? { model: { url: upstream.url, [up!.oauth ? 'token_env' : 'key_env']: up!.keyEnv } }
            : {}),
        },
        probes: { ...TOY_PROBES, ...options.probes },
        ...(options.resources ? { resources: options.resources } : {}),
        checks: [{ name: 'tests', run: 'node test.js' }],
        evals: [
          {
            id: 'nominal',
            prompt: 'Plan multiply.',
            turns: [{ message: 'The plan is approved: carry it out.', phase: 'execution' }],
            // Without its own script, the nominal run plays the upstream (its key added on the host).
            ...(up && !up.script ? {} : { model_script: 'model/nominal.json' }),
          },
          { id: 'refused', prompt: 'Plan multiply.', model_script: 'model/refused.json' },
          ...(options.extra?.evals ?? []),
        ],
      },
    });
    // Two at a time: the extra evals' runs are short, the machine has two cores.
    const jobs = options.extra || options.jobs ? ['--jobs', String(options.jobs ?? 2)] : [];
    const more = options.args?.() ?? [];
    run = await evalrigRun(ws, up ? { [up.keyEnv]: up.key } : undefined, [...jobs, ...more]);
  });
  after(async () => {
    await upstream?.close();
    await ws?.cleanup();
  });
  return campaign;
}

/** The nominal run completed both turns and its check passed. */
export async function expectNominalCompleted(campaign: AdapterCampaign): Promise<void> {
  const record = await campaign.record('nominal');
  expect(record, campaign.run.stderr).to.include({ status: 'completed', turns_completed: 2 });
  expect(record.checks.map((c) => c.passed)).to.deep.equal([true]);
}

/**
 * Each turn of the nominal run parsed into its stop, with the script's final messages, model
 * requests, tool calls and tokens, and the run's totals their sums. Returns the two stops.
 */
export async function expectNominalTurnsParsed(
  campaign: AdapterCampaign,
): Promise<[StopRecord, StopRecord]> {
  const [planning, execution] = await campaign.stopsOf('nominal');
  expect(planning!.agent).to.deep.include({
    transcript: 'turns/turn-01.jsonl',
    final_message: 'The plan is in a draft pull request, awaiting your approval.',
    model_requests: 2,
    error: null,
    complete: true,
  });
  expect(planning!.agent!.tokens).to.deep.equal({
    input: 6200,
    output: 102,
    cache_read: 1000,
    cache_write: 0,
  });
  expect(planning!.agent!.tool_calls).to.deep.include({ total: 1, failed: 0 });
  expect(execution!.agent).to.deep.include({
    transcript: 'turns/turn-02.jsonl',
    final_message: 'multiply is done and the description refreshed.',
    model_requests: 2,
  });
  expect(execution!.agent!.tokens).to.include({ input: 7200, output: 49 });

  const { agent } = await campaign.record('nominal');
  expect(agent!.totals).to.deep.include({ tool_calls: 2, model_requests: 4 });
  expect(agent!.totals.tokens.input).to.equal(13_400);
  expect(agent!.totals.cost_usd).to.be.closeTo(
    planning!.agent!.cost_usd! + execution!.agent!.cost_usd!,
    1e-9,
  );
  return [planning!, execution!];
}

/**
 * The nominal run's pull request, measured from what the agent did through the gh stand-in: a
 * described draft at both hand-overs, created then edited. Returns the two stops.
 */
export async function expectPullRequestMeasured(
  campaign: AdapterCampaign,
): Promise<[StopRecord, StopRecord]> {
  const [planning, execution] = await campaign.stopsOf('nominal');
  expect(planning!.kind).to.equal('awaiting-approval');
  expect(planning!.pull).to.include({ draft: true, described: true, number: 1 });
  expect(execution!.kind).to.equal('conformant');
  expect(execution!.pull).to.include({ draft: true, described: true, number: 1 });
  const calls = await readJsonLines<GhCall>(path.join(campaign.runDir('nominal'), 'calls.jsonl'));
  expect(calls.map((c) => [c.command, c.exit_code])).to.deep.equal([
    ['pr create', 0],
    ['pr edit', 0],
  ]);
  const { measures } = await campaign.record('nominal');
  expect(measures).to.deep.include({
    pr_draft_at_hand_over: true,
    pr_marked_ready: false,
    gh_not_played: 0,
  });
  return [planning!, execution!];
}

/** The nominal run's four model calls, all `POST apiPath` answered 200 by the gateway. */
export async function expectModelCallsAnswered(
  campaign: AdapterCampaign,
  apiPath: string,
): Promise<void> {
  const file = path.join(campaign.runDir('nominal'), 'model-calls.jsonl');
  const calls = await readJsonLines<ModelCall>(file);
  expect(calls).to.have.length(4);
  for (const c of calls) expect(c).to.include({ method: 'POST', path: apiPath, status: 200 });
}

/** The agent that played, as conditions.json and BASELINE.md record it. Returns conditions.json. */
export async function expectAgentRecorded(
  campaign: AdapterCampaign,
  agent: { package: string; version: string; model?: string },
): Promise<ConditionsFile> {
  const { outDir } = campaign.ws;
  const conditions = await readJson<ConditionsFile>(path.join(outDir, 'conditions.json'));
  expect(conditions.agent).to.deep.include(agent);
  const baseline = await readFile(path.join(outDir, 'BASELINE.md'), 'utf8');
  expect(baseline).to.include(`${agent.package}@${agent.version}`);
  expect(baseline).to.include(conditions.agent!.binary_sha256);
  return conditions;
}

/**
 * `evalrig compare` of the campaign with itself, as a user runs it: exit 0, compare.json
 * written (so valid), nothing differs, and the agent recorded as conditions.json has it.
 */
export async function expectComparesWithItself(campaign: AdapterCampaign): Promise<CompareFile> {
  const { outDir } = campaign.ws;
  const out = path.join(campaign.ws.root, 'compare');
  const r = await execa(
    'node',
    ['--import', 'tsx', 'src/cli/main.ts', 'compare', outDir, outDir, '--out', out],
    { reject: false },
  );
  expect(r.exitCode, r.stderr).to.equal(0);
  expect(r.stdout).to.match(/^Nothing recorded differs/u);
  const compare = await readJson<CompareFile>(path.join(out, 'compare.json'));
  const conditions = await readJson<ConditionsFile>(path.join(outDir, 'conditions.json'));
  const { images: _images, ...agent } = conditions.agent!;
  expect(compare.provenance.a.agent).to.deep.equal(agent);
  expect(compare.provenance.differences).to.deep.equal([]);
  // One group per condition over all evals (eval null), then one per eval the campaign played.
  const played = conditions.evals.map((e) => e.id).sort();
  expect(compare.groups.map((g) => g.eval)).to.deep.equal([null, ...played]);
  return compare;
}
