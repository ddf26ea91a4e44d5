import { expect } from 'chai';
import { execa } from 'execa';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadEvalSet } from '../../../src/config/index.js';
import { minedSet, shellQuote, testRun, validationSet } from '../../../src/mine/eval-sets.js';
import type { Candidate } from '../../../src/mine/index.js';
import type { TaskFiles } from '../../../src/mine/task-files.js';

const c: Candidate = {
  commit: 'a'.repeat(40),
  parent: 'b'.repeat(40),
  subject: 'Fix the parser',
  body: 'Long options with a dash.',
  date: '2024-01-01T00:00:00Z',
  source: ['index.js'],
  tests: ['test/long.js'],
};
const t: TaskFiles = {
  id: 'c-aaaaaaaaaa',
  dir: 'tasks/c-aaaaaaaaaa',
  tests: 'tasks/c-aaaaaaaaaa/tests',
  patch: 'tasks/c-aaaaaaaaaa/reference.patch',
  failToPass: ['test/long.js'],
  passToPass: ["test/it's.js", 'test/a b.js'],
  patchBytes: 10,
};

describe('mine: the eval sets a mining writes', () => {
  it('quotes each test file for sh, so a name with a quote or a space stays one word', async () => {
    const run = testRun('printf "%s\\n" {tests}', t.passToPass);
    expect(run).to.equal(`printf "%s\\n" ${shellQuote("test/it's.js")} 'test/a b.js'`);
    const { stdout } = await execa('sh', ['-c', run]);
    expect(stdout.split('\n')).to.deep.equal(["test/it's.js", 'test/a b.js']);
    expect(testRun('tape {tests}', [])).to.equal('true');
  });

  it('writes sets the eval-set schema and checks accept, the tests as check files only', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'evalrig-mine-sets-'));
    try {
      await mkdir(path.join(dir, t.tests, 'test'), { recursive: true });
      await writeFile(path.join(dir, t.tests, 'test/long.js'), 'test');
      await writeFile(path.join(dir, t.patch), 'diff');
      const s = { url: 'https://example.org/a.git', testCommand: 'tape {tests}' };
      const validation = path.join(dir, 'validation.evals.json');
      await writeFile(validation, JSON.stringify(validationSet(s, [{ c, t }], 2)));
      const v = await loadEvalSet(validation, { env: {} });
      expect(v.evals[0]!.checks.map((x) => x.name)).to.deep.equal([
        'fail_to_pass_at_parent',
        'pass_to_pass_at_parent',
        'reference_applies',
        'fail_to_pass_at_commit',
        'pass_to_pass_at_commit',
      ]);
      expect(v.evals[0]!.check_files.map((f) => f.to)).to.deep.equal([
        'test',
        '.evalrig-reference.patch',
      ]);
      const mined = path.join(dir, 'evals.json');
      await writeFile(mined, JSON.stringify(minedSet(s, 'mined', [{ c, t }])));
      const m = await loadEvalSet(mined, { env: {} });
      const e = m.evals[0]!;
      expect(e.prompt).to.equal('Fix the parser\n\nLong options with a dash.');
      expect(e.codebase?.source).to.deep.equal({ url: s.url, ref: c.parent });
      // The reference diff is never a check file: only the tests come in after the turn.
      expect(e.check_files).to.deep.equal([{ from: path.join(dir, t.tests, 'test'), to: 'test' }]);
      expect(m.conditions.map((x) => x.name)).to.deep.equal(['unchanged', 'reference']);
      expect(e.reference).to.equal(path.join(dir, t.patch));
      // Mined --from a set: its agent and conditions replace the sanity pair, still valid.
      await writeFile(
        path.join(dir, 'model.json'),
        JSON.stringify({ responses: [{ content: [{ text: 'done' }] }] }),
      );
      const agent = {
        agent: { type: 'claude-code', version: '2.1.332', model: { script: 'model.json' } },
        conditions: { plain: {}, hinted: { agent_args: ['--hint'] } },
        baseline_condition: 'plain',
      };
      await writeFile(mined, JSON.stringify(minedSet({ ...s, agent }, 'mined', [{ c, t }])));
      const a = await loadEvalSet(mined, { env: {} });
      expect(a.conditions.map((x) => x.name)).to.deep.equal(['plain', 'hinted']);
      expect(a.baseline_condition).to.equal('plain');
      expect(a.agent).to.deep.include({ type: 'claude-code' });
      expect(a.agent.model).to.deep.equal({ script: path.join(dir, 'model.json') });
      expect(a.evals[0]!.checks.map((x) => x.name)).to.deep.equal(['fail_to_pass', 'pass_to_pass']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
