import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { execa, type ResultPromise } from 'execa';
import type { RunRecord, StopRecord } from '../../../src/artifacts/index.js';
import { LABELS, listContainers } from '../../../src/runtime/index.js';
import { playCampaign, readJson } from '../../support/campaign.js';
import { testDocker, requireDocker } from '../../support/docker.js';
import {
  executionTurn,
  makeToyWorkspace,
  planningTurn,
  type ToyWorkspace,
} from '../../support/toy.js';

async function runRecords(outDir: string): Promise<RunRecord[]> {
  const records: RunRecord[] = [];
  const runs = path.join(outDir, 'runs');
  for (const e of await readdir(runs)) {
    for (const c of await readdir(path.join(runs, e))) {
      for (const r of await readdir(path.join(runs, e, c))) {
        const file = path.join(runs, e, c, r, 'run.json');
        if (existsSync(file)) records.push(await readJson<RunRecord>(file));
      }
    }
  }
  return records;
}

async function campaignContainers(outDir: string): Promise<number> {
  const conditions = await readJson<{ campaign: string }>(path.join(outDir, 'conditions.json'));
  return (await listContainers(testDocker(), { [LABELS.campaign]: conditions.campaign })).length;
}

function cli(args: string[]): ResultPromise<{ reject: false }> {
  return execa('node', ['--import', 'tsx', 'src/cli/main.ts', ...args], { reject: false });
}

