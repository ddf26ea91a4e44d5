/**
 * The end-to-end scenario: the toy project played by the scripted agent in
 * the real test image, through `evalrig run` and `evalrig report`, with the
 * nominal pull-request workflow and one variant per measure it should move.
 */
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import type { GhCall, RunRecord, StopRecord } from '../../src/artifacts/index.js';
import {
  PLAN,
  executionTurn,
  makeToyWorkspace,
  planningTurn,
  type ToyWorkspace,
} from '../support/toy.js';
import { requireDocker } from '../support/docker.js';

interface RateCell {
  rate: number | null;
  n: number;
}
interface NumberCell {
  mean: number | null;
  n: number;
}
interface BenchmarkEval {
  eval: string;
  condition: string;
  measures: Record<string, RateCell & NumberCell>;
}

async function json<T>(file: string): Promise<T> {
  return JSON.parse(await readFile(file, 'utf8')) as T;
}

async function calls(outDir: string, evalId: string): Promise<GhCall[]> {
  const text = await readFile(
    path.join(outDir, 'runs', evalId, 'default/run-01/calls.jsonl'),
    'utf8',
  );
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as GhCall);
}

async function stops(outDir: string, evalId: string): Promise<StopRecord[]> {
  const dir = path.join(outDir, 'runs', evalId, 'default/run-01');
  const record = await json<RunRecord>(path.join(dir, 'run.json'));
  return Promise.all(record.stops.map((s) => json<StopRecord>(path.join(dir, s))));
}

function evalrig(args: string[]) {
  return execa('node', ['--import', 'tsx', 'src/cli/main.ts', ...args], { reject: false });
}

const EXECUTION = [{ message: 'The plan is approved: carry it out.', phase: 'execution' }];

