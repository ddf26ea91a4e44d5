/**
 * A command agent (agent.command) is checked before any run: its program must exist in every
 * image its runs use, as the agent's user; otherwise the campaign is refused and nothing is
 * played. A turn that cannot start (126, 127) or exits non-zero fails its run in phase agent:
 * its stop is kept, no further turn is played, and it is never `completed`.
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { chmod, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunRecord } from '../../../src/artifacts/index.js';
import { requireDocker } from '../../support/docker.js';
import { evalrigRun, makeToyWorkspace, type ToyWorkspace } from '../../support/toy.js';

const TWO_TURNS = { turns: [{ message: 'Go on.', phase: 'execution' }] };

async function record(ws: ToyWorkspace, id: string): Promise<RunRecord> {
  const file = path.join(ws.outDir, 'runs', id, 'default/run-01/run.json');
  return JSON.parse(await readFile(file, 'utf8')) as RunRecord;
}

describe('campaign: a command agent whose program is missing from the image', function () {
  before(requireDocker);
  this.timeout(300_000);
  let ws: ToyWorkspace | undefined;
  afterEach(() => ws?.cleanup());

  it('is refused before any run, naming agent.command[0], the program and the image', async () => {
    ws = await makeToyWorkspace({
      scripts: {},
      set: {
        agent: { command: ['claude', '-p', '{prompt}'] },
        evals: [{ id: 'hello', prompt: 'Say hello.' }],
      },
    });
    const run = await evalrigRun(ws);
    expect(run.exitCode).to.not.equal(0);
    expect(run.stderr)
      .to.include(`${ws.evalSetFile}: agent.command[0]: the program "claude" is not found`)
      .and.to.match(/in image evalrig-test:[0-9a-f]{12} as user \d+:\d+ \(not on its PATH\)/u)
      .and.to.include('nothing was played');
    expect(run.stderr).to.not.match(/^\s+at /mu);
    expect(existsSync(path.join(ws.outDir, 'runs'))).to.equal(false);
    expect(existsSync(path.join(ws.outDir, 'conditions.json'))).to.equal(false);
  });

  it('refuses an absolute path that is not executable, and checks resume_command for later turns', async () => {
    ws = await makeToyWorkspace({
      scripts: {},
      files: { 'agents/plain.sh': '#!/bin/sh\nexit 0\n' },
      set: {
        agent: { command: ['true'], resume_command: ['{eval_set_dir}/agents/plain.sh'] },
        evals: [{ id: 'hello', prompt: 'Say hello.', ...TWO_TURNS }],
      },
    });
    const run = await evalrigRun(ws);
    expect(run.exitCode).to.not.equal(0);
    expect(run.stderr).to.include(
      'agent.resume_command[0]: the program "/evalset/agents/plain.sh" is not found',
    );
    expect(run.stderr).to.include('(no executable file there)');
    expect(existsSync(path.join(ws.outDir, 'runs'))).to.equal(false);
  });
});

describe('campaign: a command agent that cannot start or exits non-zero', function () {
  before(requireDocker);
  this.timeout(300_000);
  let ws: ToyWorkspace;
  let run: { exitCode?: number; stderr: string };

  before(async () => {
    ws = await makeToyWorkspace({
      scripts: {},
      files: {
        'agents/fine.sh': '#!/bin/sh\necho "turn $EVALRIG_TURN"\n',
        'agents/exits.sh': '#!/bin/sh\necho "it went wrong" >&2\nexit 3\n',
        'agents/cannot-start.sh': '#!/bin/sh\necho "turn $EVALRIG_TURN"\n',
      },
      set: {
        agent: {
          command: ['{eval_set_dir}/agents/{eval}.sh'],
          // A path of the checkout (not checked before runs), which it does not hold.
          resume_command: ['./not-in-the-checkout.sh'],
        },
        evals: [
          { id: 'fine', prompt: 'Work.' },
          { id: 'exits', prompt: 'Work.', ...TWO_TURNS },
          { id: 'cannot-start', prompt: 'Work.', ...TWO_TURNS },
        ],
      },
    });
    for (const name of ['fine', 'exits', 'cannot-start']) {
      await chmod(path.join(path.dirname(ws.evalSetFile), 'agents', `${name}.sh`), 0o755);
    }
    run = await evalrigRun(ws);
  });
  after(() => ws?.cleanup());

  it('completes the runs whose agent exits 0 at every turn', async () => {
    expect(await record(ws, 'fine'), run.stderr).to.include({
      status: 'completed',
      turns_completed: 1,
    });
  });

  it('fails a run whose agent exits non-zero in phase agent: its stop kept, no further turn', async () => {
    const r = await record(ws, 'exits');
    expect(r).to.include({ status: 'failed', phase: 'agent', turns_completed: 1 });
    expect(r.error).to.equal('turn 1: the agent exited 3 (it went wrong)');
    expect(r.stops).to.deep.equal(['stops/stop-01.json']);
    expect(r.checks).to.deep.equal([]);
  });

  it('fails a run whose agent cannot start (126 or 127) in phase agent, its stop kept', async () => {
    const r = await record(ws, 'cannot-start');
    expect(r).to.include({ status: 'failed', phase: 'agent', turns_completed: 2 });
    expect(r.error).to.match(
      /^turn 2: the agent could not start \(exit 12[67]: .*not-in-the-checkout\.sh.*no such file/u,
    );
    expect(r.stops).to.deep.equal(['stops/stop-01.json', 'stops/stop-02.json']);
  });

  it('says so on the command line: the campaign ends non-zero, naming the failed runs', () => {
    expect(run.exitCode).to.not.equal(0);
    expect(run.stderr).to.include('the agent exited 3');
  });
});