describe('campaign: evalrig run with the scripted agent in real containers', function () {
  before(requireDocker);
  this.timeout(300_000);

  describe('2 evals x 2 conditions x 2 runs, --jobs 2', () => {
    let ws: ToyWorkspace;
    before(async () => {
      ws = await makeToyWorkspace({
        scripts: {
          'plan-then-execute': { turns: [planningTurn(), executionTurn()] },
          'plan-only': { turns: [planningTurn()] },
        },
        files: { 'skills/SKILL.md': '# a skill\n' },
        set: {
          conditions: {
            with_skill: { stage: { 'skills/SKILL.md': '.claude/skills/toy/SKILL.md' } },
            without_skill: {},
          },
          evals: [
            {
              id: 'plan-then-execute',
              prompt: 'Plan, then add multiply.',
              runs: 2,
              turns: [{ message: 'Approved, go on.', phase: 'execution' }],
              checks: [{ name: 'tests', run: 'node test.js' }],
            },
            { id: 'plan-only', prompt: 'Plan multiply.', runs: 2 },
          ],
        },
      });
      const result = await playCampaign(ws, { jobs: 2 });
      expect(result.played).to.equal(8);
    });
    after(() => ws.cleanup());

    it('records every run as completed, with no container left', async () => {
      const records = await runRecords(ws.outDir);
      expect(records).to.have.length(8);
      expect(records.map((r) => r.status)).to.deep.equal(Array(8).fill('completed'));
      expect(await campaignContainers(ws.outDir)).to.equal(0);
    });

    it('records both stops of a multi-turn run: a draft opened, then edited', async () => {
      const dir = path.join(ws.outDir, 'runs/plan-then-execute/with_skill/run-01');
      const record = await readJson<RunRecord>(path.join(dir, 'run.json'));
      expect(record.stops).to.deep.equal(['stops/stop-01.json', 'stops/stop-02.json']);
      const [first, second] = await Promise.all(
        record.stops.map((s) => readJson<StopRecord>(path.join(dir, s))),
      );
      expect(first!.kind).to.equal('awaiting-approval');
      expect(first!.hand_over).to.equal(true);
      expect(first!.pull).to.include({ number: 1, draft: true, described: true, state: 'OPEN' });
      expect(first!.calls.map((c) => c.command)).to.deep.equal(['pr create']);
      expect(first!.origin_has_head).to.equal(true);
      expect(second!.phase).to.equal('execution');
      expect(second!.pull).to.include({ number: 1, draft: true, described: true });
      expect(second!.calls.map((c) => c.command)).to.deep.equal(['pr edit']);
      expect(second!.diff.files_added).to.equal(1); // PLAN.md
      expect(second!.diff.files_modified).to.equal(1); // math.js
      expect(record.checks).to.have.length(1);
      expect(record.checks[0]).to.include({ name: 'tests', passed: true });
      const calls = (await readFile(path.join(dir, 'calls.jsonl'), 'utf8')).trim().split('\n');
      expect(calls).to.have.length(2);
      expect(await readFile(path.join(dir, 'diff.patch'), 'utf8')).to.match(/\+exports\.multiply/);
      // Where its time went: every phase it passed through, in order.
      expect(record.phases?.map((p) => p.name)).to.deep.equal([
        'prepare',
        'start',
        'turn 1',
        'collect',
        'turn 2',
        'collect',
        'checks',
        'record',
      ]);
      expect(record.phases!.every((p) => Number.isInteger(p.ms) && p.ms >= 0)).to.equal(true);
    });

    it("stages the condition's paths into the baseline, not into the diff", async () => {
      const record = await readJson<RunRecord>(
        path.join(ws.outDir, 'runs/plan-only/with_skill/run-02/run.json'),
      );
      expect(record.diff.files_added).to.equal(1); // only PLAN.md: the skill is in the baseline
      expect(record.codebase?.host_local).to.equal(true);
      expect(record.codebase?.commit).to.match(/^[0-9a-f]{40}$/);
      const conditions = await readJson<{ conditions: { name: string; stage: unknown[] }[] }>(
        path.join(ws.outDir, 'conditions.json'),
      );
      expect(conditions.conditions.map((c) => [c.name, c.stage.length])).to.deep.equal([
        ['with_skill', 1],
        ['without_skill', 0],
      ]);
    });

    it('a second run into the same folder skips every finished run', async () => {
      const result = await playCampaign(ws, { jobs: 2 });
      expect(result).to.include({ played: 0, skipped: 8 });
    });
  });

  describe('isolation between environments', () => {
    let ws: ToyWorkspace;
    before(async () => {
      ws = await makeToyWorkspace({
        scripts: { touch: { turns: [{ actions: [{ write: 'new.txt', content: 'x\n' }] }] } },
        set: { evals: [{ id: 'touch', prompt: 'p', runs: 2 }] },
      });
      await playCampaign(ws, { keepWorkspaces: true });
    });
    after(() => ws.cleanup());

    it('hands the work tree to the container user but keeps shared objects root-owned and read-only', async function () {
      if (process.getuid?.() !== 0) this.skip();
      // What the run left is kept out of its quota; what was prepared stays beneath.
      const kept = path.join(ws.outDir, 'work/touch/default/run-01/kept/work');
      expect((await stat(path.join(kept, 'new.txt'))).uid).to.equal(1000);
      expect((await stat(path.join(kept, 'math.js'))).uid).to.equal(1000);
      const work = path.join(ws.outDir, 'work/touch/default/run-01/base/work');
      expect(
        existsSync(path.join(work, 'new.txt')),
        'the prepared layer is never written',
      ).to.equal(false);
      const packDir = path.join(work, '.git/objects/pack');
      const packs = (await readdir(packDir)).filter((f) => f.endsWith('.pack'));
      expect(packs.length).to.be.above(0);
      for (const pack of packs) {
        const info = await stat(path.join(packDir, pack));
        expect(info.nlink, 'hardlinked to the cache').to.be.at.least(2);
        expect(info.uid).to.equal(0);
        expect(info.mode & 0o222, 'no write bit').to.equal(0);
      }
    });
  });

  describe('timeouts', () => {
    let ws: ToyWorkspace;
    before(async () => {
      ws = await makeToyWorkspace({
        scripts: {
          // Turn 1 must end within the turn timeout even on a loaded 2-core machine (5 s was not:
          // its exec alone took longer at load 25), and turn 2 must not.
          slow: { turns: [planningTurn(), { actions: [{ sleep: 600 }, { stop: 'conformant' }] }] },
        },
        set: {
          evals: [
            {
              id: 'slow',
              prompt: 'p',
              turn_timeout: 20,
              turns: [{ message: 'go', phase: 'execution' }],
            },
          ],
        },
      });
    });
    after(() => ws.cleanup());

    it('records a run that exceeds its turn timeout as timed out, with no stop for the cut turn', async () => {
      await playCampaign(ws);
      const record = await readJson<RunRecord>(
        path.join(ws.outDir, 'runs/slow/default/run-01/run.json'),
      );
      expect(record.status).to.equal('timed_out');
      expect(record.stops).to.deep.equal(['stops/stop-01.json']);
      expect(record.turns_completed).to.equal(1);
      expect(
        existsSync(path.join(ws.outDir, 'runs/slow/default/run-01/stops/stop-02.json')),
      ).to.equal(false);
      expect(await campaignContainers(ws.outDir)).to.equal(0);
    });
  });

  describe('interruptions', () => {
    let ws: ToyWorkspace;
    beforeEach(async () => {
      ws = await makeToyWorkspace({
        scripts: { nap: { turns: [{ actions: [{ sleep: 1 }, { stop: 'conformant' }] }] } },
        set: { evals: [{ id: 'nap', prompt: 'p', runs: 6 }] },
      });
    });
    afterEach(() => ws.cleanup());

    async function waitFor(check: () => Promise<boolean>, ms = 120_000): Promise<void> {
      const end = Date.now() + ms;
      while (Date.now() < end) {
        if (await check()) return;
        await new Promise((r) => setTimeout(r, 200));
      }
      throw new Error('condition not reached in time');
    }

    it('after a SIGKILL mid-campaign, a rerun finishes only the unfinished runs and leaves no container', async () => {
      const first = cli(['run', ws.evalSetFile, '--out', ws.outDir, '--jobs', '2', '--no-report']);
      await waitFor(async () =>
        existsSync(ws.outDir) ? (await runRecords(ws.outDir).catch(() => [])).length >= 2 : false,
      );
      first.kill('SIGKILL');
      await first;
      const done = (await runRecords(ws.outDir)).length;
      expect(done).to.be.within(2, 5);
      const second = await cli([
        'run',
        ws.evalSetFile,
        '--out',
        ws.outDir,
        '--jobs',
        '2',
        '--no-report',
      ]);
      expect(second.exitCode, second.stderr).to.equal(0);
      expect(second.stderr).to.include(
        `${6 - done} run(s) to play (${done} already finished, skipped)`,
      );
      expect(await runRecords(ws.outDir)).to.have.length(6);
      expect(await campaignContainers(ws.outDir)).to.equal(0);
    });

    it("SIGINT removes the campaign's containers before exit", async () => {
      const child = cli(['run', ws.evalSetFile, '--out', ws.outDir, '--jobs', '2', '--no-report']);
      await waitFor(
        async () =>
          existsSync(path.join(ws.outDir, 'conditions.json')) &&
          (await campaignContainers(ws.outDir)) > 0,
      );
      child.kill('SIGINT');
      const r = await child;
      expect(r.exitCode).to.equal(130);
      expect(await campaignContainers(ws.outDir)).to.equal(0);
    });
  });

  describe('refusals before anything is built', () => {
    it('an invalid eval set is refused with its pointers and creates nothing', async () => {
      const ws = await makeToyWorkspace({
        scripts: {},
        set: { evals: [{ id: 'Bad/Id', prompt: 'p', bogus: 1 }] },
      });
      try {
        const r = await cli(['run', ws.evalSetFile, '--out', ws.outDir]);
        expect(r.exitCode).to.equal(2);
        expect(r.stderr).to.include('/evals/0');
        expect(r.stderr).to.not.match(/\n\s+at /);
        expect(existsSync(ws.outDir)).to.equal(false);
      } finally {
        await ws.cleanup();
      }
    });

    it('an unknown --only is refused naming the flag', async () => {
      const ws = await makeToyWorkspace({
        scripts: {},
        set: { evals: [{ id: 'a', prompt: 'p' }] },
      });
      try {
        const r = await cli(['run', ws.evalSetFile, '--out', ws.outDir, '--only', 'nope']);
        expect(r.exitCode).to.equal(2);
        expect(r.stderr).to.include('--only names eval(s) the eval set does not have: nope');
        expect(existsSync(ws.outDir)).to.equal(false);
      } finally {
        await ws.cleanup();
      }
    });
  });
});
