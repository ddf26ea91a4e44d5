/**
 * The services example (examples/services-postgres): a Python project whose
 * tests need PostgreSQL. Each run gets its own database on a private network
 * of its own, ready before its first turn; the scripted agent fixes the code,
 * runs the tests against it and leaves one row there. With --jobs 2 the runs
 * play at once, and each sees only its own row. A run whose database is killed
 * mid-turn fails in phase service (its exit code and last lines recorded): the
 * agent had control then, so the failure is the agent's, counted against its
 * condition. The agent's role is an ordinary one: its COPY ... TO PROGRAM (the
 * way to kill the database from inside) is refused, and the superuser is
 * refused from the network. SIGKILL and SIGINT of evalrig leave no service
 * container and no network.
 *
 * Needs the engine's default network to reach Debian's mirror once (the
 * images are then found by their content).
 */
import { expect } from 'chai';
import { execa, type ResultPromise } from 'execa';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ConditionsFile, RunRecord } from '../../src/artifacts/index.js';
import { LABELS } from '../../src/runtime/index.js';
import { SERVICE_LABEL } from '../../src/sandbox/index.js';
import { requireDocker, testDocker } from '../support/docker.js';

const EXAMPLE = 'examples/services-postgres';

async function waitFor(what: string, ms: number, test: () => Promise<boolean>): Promise<number> {
  const started = Date.now();
  while (!(await test())) {
    if (Date.now() - started > ms) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Date.now() - started;
}

describe('e2e: services beside the agent (examples/services-postgres)', function () {
  before(requireDocker);
  this.timeout(900_000);
  const client = testDocker();
  let scratch: string;
  let evalSet: string;

  before(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'evalrig-services-'));
    const dir = path.join(scratch, 'services-postgres');
    await cp(EXAMPLE, dir, { recursive: true });
    // A second condition whose runs wait, mid-turn, for their database to go away.
    evalSet = path.join(dir, 'evals.json');
    const doc = JSON.parse(await readFile(evalSet, 'utf8')) as Record<string, unknown>;
    doc.conditions = {
      default: {},
      crash: { env: { CRASH: '1' } },
      attack: { env: { ATTACK: '1' } },
    };
    await writeFile(evalSet, JSON.stringify(doc, null, 2));
    const session = path.join(dir, 'scripts/session.json');
    const script = JSON.parse(await readFile(session, 'utf8')) as {
      turns: { actions: unknown[] }[];
    };
    script.turns[0]!.actions.splice(
      4,
      0,
      {
        run: 'if [ -n "$CRASH" ]; then i=0; while pg_isready -q && [ $i -lt 600 ]; do sleep 0.1; i=$((i+1)); done; fi',
      },
      // What an agent would do to make its failing run vanish: kill the database from inside.
      {
        run: `if [ -n "$ATTACK" ]; then for u in app postgres; do psql -U $u -c "COPY (SELECT 1) TO PROGRAM 'kill 1'" >> attack.txt 2>&1; done; fi; true`,
      },
    );
    await writeFile(session, JSON.stringify(script, null, 2));
  });
  after(() => rm(scratch, { recursive: true, force: true }));

  function evalrig(out: string, ...more: string[]): ResultPromise {
    return execa(
      'node',
      ['--import', 'tsx', 'src/cli/main.ts', 'run', evalSet, '--out', out, ...more],
      { reject: false },
    );
  }

  async function campaignOf(out: string): Promise<string | undefined> {
    try {
      const c = JSON.parse(await readFile(path.join(out, 'conditions.json'), 'utf8'));
      return (c as ConditionsFile).campaign;
    } catch {
      return undefined;
    }
  }

  /** Containers and networks carrying the campaign's label. */
  async function left(campaign: string): Promise<number> {
    const filters = { label: [`${LABELS.campaign}=${campaign}`] };
    const containers = await client.docker.listContainers({ all: true, filters });
    const networks = await client.docker.listNetworks({ filters });
    return containers.length + networks.length;
  }

  /** Kills the crash runs' databases as they appear (a crash the agent did not cause). */
  function killCrashDatabases(until: () => boolean): Promise<void> {
    const killed = new Set<string>();
    return (async () => {
      while (!until()) {
        const found = await client.docker.listContainers({
          filters: { label: [`${SERVICE_LABEL}=db`] },
        });
        for (const c of found) {
          if (!c.Labels[LABELS.run]?.includes('/crash/') || killed.has(c.Id)) continue;
          // Only once the run's turn has left its row there: a crash mid-turn.
          const rows = await execa(
            'docker',
            [
              'exec',
              c.Id,
              'psql',
              '-h',
              '127.0.0.1',
              '-U',
              'app',
              '-d',
              'app',
              '-tAc',
              'SELECT count(*) FROM visits',
            ],
            { reject: false },
          );
          if (String(rows.stdout).trim() !== '1') continue;
          killed.add(c.Id);
          await client.docker
            .getContainer(c.Id)
            .kill({ signal: 'SIGKILL' })
            .catch(() => undefined);
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    })();
  }

  it('--jobs 2: each run its own database, ready before the first turn; a killed one fails its run in phase service', async () => {
    const out = path.join(scratch, 'out');
    let done = false;
    const killer = killCrashDatabases(() => done);
    const started = Date.now();
    const r = await evalrig(out, '--jobs', '2');
    done = true;
    await killer;
    const ms = Date.now() - started;
    expect(r.exitCode, `${String(r.stderr)}`).to.equal(1); // the crash runs failed
    const records = await Promise.all(
      ['default', 'crash', 'attack'].flatMap((c) =>
        ['run-01', 'run-02'].map(async (run) => {
          const file = path.join(out, 'runs/low-stock', c, run, 'run.json');
          return JSON.parse(await readFile(file, 'utf8')) as RunRecord;
        }),
      ),
    );
    const [a, b, crashA, crashB, attackA, attackB] = records as RunRecord[] as [
      RunRecord,
      RunRecord,
      RunRecord,
      RunRecord,
      RunRecord,
      RunRecord,
    ];
    for (const x of [a, b]) {
      expect(x.status, x.error).to.equal('completed');
      expect(x.checks.map((c) => [c.name, c.passed])).to.deep.equal([
        ['tests', true],
        ['own-database', true],
      ]);
      expect(x.checks[1]!.output).to.equal('visits: 1\n');
      expect(x.diff.files_modified).to.equal(1);
      const [db, ...more] = x.services ?? [];
      expect(more).to.deep.equal([]);
      expect(db!.name).to.equal('db');
      expect(db!.image.id).to.match(/^sha256:[0-9a-f]{64}$/u);
      expect(db!.ready_ms).to.be.a('number');
    }
    expect(a.services![0]!.image).to.deep.equal(b.services![0]!.image);
    // At once: each one's row was in before either counted (the agent waits 2 s after its write).
    const overlap =
      Math.min(Date.parse(a.finished_at), Date.parse(b.finished_at)) -
      Math.max(Date.parse(a.started_at), Date.parse(b.started_at));
    expect(overlap, 'the two runs played at the same time').to.be.greaterThan(2000);
    for (const x of [crashA, crashB]) {
      expect(x.status).to.equal('failed');
      expect(x.phase).to.equal('service');
      expect(x.error).to.match(/^service: service db died during turn 1 \(exit 137/u);
      // The agent had control: its failure, counted against its condition (checks not passed).
      expect(x.failure?.class).to.equal('agent');
      expect(x.measures.checks_passed).to.equal(false);
      const failure = x.services![0]!.failure!;
      expect(failure.exit_code).to.equal(137);
      expect(Date.parse(failure.at)).to.be.within(
        Date.parse(x.started_at),
        Date.parse(x.finished_at),
      );
      expect(failure.log_tail.join('\n')).to.include('database system is ready');
    }
    // The ordinary role's attack is refused, and the database lives on: the run completes.
    for (const x of [attackA, attackB]) {
      expect(x.status, x.error).to.equal('completed');
      expect(x.checks.map((c) => c.passed)).to.deep.equal([true, true]);
      const patch = await readFile(
        path.join(out, 'runs/low-stock/attack', `run-0${x.run}`, 'diff.patch'),
        'utf8',
      );
      expect(patch).to.match(
        /must be superuser or have privileges of the pg_execute_server_program role/u,
      );
      expect(patch).to.match(/pg_hba\.conf rejects connection for host "[^"]+", user "postgres"/u);
    }
    const baseline = await readFile(path.join(out, 'BASELINE.md'), 'utf8');
    expect(baseline).to.match(
      /\| service db \(low-stock\) \| evalrig-service:setup-[0-9a-f]{12} sha256:[0-9a-f]{64}; ready in [\d.]+ s median, [\d.]+ s slowest \(n 6\); died in 2 run\(s\) \|/u,
    );
    expect(baseline).to.include(
      '| failures (crash) | 2 counted against the condition (model API 0, agent 2, time-out 0); 0 by the harness, left out of the measures |',
    );
    expect(await left((await campaignOf(out))!)).to.equal(0);
    const figures = a.services!.concat(b.services!).map((s) => s.ready_ms);
    process.stdout.write(
      `      campaign of 6 runs with --jobs 2: ${ms} ms; database ready in ${figures.join(', ')} ms\n`,
    );
  });

  for (const signal of ['SIGKILL', 'SIGINT'] as const) {
    it(`${signal} of evalrig mid-run: no service container and no network left within 10 s`, async () => {
      const out = path.join(scratch, `out-${signal}`);
      const child = evalrig(out, '--jobs', '1', '--condition', 'default', '--runs', '1');
      let campaign: string | undefined;
      await waitFor('a database started', 120_000, async () => {
        campaign ??= await campaignOf(out);
        if (!campaign) return false;
        const filters = { label: [`${LABELS.campaign}=${campaign}`, `${SERVICE_LABEL}=db`] };
        return (await client.docker.listContainers({ all: true, filters })).length > 0;
      });
      child.kill(signal);
      const r = await child;
      if (signal === 'SIGINT') expect(r.exitCode).to.equal(130);
      const gone = await waitFor(
        `${signal}: nothing left`,
        10_000,
        async () => (await left(campaign!)) === 0,
      );
      process.stdout.write(`      ${signal}: no service container nor network after ${gone} ms\n`);
    });
  }
});
