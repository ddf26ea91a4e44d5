import { expect } from 'chai';
import { copyFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { KILO_CODE_REFUSALS, KILO_CODE_VERIFIED_VERSION } from '../../../src/agents/index.js';
import type { RunRecord, StopRecord } from '../../../src/artifacts/index.js';
import { readJson, readJsonLines } from '../../support/campaign.js';
import { requireDocker } from '../../support/docker.js';
import { evalrigRun, makeToyWorkspace, type CliRun, type ToyWorkspace } from '../../support/toy.js';

const FIXTURES = `test/fixtures/transcripts/kilo-code-${KILO_CODE_VERIFIED_VERSION}`;
/**
 * The model (the fixtures' script): turn 1 writes a file with its own write tool; turn 2,
 * resumed, pushes to a remote the clone lacks (`git push nowhere HEAD`): a command the
 * codebase's own kilo.json denies in one condition and that fails in the other.
 */
const SCRIPT = `${FIXTURES}/model-script.json`;

/** A project config that forbids pushing: Kilo Code reads kilo.json at the work tree's root. */
const RULES = `${JSON.stringify({ permission: { bash: { 'git push *': 'deny' } } })}\n`;

/**
 * Kilo Code's refusals, for real: `--auto` approves every permission it would ask for, so a
 * call is refused only where a rule denies it (here the codebase's own kilo.json). The same
 * push is refused under the rule (counted refused, not failed, from the tool result the
 * gateway relayed) and failed without it. `EVALRIG_RECORD_TRANSCRIPTS=1` writes the turns to
 * the parser's fixtures (test/fixtures/transcripts/kilo-code-<version>/).
 */
describe('kilo-code for real: a call its permission rules deny is refused, the same call without them failed', function () {
  this.timeout(600_000);
  let ws: ToyWorkspace;
  let run: CliRun;
  const runDir = (c: string) => path.join(ws.outDir, 'runs', 'task', c, 'run-01');
  const stops = async (c: string) => {
    const r = await readJson<RunRecord>(path.join(runDir(c), 'run.json'));
    return Promise.all(r.stops.map((s) => readJson<StopRecord>(path.join(runDir(c), s))));
  };

  before(requireDocker);
  before(async () => {
    ws = await makeToyWorkspace({
      scripts: {},
      files: { 'model/session.json': await readFile(SCRIPT, 'utf8'), 'stage/kilo.json': RULES },
      set: {
        agent: {
          type: 'kilo-code',
          version: process.env.EVALRIG_KILO_CODE_VERSION ?? KILO_CODE_VERIFIED_VERSION,
          model_name: 'grok-code-fast-1',
          model: { script: 'model/session.json' },
        },
        conditions: {
          no_rules: {},
          project_rules: { stage: { 'stage/kilo.json': 'kilo.json' } },
        },
        baseline_condition: 'no_rules',
        resources: { memory: '1g', cpus: 1, pids: 256 },
        evals: [
          {
            id: 'task',
            prompt: 'Write notes.txt saying offline.',
            turns: [{ message: 'Push it.', phase: 'execution' }],
          },
        ],
      },
    });
    run = await evalrigRun(ws, undefined, ['--jobs', '2']);
    if (process.env.EVALRIG_RECORD_TRANSCRIPTS === '1') {
      const turns = (c: string, n: number) => path.join(runDir(c), `turns/turn-0${n}.jsonl`);
      await copyFile(turns('no_rules', 1), path.join(FIXTURES, 'turn-01.jsonl'));
      await copyFile(turns('no_rules', 2), path.join(FIXTURES, 'turn-02-failed.jsonl'));
      await copyFile(turns('project_rules', 2), path.join(FIXTURES, 'turn-02-refused.jsonl'));
    }
  });
  after(async () => {
    if (process.env.EVALRIG_KEEP_CONFORMANCE === '1') console.log(`kept ${ws?.root}`);
    else await ws?.cleanup();
  });

  it('plays both conditions over two turns, the file written by its own tool', async () => {
    for (const c of ['no_rules', 'project_rules']) {
      const r = await readJson<RunRecord>(path.join(runDir(c), 'run.json'));
      expect(r, `${c}: ${run.stderr}`).to.include({ status: 'completed', turns_completed: 2 });
      const [first] = await stops(c);
      expect(first!.agent!.tool_calls).to.deep.include({ total: 1, failed: 0, refused: 0 });
    }
  });

  it('under the rule the push is refused, not failed: in the turn, the run and the report', async () => {
    const [, second] = await stops('project_rules');
    expect(second!.agent!.tool_calls).to.deep.include({ total: 1, failed: 0, refused: 1 });
    const r = await readJson<RunRecord>(path.join(runDir('project_rules'), 'run.json'));
    expect(r.agent!.totals.tool_calls_refused).to.equal(1);
    // What the binary wrote: the call's error is a refusal of the adapter's words.
    const lines = await readJsonLines<Record<string, unknown>>(
      path.join(runDir('project_rules'), 'turns/turn-02.jsonl'),
    );
    const tool = lines.find((l) => l.type === 'tool_use')!.part as {
      state: { status: string; error: string };
    };
    expect(tool.state.status).to.equal('error');
    expect(
      KILO_CODE_REFUSALS.some((re) => re.test(tool.state.error)),
      tool.state.error,
    ).to.equal(true);
    const md = await readFile(path.join(ws.outDir, 'report.md'), 'utf8');
    expect(md.split('\n').slice(0, 12).join('\n')).to.match(
      /project_rules: the agent refused 1 tool call\(s\) in 1\/1 runs \(bash\)/u,
    );
  });

  it('without it the push runs and fails (no such remote): failed, not refused', async () => {
    const [, second] = await stops('no_rules');
    expect(second!.agent!.tool_calls).to.deep.include({ total: 1, failed: 1, refused: 0 });
    const md = await readFile(path.join(ws.outDir, 'report.md'), 'utf8');
    expect(md).to.not.match(/no_rules: the agent refused/u);
  });
});
