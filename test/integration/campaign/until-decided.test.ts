/**
 * `evalrig run --until-decided` on campaigns of a command agent whose effect is known by
 * construction: with_skill writes the file the check looks for, without_skill writes it or
 * not as the case has it. The campaign plays in rounds and stops at the sequential test's
 * decision, recorded in sequential.json; a resume of a decided folder plays nothing more,
 * and one without --until-decided is refused.
 */
import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import type { SequentialFile } from '../../../src/artifacts/index.js';
import { requireDocker } from '../../support/docker.js';
import { evalrigRun, makeToyWorkspace, type ToyWorkspace } from '../../support/toy.js';

/** An eval set whose check passes when the agent wrote done.txt, as the condition's MODE says. */
function effectSet(baselineWrites: boolean) {
  return {
    hand_over: [],
    probes: {},
    agent: { command: ['sh', '-c', 'if [ "$MODE" = write ]; then echo ok > done.txt; fi'] },
    conditions: {
      without_skill: { env: { MODE: baselineWrites ? 'write' : 'skip' } },
      with_skill: { env: { MODE: 'write' } },
    } as Record<string, unknown>,
    baseline_condition: 'without_skill',
    checks: [{ name: 'done', run: 'test -f done.txt' }],
    evals: [{ id: 'task', prompt: 'Write done.txt.' }],
  };
}

async function sequential(ws: ToyWorkspace): Promise<SequentialFile> {
  return JSON.parse(
    await readFile(path.join(ws.outDir, 'sequential.json'), 'utf8'),
  ) as SequentialFile;
}

async function runsOf(ws: ToyWorkspace, condition: string): Promise<string[]> {
  const dir = path.join(ws.outDir, 'runs', 'task', condition);
  return existsSync(dir) ? (await readdir(dir)).sort() : [];
}

