import { expect } from 'chai';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { requireDocker, testDocker } from '../support/docker.js';
import {
  campaignContainers,
  campaignOf,
  cli,
  runRecords,
  seeded,
  waitFor,
} from '../support/faults.js';
import { makeToyWorkspace, type ToyWorkspace } from '../support/toy.js';

const client = testDocker();

/** The runs' disk quotas (mounted as root) still mounted under a campaign folder. */
async function mountsUnder(out: string): Promise<string[]> {
  return (await readFile('/proc/self/mountinfo', 'utf8'))
    .split('\n')
    .filter((l) => l.includes(`${out}/`));
}

/**
 * Signals at random moments of a real campaign (the compiled CLI, real
 * containers), over many trials with a fixed seed: whatever the moment, no
 * container is left, no cut run is written as finished, the exit is 130/143
 * within 5 s, and a signal however early is never ignored. Then SIGKILL,
 * which nothing in the process can handle: the reaper removes the containers
 * within seconds, with no resume.
 */
describe('faults: signals at random moments of a campaign', function () {
  this.timeout(300_000);
  let ws: ToyWorkspace;

  before(async () => {
    await requireDocker();
    ws = await makeToyWorkspace({
      scripts: {
        work: {
          turns: [
            {
              actions: [
                { sleep: 0.3 },
                { append: 'math.js', content: 'exports.multiply = (a, b) => a * b;\n' },
                { stop: 'conformant' },
              ],
            },
          ],
        },
      },
      set: {
        conditions: { a: {}, b: {} },
        // A check that passes whenever it is let finish: a failed check in a
        // run written as completed is a cut run written as finished.
        evals: [
          {
            id: 'work',
            prompt: 'p',
            runs: 2,
            checks: [{ name: 'tests', run: 'sleep 0.5; node test.js' }],
          },
        ],
      },
    });
  });
  after(() => ws?.cleanup());

  it('SIGINT/SIGTERM at random moments: exit 130/143 within 5 s, 0 containers left, no cut run written as finished', async () => {
    const TRIALS = 16;
    const rng = seeded(10);
    const outcomes: string[] = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      const out = path.join(ws.root, `signals-${trial}`);
      const signal = rng() < 0.5 ? 'SIGINT' : 'SIGTERM';
      // A quarter of the signals come very early (before or while handlers are set up).
      const delay = Math.round(rng() < 0.25 ? rng() * 300 : rng() * 9000);
      const child = cli(['run', ws.evalSetFile, '--out', out, '--jobs', '2', '--no-report']);
      await new Promise((r) => setTimeout(r, delay));
      const sentAt = Date.now();
      child.kill(signal);
      const r = await child;
      const took = Date.now() - sentAt;
      const where = `trial ${trial} (${signal} at ${delay} ms): exit ${r.exitCode ?? r.signal}\n${r.stderr}`;

      let outcome: string;
      if (r.exitCode === 0) outcome = 'finished before the signal';
      else {
        // Killed by the signal itself (before evalrig's handler) or exited by it: never ignored.
        const code = signal === 'SIGINT' ? 130 : 143;
        expect(r.exitCode === code || r.signal === signal, where).to.equal(true);
        expect(took, where).to.be.below(5_000);
        outcome = r.signal ? 'ended by the signal before evalrig handled it' : `exit ${code}`;
      }
      expect(await campaignContainers(client, out), where).to.equal(0);
      // No run's quota outlives the campaign: unmounted before a handled exit,
      // else by the reaper (a mount command under way can land after the first sweep).
      if (r.signal) await waitFor(async () => (await mountsUnder(out)).length === 0, 5_000, where);
      expect(await mountsUnder(out), where).to.deep.equal([]);
      for (const { record } of await runRecords(out)) {
        if (record.status !== 'completed') continue;
        expect(record.turns_completed, where).to.equal(record.turns_planned);
        expect(
          record.checks.every((c) => c.passed),
          `${where}\na cut run written as finished: ${JSON.stringify(record.checks)}`,
        ).to.equal(true);
      }
      const finished = (await runRecords(out)).length;
      outcomes.push(
        `${outcome} (${signal} at ${delay} ms: ${finished} runs recorded${(await campaignOf(out)) ? '' : ', no campaign yet'})`,
      );
    }
    const tally = new Map<string, number>();
    for (const o of outcomes) {
      const kind = o.replace(/ \(.*$/u, '');
      tally.set(kind, (tally.get(kind) ?? 0) + 1);
    }
    // The figures for the issue's closing note.
    process.stdout.write(
      `      ${TRIALS} trials: ${[...tally].map(([k, n]) => `${n} ${k}`).join(', ')}\n`,
    );
    if (process.env.EVALRIG_TRIALS_VERBOSE) process.stdout.write(`${outcomes.join('\n')}\n`);
  });

  it('SIGTERM while a check runs: exit 143, the run is not written as finished, no container left', async () => {
    const out = path.join(ws.root, 'during-checks');
    const slow = await makeToyWorkspace({
      scripts: { work: { turns: [{ actions: [{ stop: 'conformant' }] }] } },
      set: {
        evals: [
          {
            id: 'work',
            prompt: 'p',
            runs: 1,
            // The marker shows on the host through the bind mount: the check is running.
            checks: [{ name: 'tests', run: 'touch .checking && sleep 30 && node test.js' }],
          },
        ],
      },
    });
    try {
      const child = cli(['run', slow.evalSetFile, '--out', out, '--no-report']);
      const marker = async () =>
        (await readdir(path.join(out, 'work'), { recursive: true })).some((f) =>
          f.endsWith('.checking'),
        );
      await waitFor(
        async () => existsSync(path.join(out, 'work')) && (await marker()),
        120_000,
        'the check',
      );
      child.kill('SIGTERM');
      const r = await child;
      expect(r.exitCode, r.stderr).to.equal(143);
      expect(await runRecords(out)).to.deep.equal([]);
      expect(await campaignContainers(client, out)).to.equal(0);
    } finally {
      await slow.cleanup();
    }
  });

  it('SIGKILL, no resume: the reaper removes every container and the scratch folder within 5 s', async () => {
    // A scratch folder of an orchestrator that died with its reaper: swept by the next campaign.
    const dead = Number((await execa('sh', ['-c', 'echo $$'])).stdout.trim());
    const stale = path.join(tmpdir(), `evalrig-run-${dead}-stale`);
    await mkdir(path.join(stale, 'evalrig-diff-x'), { recursive: true });
    for (const [trial, whole] of [
      [0, false],
      [1, true],
    ] as const) {
      const out = path.join(ws.root, `sigkill-${trial}`);
      // `whole`: the orchestrator's whole process group is killed, as a terminal
      // or a CI runner does; the reaper runs in a session of its own and survives.
      const child = cli(
        ['run', ws.evalSetFile, '--out', out, '--jobs', '2'],
        {},
        { detached: whole },
      );
      await waitFor(
        async () => (await campaignContainers(client, out)) > 0,
        120_000,
        'a container',
      );
      if (whole) process.kill(-child.pid!, 'SIGKILL');
      else child.kill('SIGKILL');
      await child;
      const killedAt = Date.now();
      expect(existsSync(stale), "a dead orchestrator's scratch folder swept at start").to.equal(
        false,
      );
      await waitFor(
        async () => (await campaignContainers(client, out)) === 0,
        5_000,
        `trial ${trial}: no container left after SIGKILL`,
      );
      const containersGone = Date.now() - killedAt;
      // Its scratch folder (every temporary folder of a measurement cut mid-way) goes too.
      const mine = async () =>
        (await readdir(tmpdir())).filter((n) => n.startsWith(`evalrig-run-${child.pid}-`));
      await waitFor(async () => (await mine()).length === 0, 5_000, 'no scratch folder left');
      // Nor the runs' disk quotas (mounted as root).
      await waitFor(
        async () => (await mountsUnder(out)).length === 0,
        5_000,
        'no quota left mounted',
      );
      process.stdout.write(
        `      SIGKILL${whole ? ' of the process group' : ''}: 0 containers after ${containersGone} ms, no scratch folder after ${Date.now() - killedAt} ms\n`,
      );
    }
  });
});
