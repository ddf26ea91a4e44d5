import { expect } from 'chai';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import path from 'node:path';
import { compareRecords, GH_RECORDER_ENV, GH_REPORT_VERSION } from '../../../src/recorder/index.js';
import { RECORDER_ENV, REPORT_VERSION } from '../../../stand-in/gh/report/index.js';
import { TempRepo } from '../stand-in/gh/support.js';
import { tempRecorder } from './support.js';

describe('gh recorder: the host’s copy of the stand-in’s record', function () {
  let repo: TempRepo;
  let rec: Awaited<ReturnType<typeof tempRecorder>>;
  const env = (): Record<string, string> => ({ [GH_RECORDER_ENV]: rec.recorder.socketPath });
  const callsText = (): Promise<string> =>
    readFile(path.join(repo.recordDir, 'calls.jsonl'), 'utf8');

  beforeEach(async () => {
    repo = await TempRepo.create();
    await repo.branch('feature');
    rec = await tempRecorder();
  });
  afterEach(async () => {
    await rec.stop();
    await repo.remove();
  });

  it('speaks the stand-in’s protocol: the same variable and version on both sides', () => {
    expect([GH_RECORDER_ENV, GH_REPORT_VERSION]).to.deep.equal([RECORDER_ENV, REPORT_VERSION]);
  });

  it('receives each call as it happens, with the same content as calls.jsonl, and the state after it', async () => {
    await repo.gh(['pr', 'create', '-d', '-t', 'T', '-F', '-'], { input: 'plan', env: env() });
    // Each call is at the host before the stand-in exits.
    expect(rec.recorder.calls().map((c) => c.seq)).to.deep.equal([1]);
    expect(rec.recorder.state()).to.deep.equal(await repo.state());
    await repo.gh(['pr', 'list', '--json', 'number,isDraft'], { env: env() });
    await repo.gh(['pr', 'ready'], { env: env() });
    await repo.gh(['pr', 'merge', '1'], { env: env() });
    await repo.gh(['--version'], { env: env() });
    expect(rec.recorder.calls()).to.deep.equal(await repo.calls());
    expect(rec.recorder.state()).to.deep.equal(await repo.state());
    expect(rec.recorder.state()?.pull_requests[0]).to.include({ draft: false });
    expect(rec.recorder.problems()).to.deep.equal([]);
    expect(compareRecords(rec.recorder.calls(), await callsText())).to.deep.equal({
      same: true,
      reason: null,
      missing: 0,
      extra: 0,
      altered: 0,
    });
  });

  it('reports a prepared state completed as the stand-in reads it', async () => {
    await repo.prepare({ pull_requests: [{ number: 3, title: 'Plan', head: 'feature' }] });
    await repo.gh(['pr', 'list'], { env: env() });
    expect(rec.recorder.state()).to.deep.include({ version: 1, next_number: 4 });
    expect(rec.recorder.state()?.pull_requests[0]).to.include({ number: 3, body: '' });
  });

  it('a call refused for a damaged record is reported as recorded; the damaged line shows as extra', async () => {
    await repo.gh(['pr', 'list'], { env: env() });
    await writeFile(path.join(repo.recordDir, 'calls.jsonl'), '{"seq":2,"argv"', { flag: 'a' });
    const r = await repo.gh(['pr', 'create', '-t', 'T', '-b', 'B'], { env: env() });
    expect(r.exitCode).to.equal(1);
    const host = rec.recorder.calls();
    expect(host.map((c) => [c.seq, c.played])).to.deep.equal([
      [1, true],
      [3, false],
    ]);
    expect(host[1]?.stderr).to.equal(r.stderr);
    const cmp = compareRecords(host, await callsText());
    expect(cmp).to.deep.include({ same: false, extra: 1, missing: 0, altered: 0 });
    expect(cmp.reason).to.match(/^line 2 is not a call line/);
  });

  it('concurrent calls reach the host in seq order: none is refused', async function () {
    this.timeout(120_000);
    await Promise.all(
      Array.from({ length: 12 }, () => repo.gh(['pr', 'list', '--json', 'number'], { env: env() })),
    );
    expect(rec.recorder.problems()).to.deep.equal([]);
    expect(rec.recorder.calls().map((c) => c.seq)).to.deep.equal(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    expect(compareRecords(rec.recorder.calls(), await callsText()).same).to.equal(true);
  });

  it('a call still works when the socket is missing, and the host notices the report it lacks', async () => {
    await repo.gh(['pr', 'list'], { env: env() });
    const r = await repo.gh(['pr', 'list'], {
      env: { [GH_RECORDER_ENV]: path.join(rec.folder, 'nothing.sock') },
    });
    expect(r.exitCode, r.stderr).to.equal(0);
    expect(r.stderr).to.equal('');
    expect((await repo.calls()).map((c) => c.seq)).to.deep.equal([1, 2]);
    const cmp = compareRecords(rec.recorder.calls(), await callsText());
    expect(cmp).to.deep.include({ same: false, extra: 1, missing: 0, altered: 0 });
    expect(cmp.reason).to.match(/^line 2 \(seq 2\) was never reported to the host/);
  });

  it('a host that never acknowledges holds a call at most about 2 s', async () => {
    const silent = path.join(rec.folder, 'silent.sock');
    const held: Socket[] = [];
    const server = createServer((s) => held.push(s)); // reads nothing, answers nothing
    await new Promise<void>((resolve) => server.listen(silent, resolve));
    try {
      const started = Date.now();
      const r = await repo.gh(['pr', 'list'], { env: { [GH_RECORDER_ENV]: silent } });
      const took = Date.now() - started;
      expect(r.exitCode, r.stderr).to.equal(0);
      expect(took).to.be.within(1900, 6000);
      expect(held).to.have.length(1);
    } finally {
      for (const s of held) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  describe('compareRecords: calls.jsonl rewritten after the calls', function () {
    let original: string;
    let lines: string[];
    beforeEach(async () => {
      await repo.gh(['pr', 'create', '-d', '-t', 'T', '-b', 'plan'], { env: env() });
      await repo.gh(['pr', 'ready'], { env: env() });
      await repo.gh(['pr', 'merge', '1'], { env: env() });
      original = await callsText();
      lines = original.split('\n').slice(0, -1);
      expect(compareRecords(rec.recorder.calls(), original).same).to.equal(true);
    });
    const compare = async (text: string): Promise<ReturnType<typeof compareRecords>> => {
      await writeFile(path.join(repo.recordDir, 'calls.jsonl'), text);
      return compareRecords(rec.recorder.calls(), await callsText());
    };

    it('a line removed (the unplayed gh pr merge hidden)', async () => {
      const cmp = await compare(`${lines.slice(0, 2).join('\n')}\n`);
      expect(cmp).to.deep.include({ same: false, missing: 1, extra: 0, altered: 0 });
      expect(cmp.reason).to.equal(
        'seq 3 is missing from calls.jsonl (1 missing, 0 extra, 0 altered)',
      );
    });

    it('a line altered (pr ready turned into pr view), even with the same JSON meaning reformatted', async () => {
      const forged = (lines[1] ?? '').replace('"command":"pr ready"', '"command":"pr view"');
      const cmp = await compare(`${[lines[0], forged, lines[2]].join('\n')}\n`);
      expect(cmp).to.deep.include({ same: false, altered: 1 });
      expect(cmp.reason).to.match(/^line 2 \(seq 2\) differs from the call the host received/);
      const spaced = JSON.stringify(JSON.parse(lines[0] ?? ''), null, 1).replace(/\n/g, '');
      expect((await compare(`${[spaced, lines[1], lines[2]].join('\n')}\n`)).altered).to.equal(1);
    });

    it('a line added, a line repeated, and lines reordered', async () => {
      const added = JSON.stringify({ ...JSON.parse(lines[2] ?? ''), seq: 4 });
      expect(await compare(`${original}${added}\n`)).to.deep.include({ same: false, extra: 1 });
      expect(await compare(`${original}${lines[2]}\n`)).to.deep.include({ same: false, extra: 1 });
      const swapped = `${[lines[1], lines[0], lines[2]].join('\n')}\n`;
      expect(await compare(swapped)).to.deep.include({ same: false, altered: 1 });
    });

    it('emptied, or cut in the middle of a line', async () => {
      expect(await compare('')).to.deep.include({ same: false, missing: 3 });
      const cut = await compare(original.slice(0, original.length - 10));
      expect(cut).to.deep.include({ same: false, missing: 1, extra: 1 });
      expect(cut.reason).to.match(/^line 3 is not a call line/);
    });
  });
});
