/**
 * Tasks mined from the real histories of minimist (Node, tape) and cachetools (Python,
 * pytest): each candidate validated in containers, at least five kept from each, and a
 * campaign over them whose two conditions differ by construction (the reference applied:
 * resolved 100%; nothing done: 0%). A mined task's future is looked for from inside a run
 * and is not there. Needs ../shared/repos (or EVALRIG_SHARED_REPOS) and Debian's mirror for
 * the environments' test runners; skipped without the repositories.
 */
import { expect } from 'chai';
import { execa } from 'execa';
import { mkdtemp, readFile, readdir, rm, writeFile, copyFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RunRecord } from '../../src/artifacts/index.js';
import type { BenchmarkFile } from '../../src/report/index.js';
import { requireDocker } from '../support/docker.js';
import { cloneShared, sharedRepo } from '../support/shared-repos.js';

const CLI = ['--import', 'tsx', 'src/cli/main.ts'];
const readJson = async <T>(file: string) => JSON.parse(await readFile(file, 'utf8')) as T;

interface Mined {
  kept: number;
  candidates: number;
  tasks: { id: string; commit: string; parent: string; kept: boolean; fail_to_pass: string[] }[];
  timings: { validate_ms: number; tests_ms: number; validation_runs: number };
}

const REPOS = [
  {
    name: 'minimist',
    max: '8',
    command: 'tape {tests}',
    environment: 'examples/from-history/node-tape',
  },
  {
    name: 'cachetools',
    max: '20',
    command: 'PYTHONPATH=src:. python3 -m pytest -q -p no:cacheprovider {tests}',
    environment: 'examples/from-history/python-pytest',
  },
] as const;