describe('campaign: --until-decided', function () {
  before(requireDocker);
  this.timeout(600_000);

  describe('with a large effect by construction (100% against 0%)', () => {
    let ws: ToyWorkspace;
    let first: { exitCode?: number; stderr: string };
    before(async () => {
      ws = await makeToyWorkspace({ scripts: {}, set: effectSet(false) });
      first = await evalrigRun(ws, undefined, [
        '--until-decided',
        '--max-runs',
        '10',
        '--jobs',
        '2',
      ]);
    });
    after(() => ws?.cleanup());

    it('stops early, significant at the sequential boundary, and records every look', async () => {
      expect(first.exitCode, first.stderr).to.equal(0);
      const s = await sequential(ws);
      expect(s.decision).to.equal('significant');
      expect(s.design).to.include({ primary_measure: 'checks_passed', max_runs: 10 });
      const last = s.looks.at(-1)!;
      expect(last.runs).to.be.below(10);
      expect(Math.abs(last.z)).to.be.at.least(last.efficacy);
      // One look a round, each on one more run a condition; the earlier ones went on.
      expect(s.looks.map((l) => l.runs)).to.deep.equal(
        Array.from({ length: last.runs }, (_, i) => i + 1),
      );
      expect(s.looks.slice(0, -1).every((l) => l.decision === 'go_on')).to.equal(true);
      expect(s.text).to.equal(
        `stopped after ${last.runs} of 10 runs a condition: significant at the sequential boundary (z ${last.z.toFixed(2)}, beyond ±${last.efficacy.toFixed(2)})`,
      );
      // No run past the decision's round was played.
      expect(await runsOf(ws, 'with_skill')).to.have.length(last.runs);
      expect(await runsOf(ws, 'without_skill')).to.have.length(last.runs);
      expect(first.stderr).to.include(`${20 - 2 * last.runs} not played (decided)`);
    });

    it('says the design and why it stopped in report.md, BASELINE.md and benchmark.json', async () => {
      const s = await sequential(ws);
      for (const page of ['report.md', 'BASELINE.md']) {
        const text = await readFile(path.join(ws.outDir, page), 'utf8');
        expect(text, page).to.include(s.text).and.to.include("O'Brien-Fleming-type alpha spending");
      }
      const html = await readFile(path.join(ws.outDir, 'report.html'), 'utf8');
      expect(html)
        .to.include('class="verdict sequential" data-decision="significant"')
        .and.to.include(s.text);
      const benchmark = JSON.parse(await readFile(path.join(ws.outDir, 'benchmark.json'), 'utf8'));
      expect(benchmark.sequential).to.include({ decision: 'significant', text: s.text });
    });

    it('plays nothing more on a resume, and refuses a resume without --until-decided', async () => {
      const before = await sequential(ws);
      const again = await evalrigRun(ws, undefined, ['--until-decided', '--max-runs', '10']);
      expect(again.exitCode, again.stderr).to.equal(0);
      expect(again.stderr).to.include('0 played').and.to.include(before.text);
      expect(await sequential(ws)).to.deep.equal(before);
      const fixed = await evalrigRun(ws);
      expect(fixed.exitCode).to.not.equal(0);
      expect(fixed.stderr)
        .to.include('was played with --until-decided')
        .and.to.include(before.text);
      expect(fixed.stderr).to.not.match(/^\s+at /mu);
      const other = await evalrigRun(ws, undefined, ['--until-decided', '--max-runs', '12']);
      expect(other.exitCode).to.not.equal(0);
      expect(other.stderr).to.include('was played under another design (max_runs 10, asked 12');
    });
  });

  describe('with no effect (both conditions pass every run)', () => {
    let ws: ToyWorkspace;
    let run: { exitCode?: number; stderr: string };
    before(async () => {
      ws = await makeToyWorkspace({ scripts: {}, set: effectSet(true) });
      run = await evalrigRun(ws, undefined, ['--until-decided', '--max-runs', '8', '--jobs', '2']);
    });
    after(() => ws?.cleanup());

    it('stops at the futility bound from half the runs on, the rest not played', async () => {
      expect(run.exitCode, run.stderr).to.equal(0);
      const s = await sequential(ws);
      expect(s.decision).to.equal('futile');
      expect(s.looks.at(-1)!.runs).to.equal(4);
      expect(s.text).to.match(
        /^stopped after 4 of 8 runs a condition: futile at the futility bound \(z 0\.00, within ±[0-9.]+: a difference of 20 pts is unlikely\)$/u,
      );
      expect(await runsOf(ws, 'with_skill')).to.deep.equal([
        'run-01',
        'run-02',
        'run-03',
        'run-04',
      ]);
    });
  });

  describe('killed between rounds', () => {
    let ws: ToyWorkspace;
    after(() => ws?.cleanup());

    it('a resume takes up from the last recorded look, and decides as an uninterrupted one would', async () => {
      ws = await makeToyWorkspace({ scripts: {}, set: effectSet(true) });
      const args = ['--until-decided', '--max-runs', '8', '--no-report'];
      const first = execa(
        'node',
        ['--import', 'tsx', 'src/cli/main.ts', 'run', ws.evalSetFile, '--out', ws.outDir, ...args],
        { reject: false },
      );
      // Killed once two looks are recorded: two more rounds of containers are left to play.
      const file = path.join(ws.outDir, 'sequential.json');
      for (let i = 0; ; i++) {
        if (existsSync(file) && (await sequential(ws)).looks.length >= 2) break;
        if (i > 1500) throw new Error('no second look in 5 minutes');
        await new Promise((r) => setTimeout(r, 200));
      }
      first.kill('SIGKILL');
      await first;
      const before = await sequential(ws);
      expect(before.decision).to.equal('go_on');
      const second = await evalrigRun(ws, undefined, args);
      expect(second.exitCode, second.stderr).to.equal(0);
      const after = await sequential(ws);
      expect(after.looks.slice(0, before.looks.length)).to.deep.equal(before.looks);
      expect(after.looks.map((l) => l.runs)).to.deep.equal([1, 2, 3, 4]);
      expect(after.decision).to.equal('futile');
      expect(await runsOf(ws, 'without_skill')).to.deep.equal([
        'run-01',
        'run-02',
        'run-03',
        'run-04',
      ]);
    });
  });

  describe('refuses before anything starts', () => {
    let ws: ToyWorkspace;
    afterEach(() => ws?.cleanup());

    it('a judged primary measure, naming the field', async () => {
      ws = await makeToyWorkspace({
        scripts: {},
        set: { ...effectSet(false), primary_measure: 'grading.all_passed' },
      });
      const run = await evalrigRun(ws, undefined, ['--until-decided']);
      expect(run.exitCode).to.not.equal(0);
      expect(run.stderr).to.include(
        `${ws.evalSetFile}#/primary_measure: "grading.all_passed" is judged`,
      );
      expect(existsSync(path.join(ws.outDir, 'conditions.json'))).to.equal(false);
    });

    it('a campaign of more than two conditions', async () => {
      const set = effectSet(false);
      ws = await makeToyWorkspace({
        scripts: {},
        set: { ...set, conditions: { ...set.conditions, third: { env: { MODE: 'write' } } } },
      });
      const run = await evalrigRun(ws, undefined, ['--until-decided']);
      expect(run.exitCode).to.not.equal(0);
      expect(run.stderr).to.include(
        '--until-decided tests one condition against the baseline "without_skill": the campaign plays 3 condition(s)',
      );
    });

    it('--max-runs without --until-decided, and --runs with it', async () => {
      ws = await makeToyWorkspace({ scripts: {}, set: effectSet(false) });
      const alone = await evalrigRun(ws, undefined, ['--max-runs', '5']);
      expect(alone.exitCode).to.not.equal(0);
      expect(alone.stderr).to.include('--max-runs is the most --until-decided may play');
      const both = await evalrigRun(ws, undefined, ['--until-decided', '--runs', '5']);
      expect(both.exitCode).to.not.equal(0);
      expect(both.stderr).to.include('--runs and --until-decided conflict');
      expect(both.stderr).to.not.match(/^\s+at /mu);
    });
  });
});
