import { expect } from 'chai';
import { comparisonPairs } from '../../../src/report/benchmark.js';
import { campaignHref, checkHtml, isCampaignLink } from '../../../src/report/html.js';
import { checkMarkdown, ReportStructureError } from '../../../src/report/markdown.js';
import { formatDifference, formatNumber, formatRate } from '../../../src/report/format.js';

// One chart per measure: 5 + 3 rates, 6 numbers (diff_vs_reference only with a reference), 9 agent numbers.
const charts = Array.from({ length: 23 }, (_, i) => `<figure data-chart="m${i}"></figure>`).join(
  '',
);
const page = (body: string) =>
  `<!doctype html>\n<html><head><style></style></head><body>${charts}${body}</body></html>`;

describe('report: the structure asserted before writing', () => {
  describe('checkHtml', () => {
    it('accepts a self-contained page', () => {
      expect(() => checkHtml('r.html', page('<a href="#runs">runs</a>'))).not.to.throw();
    });

    it("accepts relative links to a run's files below the page's folder", () => {
      const link = '<a href="runs/fix-bug/with_skill/run-01/turns/turn-01.jsonl">t</a>';
      expect(() => checkHtml('r.html', page(link))).not.to.throw();
    });

    for (const [what, body] of [
      ['a script', '<script>1</script>'],
      ['a stylesheet link', '<link rel="stylesheet">'],
      ['an image', '<img alt="">'],
      ['a url() in CSS', '<div style="background:url(x.png)"></div>'],
      ['a link off the page', '<a href="https://example.invalid/">x</a>'],
      ['a link above the page', '<a href="runs/../../etc/passwd">x</a>'],
      ['an encoded link above the page', '<a href="runs/%2e%2e/x">x</a>'],
      ['an absolute path', '<a href="/etc/passwd">x</a>'],
      ['a relative src', '<div src="runs/x">x</div>'],
      ['an unclosed link', '<a href="#x">x'],
      ['an unclosed table', '<table><tr><td>1</td></tr>'],
    ]) {
      it(`refuses ${what}`, () => {
        expect(() => checkHtml('r.html', page(body!))).to.throw(ReportStructureError, 'r.html');
      });
    }

    it('refuses a page without one chart per measure', () => {
      expect(() => checkHtml('r.html', '<!doctype html>\n<html><body></body></html>')).to.throw(
        /0 charts, expected 23/,
      );
    });
  });

  describe('campaign links', () => {
    it('encodes every segment so names stay one segment and no scheme appears', () => {
      const href = campaignHref(['runs', 'a|b url(x) @import', '<b>', 'run.json']);
      expect(href).to.equal('runs/a%7Cb%20url%28x%29%20%40import/%3Cb%3E/run.json');
      expect(isCampaignLink(href)).to.equal(true);
      // A segment hiding a separator is not a file's name: refused.
      expect(campaignHref(['runs', 'a/b'])).to.equal('runs/a%2Fb');
      expect(isCampaignLink('runs/a%2Fb')).to.equal(false);
    });

    it('refuses schemes, hosts, queries, empty, . and .. segments', () => {
      for (const bad of [
        'javascript:x',
        '//host/x',
        'runs/x?y',
        'runs//x',
        './x',
        'a/%2E%2E',
        '',
      ]) {
        expect(isCampaignLink(bad), bad).to.equal(false);
      }
    });
  });

  describe('checkMarkdown', () => {
    const good = '# T\n\n| a | b |\n| --- | --- |\n| 1 | x\\|y |\n';

    it('accepts tables whose rows are as wide as their header (escaped pipes are text)', () => {
      expect(() => checkMarkdown('r.md', good, ['# T'])).not.to.throw();
    });

    it('refuses a missing heading', () => {
      expect(() => checkMarkdown('r.md', good, ['## Comparisons'])).to.throw(/Comparisons/);
    });

    it('refuses a row wider than its header', () => {
      expect(() => checkMarkdown('r.md', `${good}| 1 | 2 | 3 |\n`, [])).to.throw(/line 6/);
    });

    it('refuses a table without its separator', () => {
      expect(() => checkMarkdown('r.md', '| a |\n| 1 |\n', [])).to.throw(/separator/);
    });

    it("skips fenced blocks: a quoted output's lines are neither tables nor headings", () => {
      const quoted = `${good}\n\`\`\`\`text\n\`\`\`\n| not | a | table |\n## Comparisons\n\`\`\`\`\n`;
      expect(() => checkMarkdown('r.md', quoted, ['# T'])).not.to.throw();
      expect(() => checkMarkdown('r.md', quoted, ['## Comparisons'])).to.throw(/Comparisons/);
      // After the fence closes, the page's own lines are checked again.
      expect(() => checkMarkdown('r.md', `${quoted}| 1 |\n`, [])).to.throw(/separator/);
    });
  });

  describe('comparisonPairs', () => {
    it('compares the baseline with every other condition', () => {
      expect(comparisonPairs(['a', 'base', 'c'], 'base')).to.deep.equal([
        ['base', 'a'],
        ['base', 'c'],
      ]);
    });

    it('falls back on the first two when the baseline is absent, and none with one', () => {
      expect(comparisonPairs(['a', 'b', 'c'], 'gone')).to.deep.equal([['a', 'b']]);
      expect(comparisonPairs(['a'], 'a')).to.deep.equal([]);
    });
  });

  describe('formatting', () => {
    it('shows a rate with its count and interval, or unavailable', () => {
      expect(formatRate({ rate: 0.8, successes: 8, n: 10, ci95: [0.4902, 0.9433] })).to.equal(
        '80.0% (8/10) [49.0%, 94.3%]',
      );
      expect(formatRate({ rate: null, successes: 0, n: 0, ci95: null })).to.equal('n/a (n 0)');
    });

    it('shows a number with its spread', () => {
      expect(formatNumber({ mean: 2.5, stddev: 1.2909, min: 1, max: 4, n: 4 })).to.equal(
        '2.5 ± 1.29 (1–4, n 4)',
      );
    });

    it('signs differences, in points for rates', () => {
      expect(formatDifference(0.125, 'rate')).to.equal('+12.5 pts');
      expect(formatDifference(-2, 'number')).to.equal('−2');
      expect(formatDifference(null, 'rate')).to.equal('n/a');
    });
  });
});
