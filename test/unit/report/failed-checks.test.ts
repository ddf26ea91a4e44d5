import { expect } from 'chai';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { outputTail, TAIL_CHARS, TAIL_LINES } from '../../../src/report/failed-checks.js';
import { writeReport, type BenchmarkFile } from '../../../src/report/index.js';
import { GOOD_RUN, writeCampaign, type RunPlan } from '../../integration/report/fixture.js';
import { checkResult } from '../../support/checked-runs.js';

/** What a hostile or merely colourful check prints: markup, a fence, a table row, escapes. */
const HOSTILE = [
  'compiling…',
  '\u001b[32mok\u001b[0m 1 parses',
  '```',
  '| not | a | table |',
  '</pre><script>alert(1)</script>',
  '\u001b[31mnot ok\u001b[0m 2 <b>renders</b> & "quotes"',
  '\u001b]0;pwned\u0007# 1 of 2 failed',
  '',
].join('\n');

describe('report: the failed checks, named with what their runs printed', () => {
  describe('outputTail', () => {
    it('keeps the last lines, escapes and control characters taken out', () => {
      const { tail, cut } = outputTail(HOSTILE);
      expect(tail.split('\n')).to.deep.equal([
        '```',
        '| not | a | table |',
        '</pre><script>alert(1)</script>',
        'not ok 2 <b>renders</b> & "quotes"',
        '# 1 of 2 failed',
      ]);
      expect(tail.split('\n')).to.have.length(TAIL_LINES);
      expect(cut).to.equal(true);
    });

    it('shows a line a carriage return rewrote as a terminal would, and cuts a long one', () => {
      expect(outputTail('50%\r100%\r\ndone\u0008\u202e\n')).to.deep.equal({
        tail: '100%\ndone',
        cut: false,
      });
      const long = outputTail('x'.repeat(1000));
      expect(long.cut).to.equal(true);
      expect(long.tail).to.equal(`…${'x'.repeat(TAIL_CHARS)}`);
      expect(outputTail('')).to.deep.equal({ tail: '', cut: false });
    });
  });

  describe('in a written report', () => {
    let dir: string;
    let bench: BenchmarkFile;
    let md: string;
    let html: string;

    before(async () => {
      dir = await mkdtemp(path.join(os.tmpdir(), 'evalrig-failed-checks-'));
      // with_skill fails `tests` in runs 2 and 3 (run 2 printing the hostile output) and ends
      // before its checks in run 4; without_skill passes every check. `lint` always passes.
      const plan = (_e: string, condition: string, i: number): RunPlan => {
        if (condition === 'without_skill' || i === 1 || i === 5)
          return {
            ...GOOD_RUN,
            checks: [checkResult('tests', true, 'ok'), checkResult('lint', true, '')],
          };
        if (i === 4)
          return {
            ...GOOD_RUN,
            status: 'timed_out',
            stops: 1,
            checks: [],
            failure: { class: 'timeout', reason: 'the turn ran past its time' },
          };
        const out = i === 2 ? HOSTILE : 'Tests: 1 failed';
        return {
          ...GOOD_RUN,
          checks: [checkResult('tests', false, out), checkResult('lint', true, '')],
        };
      };
      await writeCampaign(dir, {
        evals: ['fix-bug'],
        conditions: ['without_skill', 'with_skill'],
        baseline: 'without_skill',
        runs: 5,
        checks: ['tests', 'lint'],
        plan,
      });
      await writeReport(dir);
      bench = JSON.parse(await readFile(path.join(dir, 'benchmark.json'), 'utf8')) as BenchmarkFile;
      md = await readFile(path.join(dir, 'report.md'), 'utf8');
      html = await readFile(path.join(dir, 'report.html'), 'utf8');
    });

    after(async () => {
      if (dir) await rm(dir, { recursive: true, force: true });
    });

    it('lists each failed check per condition: runs failed of runs, and one failed run', () => {
      expect(bench.failed_checks).to.deep.equal([
        {
          condition: 'with_skill',
          check: 'tests',
          failed: 3,
          runs: 5,
          not_run: 1,
          example: {
            run: 'fix-bug/with_skill/run-02',
            exit_code: 1,
            ...outputTail(HOSTILE),
          },
        },
        // lint passed wherever it ran: the run that ended before it did not pass it either.
        {
          condition: 'with_skill',
          check: 'lint',
          failed: 1,
          runs: 5,
          not_run: 1,
          example: null,
        },
      ]);
      expect(bench.conditions.find((c) => c.condition === 'with_skill')!.checks!.tests).to.include({
        successes: 2,
        n: 5,
      });
    });

    it('says it in report.md, the output fenced so that nothing in it leaves its block', () => {
      const section = md.slice(md.indexOf('## Failed checks'), md.indexOf('## Comparisons'));
      expect(section).to.contain(
        '| with_skill | tests | 3 of 5 runs (1 ended before the check ran) | fix-bug/with_skill/run-02: exit code 1 |',
      );
      expect(section).to.contain(
        '| with_skill | lint | 1 of 5 runs (1 ended before the check ran) | none ran it |',
      );
      // The output holds a fence of three backticks: its own is longer, and closes after it.
      const start = section.indexOf('````text\n');
      expect(start).to.be.greaterThan(0);
      const end = section.indexOf('\n````\n', start);
      expect(section.slice(start + '````text\n'.length, end)).to.equal(outputTail(HOSTILE).tail);
      expect(md).not.to.contain('\u001b');
      expect(md.indexOf('## Failed checks')).to.be.lessThan(md.indexOf('## Comparisons'));
    });

    it('says it in report.html, the output escaped: no tag of it, no escape, pre balanced', () => {
      const section = html.slice(
        html.indexOf('<section id="failed-checks">'),
        html.indexOf('</section>', html.indexOf('<section id="failed-checks">')),
      );
      expect(section).to.contain('data-check="tests" data-failed="3" data-runs="5"');
      expect(section).to.contain('<code>fix-bug/with_skill/run-02</code>');
      expect(section).to.contain(
        '&lt;/pre&gt;&lt;script&gt;alert(1)&lt;/script&gt;\nnot ok 2 &lt;b&gt;renders&lt;/b&gt; &amp; &quot;quotes&quot;',
      );
      expect(html).not.to.match(/<script|<b>renders/iu);
      expect(html).not.to.contain('\u001b');
      expect(html.match(/<pre[\s>]/gu)?.length).to.equal(html.match(/<\/pre>/gu)?.length);
    });

    it('leaves the section out when no check failed', async () => {
      const calm = await mkdtemp(path.join(os.tmpdir(), 'evalrig-failed-checks-none-'));
      try {
        await writeCampaign(calm, {
          evals: ['fix-bug'],
          conditions: ['without_skill', 'with_skill'],
          baseline: 'without_skill',
          runs: 2,
          plan: () => GOOD_RUN,
        });
        await writeReport(calm);
        const b = JSON.parse(await readFile(path.join(calm, 'benchmark.json'), 'utf8'));
        expect(b).not.to.have.property('failed_checks');
        expect(await readFile(path.join(calm, 'report.md'), 'utf8')).not.to.contain(
          '## Failed checks',
        );
        expect(await readFile(path.join(calm, 'report.html'), 'utf8')).not.to.contain(
          'id="failed-checks"',
        );
      } finally {
        await rm(calm, { recursive: true, force: true });
      }
    });
  });
});
