import { expect } from 'chai';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { runCampaign } from '../../src/campaign/index.js';
import { writeReport } from '../../src/report/index.js';
import { requireDocker } from '../support/docker.js';
import { cli, runRecords } from '../support/faults.js';
import { makeToyWorkspace, type ToyWorkspace } from '../support/toy.js';

const quiet = { write: () => true } as unknown as NodeJS.WriteStream;
const LOCK_MODULE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../src/campaign/lock.ts',
);

/** A folder problem: exit 1 or 2, the folder named with what to do, no stack, never "internal error". */
function expectFolderError(
  r: { exitCode?: number; stderr: string },
  code: number,
  ...parts: string[]
): void {
  expect(r.exitCode, r.stderr).to.equal(code);
  for (const p of parts) expect(r.stderr).to.contain(p);
  expect(r.stderr).to.contain('choose another --out');
  expect(r.stderr).to.not.match(/internal error|\n\s+at /u);
}

describe('faults: the output folder', function () {
  this.timeout(300_000);
  let ws: ToyWorkspace;
  before(async () => {
    await requireDocker();
    ws = await makeToyWorkspace({
      scripts: { one: { turns: [{ actions: [{ stop: 'conformant' }] }] } },
      set: { evals: [{ id: 'one', prompt: 'p', runs: 2 }] },
    });
  });
  after(() => ws?.cleanup());

  const run = (out: string) => cli(['run', ws.evalSetFile, '--out', out, '--no-report']);

  it('a regular file in its place: exit 2, named, left as it was', async () => {
    const out = path.join(ws.root, 'a-file');
    await writeFile(out, 'mine\n');
    expectFolderError(await run(out), 2, `--out ${out} is a file`);
    expect(await readFile(out, 'utf8')).to.equal('mine\n');
  });

  it('a garbled conditions.json: exit 2, the file named, nothing written', async () => {
    const out = path.join(ws.root, 'garbled');
    await mkdir(out);
    await writeFile(path.join(out, 'conditions.json'), '{"schema": "evalrig/cond');
    expectFolderError(await run(out), 2, path.join(out, 'conditions.json'), 'move');
    expect(await readdir(out)).to.deep.equal(['conditions.json']);
  });

  it('an immutable folder: exit 1, the folder named, nothing written', async function () {
    const out = path.join(ws.root, 'immutable');
    await mkdir(out);
    if ((await execa('chattr', ['+i', out], { reject: false })).exitCode !== 0) this.skip();
    try {
      expectFolderError(await run(out), 1, `cannot write the campaign folder ${out}`);
      expect(await readdir(out)).to.deep.equal([]);
    } finally {
      await execa('chattr', ['-i', out]);
    }
  });

  it('a read-only folder (a read-only mount): exit 1, the folder named, nothing written', async function () {
    const out = path.join(ws.root, 'read-only');
    await mkdir(out);
    const mounted = await execa('mount', ['-t', 'tmpfs', '-o', 'ro,size=1m', 'tmpfs', out], {
      reject: false,
    });
    if (mounted.exitCode !== 0) this.skip();
    try {
      expectFolderError(await run(out), 1, `cannot write the campaign folder ${out}`, 'read-only');
      expect(await readdir(out)).to.deep.equal([]);
    } finally {
      await execa('umount', [out]);
    }
  });

  it('the lock: two orchestrators started at the same moment never both hold it (30 rounds, a stale lock present)', async () => {
    const ROUNDS = 30;
    // A pid that is surely gone: a process that ran and ended.
    const dead = (await execa('sh', ['-c', 'echo $$'])).stdout.trim();
    const folders: string[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const out = path.join(ws.root, `lock-${round}`);
      await mkdir(out);
      await writeFile(path.join(out, '.evalrig.lock'), `${dead}\n`);
      folders.push(out);
    }
    // Two processes take each folder's lock at the same instant (round i at
    // start + 50 ms * i) and hold every lock they got until the end.
    const at = Date.now() + 2000;
    const script = `const { lockCampaignFolder } = await import(${JSON.stringify(LOCK_MODULE)});
const folders = ${JSON.stringify(folders)};
for (const [i, out] of folders.entries()) {
  while (Date.now() < ${at} + 50 * i);
  try { await lockCampaignFolder(out); console.log('held'); }
  catch (e) { console.log(/another evalrig/.test(e.message) ? 'refused' : 'error: ' + e.message); }
}
// Hold every lock until the other process is done too: a process that ended
// would free its locks, and a late one could then take them in turn.
const fs = await import('node:fs');
fs.writeFileSync(${JSON.stringify(path.join(ws.root, 'lock-done-'))} + process.pid, '');
const until = Date.now() + 120000;
while (fs.readdirSync(${JSON.stringify(ws.root)}).filter((n) => n.startsWith('lock-done-')).length < 2 && Date.now() < until) {
  await new Promise((r) => setTimeout(r, 50));
}`;
    const take = () =>
      execa('node', ['--import', 'tsx', '--input-type=module', '-e', script], { reject: false });
    const [a, b] = await Promise.all([take(), take()]);
    const linesA = a.stdout.split('\n');
    const linesB = b.stdout.split('\n');
    let bothHeld = 0;
    let oneHeld = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const pair = [linesA[round], linesB[round]];
      expect(
        pair.every((l) => l === 'held' || l === 'refused'),
        `${a.all}${a.stderr}${b.stderr}`,
      ).to.equal(true);
      const held = pair.filter((l) => l === 'held').length;
      if (held === 2) bothHeld++;
      if (held === 1) oneHeld++;
    }
    process.stdout.write(`      ${ROUNDS} rounds: ${oneHeld} one holder, ${bothHeld} both held\n`);
    expect(bothHeld).to.equal(0);
    expect(oneHeld).to.equal(ROUNDS);
  });

  it('a finished run whose stop file was truncated: resume replays it, report names it and reports the rest', async () => {
    const out = path.join(ws.root, 'truncated');
    await runCampaign({ evalSetFile: ws.evalSetFile, outDir: out, log: quiet });
    const [first] = (await runRecords(out)).sort((a, b) => a.dir.localeCompare(b.dir));
    const stop = path.join(first!.dir, first!.record.stops[0]!);
    const text = await readFile(stop, 'utf8');
    await writeFile(stop, text.slice(0, text.length / 2));

    const lines: string[] = [];
    const log = { write: (s: string) => lines.push(s) > 0 } as unknown as NodeJS.WriteStream;
    const again = await runCampaign({ evalSetFile: ws.evalSetFile, outDir: out, log });
    expect(again).to.include({ played: 1, skipped: 1 });
    expect(lines.join('')).to.contain('its files are broken').and.to.contain('replaying it');
    expect(JSON.parse(await readFile(stop, 'utf8'))).to.have.property('turn', 1);

    // Damaged again after the fact: the report names the run and reports the rest.
    await writeFile(stop, '{"turn": 1');
    const summary = await writeReport(out);
    expect(summary.runs.total).to.equal(1);
    expect(summary.broken.map((b) => b.run)).to.deep.equal([path.relative(out, first!.dir)]);
    const r = await cli(['report', out]);
    expect(r.exitCode, r.stderr).to.equal(0);
    expect(r.stderr).to.contain(`${path.relative(out, first!.dir)} left out, its files are broken`);

    // A campaign folder that cannot take the report: one clear error, exit 1.
    if ((await execa('chattr', ['+i', out], { reject: false })).exitCode !== 0) return;
    try {
      const ro = await cli(['report', out]);
      expect(ro.exitCode, ro.stderr).to.equal(1);
      expect(ro.stderr).to.contain(`cannot write the report in ${out}`);
      expect(ro.stderr).to.not.match(/internal error|\n\s+at /u);
    } finally {
      await execa('chattr', ['-i', out]);
    }
  });
});
