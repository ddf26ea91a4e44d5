/**
 * The environment example: a real project with a dependency from a package
 * registry (examples/with-deps). Its environment image brings npm, its setup
 * (`npm ci`) runs once for every run of the commit, with the network, and
 * every run checks with the project's own `npm test` in a container with no
 * network, while an idle agent leaves an empty diff (node_modules is ignored).
 *
 * Needs the engine's default network to reach Debian's mirror and the npm
 * registry. Behind a proxy that re-signs TLS, the host's extra CA bundle
 * (NODE_EXTRA_CA_CERTS) is put in the example's ca/ folder, as a user would.
 */
import { expect } from 'chai';
import { execa } from 'execa';
import { copyFile, cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ConditionsFile, RunRecord, StopRecord } from '../../src/artifacts/index.js';
import { requireDocker } from '../support/docker.js';

const EXAMPLE = 'examples/with-deps';
const SETUP = ['npm ci --no-audit --no-fund'];

describe('e2e: an environment image and its setup (examples/with-deps)', function () {
  before(requireDocker);
  this.timeout(900_000);
  let scratch: string;
  let evalSet: string;
  let cache: string;

  before(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'evalrig-withdeps-'));
    const dir = path.join(scratch, 'with-deps');
    await cp(EXAMPLE, dir, { recursive: true });
    // CI's environment may not carry the variable: the host's own store then.
    const extraCa = [process.env.NODE_EXTRA_CA_CERTS, '/etc/ssl/certs/ca-certificates.crt'].find(
      (file) => file !== undefined && existsSync(file),
    );
    if (extraCa) {
      await copyFile(extraCa, path.join(dir, 'environment/ca/host-extra.crt'));
    }
    // A probe that shows the runs' network (only the loopback interface), and
    // a condition whose agent overwrites a dependency: its own runs break,
    // never the kept setup output the other runs start from.
    evalSet = path.join(dir, 'evals.json');
    const doc = JSON.parse(await readFile(evalSet, 'utf8')) as Record<string, unknown>;
    doc.probes = { interfaces: 'ls /sys/class/net | tr "\\n" " "' };
    doc.conditions = { default: {}, vandal: { env: { VANDAL: '1' } } };
    await writeFile(evalSet, JSON.stringify(doc, null, 2));
    const session = path.join(dir, 'scripts/session.json');
    const script = JSON.parse(await readFile(session, 'utf8')) as {
      turns: { actions: unknown[] }[];
    };
    script.turns[0]!.actions.unshift({
      run: 'if [ -n "$VANDAL" ]; then echo "module.exports = () => \'broken\';" > node_modules/ms/index.js; fi',
    });
    await writeFile(session, JSON.stringify(script, null, 2));
    cache = path.join(scratch, 'cache');
  });
  after(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  async function run(out: string, ...more: string[]) {
    const started = Date.now();
    const r = await execa(
      'node',
      ['--import', 'tsx', 'src/cli/main.ts', 'run', evalSet, '--out', out, '--jobs', '1', ...more],
      { reject: false, env: { EVALRIG_CACHE_DIR: cache } },
    );
    return { ...r, ms: Date.now() - started };
  }

  it('builds the environment, sets up once, and every run passes npm test offline with an empty diff', async () => {
    const out = path.join(scratch, 'out');
    const r = await run(out);
    expect(r.exitCode, `${r.stderr}\n${r.stdout}`).to.equal(0);
    const setups = r.stderr.match(/ran the setup of keep-tests-green on [0-9a-f]{12} in [\d.]+ s/g);
    expect(setups, r.stderr).to.have.length(1);
    const figures = r.stderr
      .split('\n')
      .filter((line) => /^evalrig: (built|ran the setup)/.test(line));
    console.log(`      ${figures.join('\n      ')}\n      campaign of 6 runs: ${r.ms} ms`);

    const conditions = JSON.parse(
      await readFile(path.join(out, 'conditions.json'), 'utf8'),
    ) as ConditionsFile;
    const [environment, ...others] = conditions.image.environments ?? [];
    expect(others).to.deep.equal([]);
    expect(environment!.evals).to.deep.equal(['keep-tests-green']);
    expect(environment!.environment).to.include({
      dockerfile: 'environment/Dockerfile',
      context: 'environment',
    });
    expect(environment!.environment.setup).to.deep.equal(SETUP);
    expect(environment!.environment.hash).to.match(/^[0-9a-f]{64}$/);
    expect(environment!.environment.tag).to.equal(
      `evalrig-env:${environment!.environment.hash.slice(0, 12)}`,
    );

    // The vandal's writes stayed in its runs: its checks fail, the kept output is whole.
    for (const name of ['run-01', 'run-02', 'run-03']) {
      const record = JSON.parse(
        await readFile(path.join(out, 'runs/keep-tests-green/vandal', name, 'run.json'), 'utf8'),
      ) as RunRecord;
      expect(record.checks[0]!.passed, `vandal ${name}`).to.equal(false);
      expect(record.diff.files_modified, 'node_modules is ignored').to.equal(0);
    }
    const [key, ...more] = await readdir(path.join(cache, 'setup'));
    expect(more).to.deep.equal([]);
    const kept = path.join(cache, 'setup', key!, 'files/node_modules/ms/index.js');
    expect(await readFile(kept, 'utf8')).to.not.include('broken');

    const runsDir = path.join(out, 'runs/keep-tests-green/default');
    const runs = (await readdir(runsDir)).sort();
    expect(runs).to.deep.equal(['run-01', 'run-02', 'run-03']);
    for (const name of runs) {
      const record = JSON.parse(
        await readFile(path.join(runsDir, name, 'run.json'), 'utf8'),
      ) as RunRecord;
      expect(record.status, name).to.equal('completed');
      expect(record.image).to.deep.equal({
        ...environment!.image,
        environment: environment!.environment,
      });
      expect(record.checks).to.have.length(1);
      expect(record.checks[0]!.passed, record.checks[0]!.output).to.equal(true);
      expect(record.checks[0]!.output).to.include('4 passed, 0 failed');
      expect(record.diff).to.deep.equal({
        files_added: 0,
        files_modified: 0,
        files_deleted: 0,
        lines_added: 0,
        lines_removed: 0,
        untracked: 0,
      });
      expect(await readFile(path.join(runsDir, name, 'diff.patch'), 'utf8')).to.equal('');
      const stop = JSON.parse(
        await readFile(path.join(runsDir, name, 'stops/stop-01.json'), 'utf8'),
      ) as StopRecord;
      expect(stop.probes.interfaces?.stdout, 'the run has no network').to.equal('lo ');
      // The agent ran the tests itself, offline, with the setup's node_modules.
      const agentOut = await readFile(path.join(runsDir, name, 'turns/turn-01.stderr.txt'), 'utf8');
      expect(agentOut).to.include('4 passed, 0 failed');
    }

    const baseline = await readFile(path.join(out, 'BASELINE.md'), 'utf8');
    expect(baseline).to.include(
      `| environment sha256 (keep-tests-green) | ${environment!.environment.hash} |`,
    );
    expect(baseline).to.include('| setup (keep-tests-green) | npm ci --no-audit --no-fund |');
  });

  it('reuses the image and the setup output in the next campaign: nothing built, nothing set up', async () => {
    const r = await run(path.join(scratch, 'out-again'), '--runs', '1', '--condition', 'default');
    expect(r.exitCode, r.stderr).to.equal(0);
    expect(r.stderr).to.not.match(/built environment image|built test image|ran the setup/);
  });
});