describe('e2e: tasks mined from real histories, validated in containers', function () {
  before(requireDocker);
  this.timeout(1_500_000);
  let scratch: string;
  const env = () => ({ EVALRIG_CACHE_DIR: path.join(scratch, 'cache') });
  const cli = (...args: string[]) =>
    execa('node', [...CLI, ...args], { reject: false, env: env() });

  before(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'evalrig-mined-'));
  });
  after(() => rm(scratch, { recursive: true, force: true }));

  for (const repo of REPOS) {
    describe(repo.name, () => {
      let clone: string;
      let set: string;
      let report: Mined;

      before(async function () {
        const bare = sharedRepo(repo.name);
        if (!bare) this.skip();
        clone = await cloneShared(bare, path.join(scratch, repo.name));
        set = path.join(scratch, `mined-${repo.name}`, 'evals.json');
        // minimist's tasks are rewritten by a scripted model; cachetools' keep their messages.
        const rewrite =
          repo.name === 'minimist' ? ['--rewrite', 'test/fixtures/mining/rewrite.json'] : [];
        const mined = await cli(
          ...['tasks', 'from-history', clone, '--max', repo.max, '--jobs', '2'],
          ...['--test-command', repo.command, '--environment', repo.environment, '--out', set],
          ...rewrite,
        );
        expect(mined.exitCode, mined.stderr).to.equal(0);
        report = await readJson<Mined>(path.join(path.dirname(set), 'tasks-report.json'));
      });

      it('keeps at least five candidates, each failing at its parent and passing with its commit, in both runs', async () => {
        expect(report.kept, JSON.stringify(report.tasks, null, 2)).to.be.at.least(5);
        const validation = `${path.dirname(set)}-validation`;
        for (const t of report.tasks.filter((x) => x.kept)) {
          const dir = path.join(validation, 'runs', t.id, 'validate');
          const runs = await readdir(dir);
          expect(runs).to.have.length(2);
          for (const run of runs) {
            const r = await readJson<RunRecord>(path.join(dir, run, 'run.json'));
            const passed = Object.fromEntries(r.checks.map((c) => [c.name, c.passed]));
            expect(passed, `${t.id} ${run}`).to.deep.equal({
              fail_to_pass_at_parent: false,
              pass_to_pass_at_parent: true,
              reference_applies: true,
              fail_to_pass_at_commit: true,
              pass_to_pass_at_commit: true,
            });
          }
          // Independently of the miner: git says the task's codebase is the commit's parent.
          const { stdout } = await execa('git', ['-C', clone, 'rev-parse', `${t.commit}^`]);
          expect(stdout).to.equal(t.parent);
        }
        const doc = await readJson<{ evals: { id: string; codebase: { ref: string } }[] }>(set);
        expect(doc.evals.map((e) => e.id)).to.deep.equal(
          report.tasks.filter((t) => t.kept).map((t) => t.id),
        );
        const v = await cli('validate', set);
        expect(v.exitCode, v.stderr).to.equal(0);
      });

      it('a campaign over them: the reference resolves 100%, nothing done 0%', async () => {
        const out = path.join(scratch, `campaign-${repo.name}`);
        const r = await cli('run', set, '--out', out, '--jobs', '2');
        expect(r.exitCode, r.stderr).to.equal(0);
        const b = await readJson<BenchmarkFile>(path.join(out, 'benchmark.json'));
        const rate = (c: string) =>
          b.conditions.find((x) => x.condition === c)!.measures.checks_passed;
        expect(rate('reference')).to.deep.include({ rate: 1, successes: report.kept });
        expect(rate('unchanged')).to.deep.include({ rate: 0, n: report.kept });
        // The reference applied is the reference's size exactly; nothing done is none of it.
        const size = (c: string) =>
          b.conditions.find((x) => x.condition === c)!.measures.diff_vs_reference;
        expect(size('reference')).to.deep.include({ mean: 1, n: report.kept });
        expect(size('unchanged')).to.deep.include({ mean: 0, n: report.kept });
      });

      if (repo.name === 'minimist')
        it("rewrites each task's message by the model, keeping the commit's where the answer names a file of the solution", async () => {
          const doc = await readJson<{ evals: { id: string; prompt: string }[] }>(set);
          const tasks = report.tasks as unknown as {
            id: string;
            subject: string;
            kept: boolean;
            prompt?: string;
            rewrite_refused?: string;
          }[];
          // The script names a file of the solution for these commits (the history has two).
          const named = (t: { subject: string }) =>
            t.subject.includes('opt.string works with multiple aliases');
          for (const e of doc.evals) {
            const t = tasks.find((x) => x.id === e.id)!;
            if (named(t)) {
              expect(e.prompt.startsWith(t.subject)).to.equal(true);
              expect(t).to.deep.include({
                prompt: 'commit',
                rewrite_refused: 'it names index.js, of the solution',
              });
            } else {
              expect(e.prompt).to.match(/^Options are parsed wrongly in some cases/u);
              expect(t.prompt).to.equal('rewrite');
            }
          }
          expect(tasks.filter((t) => t.kept && named(t)).length).to.be.at.least(1);
          // Asked through a gateway on the host: its flight record beside the validation.
          const first = doc.evals[0]!.id;
          const calls = await readFile(
            path.join(`${path.dirname(set)}-validation`, 'rewrites', first, 'judge-calls.jsonl'),
            'utf8',
          );
          expect(calls.trim().split('\n')).to.have.length(1);
        });

      if (repo.name === 'minimist')
        it("hides a mined task's future from inside its run: the commit, its blobs, its tests' content, the check files", async () => {
          const t = report.tasks.find((x) => x.kept)!;
          const file = t.fail_to_pass[0]!;
          const git = async (...args: string[]) =>
            (await execa('git', ['-C', clone, ...args])).stdout;
          const blobs = [await git('rev-parse', `${t.commit}:${file}`)];
          const added = (await git('diff', t.parent, t.commit, '--', file))
            .split('\n')
            .filter((l) => l.startsWith('+') && !l.startsWith('+++'))
            .map((l) => l.slice(1).trim());
          // A line of the new tests the parent has nowhere: found only if the future leaked.
          const parentText = await git('grep', '-h', '-F', '-e', '', t.parent, '--', '.');
          const marker = added
            .filter((l) => l.length > 12 && !parentText.includes(l))
            .sort((a, b) => b.length - a.length)[0]!;
          expect(marker, 'a marker line').to.be.a('string');
          const dir = path.dirname(set);
          await copyFile('test/fixtures/mining/probe.sh', path.join(dir, 'probe.sh'));
          const doc = await readJson<{ evals: { id: string }[] } & Record<string, unknown>>(set);
          const leak = path.join(dir, 'leak.evals.json');
          await writeFile(
            leak,
            JSON.stringify({
              ...doc,
              agent: {
                command: [
                  'sh',
                  '{eval_set_dir}/probe.sh',
                  t.commit,
                  Buffer.from(marker).toString('base64'),
                  file,
                  ...blobs,
                ],
              },
              conditions: { probe: {} },
              baseline_condition: 'probe',
            }),
          );
          // Every eval of the set (so each one's check files are its), one played.
          const out = path.join(scratch, 'leak');
          const r = await cli('run', leak, '--out', out, '--only', t.id);
          expect(r.exitCode, r.stderr).to.equal(0);
          const stdout = await readFile(
            path.join(out, 'runs', t.id, 'probe', 'run-01', 'turns', 'turn-01.stdout.txt'),
            'utf8',
          );
          const lines = stdout.trim().split('\n');
          expect(
            lines.filter((l) => / present in /u.test(l)),
            stdout,
          ).to.deep.equal([]);
          expect(lines.filter((l) => l.startsWith('commit absent from'))).to.have.length(2);
          expect(lines).to.include.members([
            'log lacks the commit',
            'marker nowhere',
            'check files hidden',
          ]);
          // The checks saw the host's tests, not the one it planted (which passes): they fail
          // at the parent, and the record names the file the agent had changed.
          const rec = await readJson<RunRecord>(
            path.join(out, 'runs', t.id, 'probe', 'run-01', 'run.json'),
          );
          expect(rec.check_files).to.deep.include({ replaced: [file] });
          expect(rec.check_files?.placed).to.include(file);
          expect(rec.checks.find((c) => c.name === 'fail_to_pass')).to.include({ passed: false });
        });
    });
  }
});