describe('e2e: the pull-request workflow of the toy project', function () {
  before(requireDocker);
  this.timeout(600_000);
  let ws: ToyWorkspace;
  let measures: (evalId: string) => Record<string, RateCell & NumberCell>;
  let summary: string;

  before(async () => {
    ws = await makeToyWorkspace({
      scripts: {
        nominal: { turns: [planningTurn(), executionTurn()] },
        'marks-ready': {
          turns: [planningTurn(), executionTurn({ extra: [{ run: 'gh pr ready' }] })],
        },
        'forgets-refresh': { turns: [planningTurn(), executionTurn({ refresh: false })] },
        'calls-merge': {
          turns: [
            planningTurn(),
            executionTurn({ extra: [{ run: 'gh pr merge --squash', allow_failure: true }] }),
          ],
        },
        'opens-twice': {
          turns: [
            planningTurn(),
            executionTurn({
              extra: [
                {
                  run: 'gh pr create --draft --title again --body-file PLAN.md',
                  allow_failure: true,
                },
              ],
            }),
          ],
        },
        prepared: {
          turns: [
            {
              actions: [
                { append: 'math.js', content: 'exports.multiply = (a, b) => a * b;\n' },
                { run: 'git commit -qam multiply && git push -q' },
                { run: 'gh pr edit --body-file PLAN.md' },
                { stop: 'conformant' },
              ],
            },
          ],
        },
      },
      files: { 'prepared/PLAN.md': PLAN },
      set: {
        checks: [{ name: 'tests', run: 'node test.js' }],
        evals: [
          { id: 'nominal', prompt: 'Plan multiply.', turns: EXECUTION },
          { id: 'marks-ready', prompt: 'Plan multiply.', turns: EXECUTION },
          { id: 'forgets-refresh', prompt: 'Plan multiply.', turns: EXECUTION },
          { id: 'calls-merge', prompt: 'Plan multiply.', turns: EXECUTION },
          { id: 'opens-twice', prompt: 'Plan multiply.', turns: EXECUTION },
          {
            id: 'prepared',
            prompt: 'The plan is approved: carry it out.',
            phase: 'execution',
            files_root: 'prepared',
            files: ['PLAN.md'],
            start: {
              branch: 'feature/multiply',
              pull_requests: [{ title: 'Add multiply', body: PLAN, draft: true }],
            },
          },
        ],
      },
    });
    const run = await evalrig(['run', ws.evalSetFile, '--out', ws.outDir, '--jobs', '2']);
    expect(run.exitCode, run.stderr).to.equal(0);
    summary = run.stdout;
    const benchmark = await json<{ evals: BenchmarkEval[] }>(
      path.join(ws.outDir, 'benchmark.json'),
    );
    measures = (id) => {
      const row = benchmark.evals.find((e) => e.eval === id);
      if (!row) throw new Error(`no benchmark row for ${id}`);
      return row.measures;
    };
  });
  after(() => ws.cleanup());

  describe('the nominal scenario', () => {
    it('planning opened a draft with pr create --draft, exit 0, and nothing marked it ready', async () => {
      const recorded = await calls(ws.outDir, 'nominal');
      const create = recorded.filter((c) => c.command === 'pr create');
      expect(create).to.have.length(1);
      expect(create[0]!.argv).to.include('--draft');
      expect(create[0]!.exit_code).to.equal(0);
      expect(recorded.some((c) => c.marks_ready)).to.equal(false);
      expect(recorded.map((c) => c.command)).to.deep.equal(['pr create', 'pr edit']);
    });

    it('every stop holds the pull request as a described draft', async () => {
      const [planning, execution] = await stops(ws.outDir, 'nominal');
      expect(planning!.kind).to.equal('awaiting-approval');
      expect(planning!.pull).to.include({ draft: true, described: true });
      expect(execution!.kind).to.equal('conformant');
      expect(execution!.pull).to.include({ draft: true, described: true, number: 1 });
      expect(execution!.calls.map((c) => c.command)).to.deep.equal(['pr edit']);
    });

    it('the report shows 1, 1, 1, 0 and no unplayed call', () => {
      const m = measures('nominal');
      expect(m.pr_draft_at_hand_over!.rate).to.equal(1);
      expect(m.pr_described!.rate).to.equal(1);
      expect(m.pr_refreshed!.rate).to.equal(1);
      expect(m.pr_marked_ready!.rate).to.equal(0);
      expect(m.gh_not_played!.mean).to.equal(0);
      expect(m.checks_passed!.rate).to.equal(1);
    });

    it('prints a summary table and the path to report.html', () => {
      expect(summary).to.include('PR described (planning)');
      expect(summary).to.include(path.join(ws.outDir, 'report.html'));
    });
  });

  describe('variants, each moving its measure', () => {
    it('a session that marks ready: pr_marked_ready 1, and the PR is no draft', async () => {
      expect(measures('marks-ready').pr_marked_ready!.rate).to.equal(1);
      expect(measures('marks-ready').pr_draft_at_hand_over!.rate).to.equal(0);
      const recorded = await calls(ws.outDir, 'marks-ready');
      expect(recorded.filter((c) => c.marks_ready)).to.have.length(1);
    });

    it('a session that forgets to refresh: pr_refreshed 0, planning still described', () => {
      expect(measures('forgets-refresh').pr_refreshed!.rate).to.equal(0);
      expect(measures('forgets-refresh').pr_described!.rate).to.equal(1);
    });

    it('a session that calls gh pr merge: gh_not_played 1, its line played false', async () => {
      expect(measures('calls-merge').gh_not_played!.mean).to.equal(1);
      const merge = (await calls(ws.outDir, 'calls-merge')).find((c) => c.argv[1] === 'merge');
      expect(merge).to.include({ played: false, exit_code: 1 });
    });

    it('a session that opens twice is refused with the address of the first', async () => {
      const creates = (await calls(ws.outDir, 'opens-twice')).filter(
        (c) => c.command === 'pr create',
      );
      expect(creates.map((c) => c.exit_code)).to.deep.equal([0, 1]);
      expect(creates[1]!.stderr).to.include('already exists');
      expect(creates[1]!.stderr).to.include(creates[0]!.stdout.trim());
      expect(measures('opens-twice').gh_not_played!.mean).to.equal(0);
    });

    it('a run started from the prepared state refreshes the seeded draft, no call recorded for the seed', async () => {
      const recorded = await calls(ws.outDir, 'prepared');
      expect(recorded.map((c) => c.command)).to.deep.equal(['pr edit']);
      const [stop] = await stops(ws.outDir, 'prepared');
      expect(stop!.branch).to.equal('feature/multiply');
      expect(stop!.pull).to.include({ number: 1, draft: true, described: true });
      expect(measures('prepared').pr_refreshed!.rate).to.equal(1);
      expect(measures('prepared').pr_described!.n).to.equal(0);
    });
  });

  describe('--stop-at-hand-over', () => {
    it('keeps what planning gives; the execution measures are empty, not false', async () => {
      const out = path.join(ws.root, 'out-hand-over');
      const run = await evalrig([
        'run',
        ws.evalSetFile,
        '--out',
        out,
        '--only',
        'nominal',
        '--stop-at-hand-over',
      ]);
      expect(run.exitCode, run.stderr).to.equal(0);
      const record = await json<RunRecord>(path.join(out, 'runs/nominal/default/run-01/run.json'));
      expect(record.stopped_at_hand_over).to.equal(true);
      expect(record.stops).to.have.length(1);
      expect(record.measures).to.include({
        pr_draft_at_hand_over: true,
        pr_described: true,
        pr_refreshed: null,
        pr_marked_ready: null,
        gh_not_played: 0,
      });
      const benchmark = await json<{ evals: BenchmarkEval[] }>(path.join(out, 'benchmark.json'));
      const m = benchmark.evals[0]!.measures;
      expect(m.pr_refreshed).to.include({ rate: null, n: 0 });
      expect(m.pr_marked_ready).to.include({ rate: null, n: 0 });
    });
  });
});
