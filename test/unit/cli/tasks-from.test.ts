import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { fromSetOf } from '../../../src/cli/commands/tasks-from.js';
import { git } from '../../../src/git/index.js';

describe('tasks from-history --from: an eval set gives codebase, environment, setup and agent', function () {
  this.timeout(20_000);
  let work: string;
  let from: string;
  const setDir = () => path.join(work, 'mined');
  before(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'evalrig-from-'));
    await git(['init', '-q', '-b', 'main', path.join(work, 'repo')], { cwd: work });
    await writeFile(path.join(work, 'repo', 'a.js'), 'a');
    await git(['add', '-A'], { cwd: path.join(work, 'repo') });
    await git(['commit', '-qm', 'a'], { cwd: path.join(work, 'repo') });
    const dir = path.join(work, 'theirs');
    await mkdir(path.join(dir, 'env'), { recursive: true });
    await writeFile(path.join(dir, 'env', 'Dockerfile'), 'FROM scratch\n');
    await writeFile(
      path.join(dir, 'model.json'),
      JSON.stringify({ responses: [{ content: [{ text: 'done' }] }] }),
    );
    from = path.join(dir, 'evals.json');
    await writeFile(
      from,
      JSON.stringify({
        name: 'theirs',
        agent: { type: 'claude-code', version: '2.1.332', model: { script: 'model.json' } },
        conditions: { plain: {}, scripted: { model_script: 'model.json' } },
        baseline_condition: 'plain',
        codebase: { path: '../repo' },
        environment: { dockerfile: 'env/Dockerfile', setup: ['npm ci'] },
        evals: [{ id: 'one', prompt: 'do it' }],
      }),
    );
  });
  after(() => rm(work, { recursive: true, force: true }));

  it("takes the first eval's codebase, environment and setup, and the set's agent and conditions", async () => {
    const got = await fromSetOf({ from }, setDir());
    expect(got.codebase).to.deep.equal({
      source: { path: '../repo' },
      baseDir: path.join(work, 'theirs'),
    });
    expect(got.environment).to.deep.equal({
      environmentDir: path.join(work, 'theirs', 'env'),
      dockerfile: 'Dockerfile',
      setup: ['npm ci'],
    });
    // Host paths are written from the mined set's folder, so the set it writes finds them.
    expect(got.agent).to.deep.equal({
      agent: { type: 'claude-code', version: '2.1.332', model: { script: '../theirs/model.json' } },
      conditions: { plain: {}, scripted: { model_script: '../theirs/model.json' } },
      baseline_condition: 'plain',
    });
  });

  it('lets the flags win: --environment and --setup over the set', async () => {
    const own = path.join(work, 'own-env');
    const got = await fromSetOf({ from, environment: own, setup: ['make'] }, setDir());
    expect(got.environment).to.deep.equal({ environmentDir: own, setup: ['make'] });
    const setupOnly = await fromSetOf({ from, setup: ['make'] }, setDir());
    expect(setupOnly.environment).to.deep.include({ dockerfile: 'Dockerfile', setup: ['make'] });
  });

  it('refuses a missing or invalid --from naming the file and the JSON pointer', async () => {
    const missing = path.join(work, 'nope.json');
    const e1 = await fromSetOf({ from: missing }, setDir()).catch((e: Error) => e);
    expect((e1 as Error).message).to.include(missing);
    const bad = path.join(work, 'theirs', 'bad.json');
    await writeFile(bad, JSON.stringify({ name: 'bad', evals: [{ id: 'x' }] }));
    const e2 = await fromSetOf({ from: bad }, setDir()).catch((e: Error) => e);
    expect((e2 as Error).message).to.match(
      /bad\.json#\/evals\/0: missing required field "prompt"/u,
    );
    const bare = path.join(work, 'theirs', 'bare.json');
    await writeFile(
      bare,
      JSON.stringify({
        name: 'b',
        agent: { command: ['true'] },
        evals: [{ id: 'x', prompt: 'p' }],
      }),
    );
    const e3 = await fromSetOf({ from: bare }, setDir()).catch((e: Error) => e);
    expect((e3 as Error).message).to.equal(
      `--from ${bare}: /evals/0/environment: its first eval names no environment to take (give --environment)`,
    );
  });
});
