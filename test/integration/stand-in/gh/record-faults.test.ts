import { expect } from 'chai';
import { appendFile, mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { prUrl, recordValidators, TempRepo } from './support.js';

/**
 * The record under faults: a call's state change and its line are written together or not at
 * all, a damaged record is reported by one refused call, seq never repeats, and a broken lock
 * costs no wait.
 */
describe('gh stand-in: the record under faults', function () {
  let repo: TempRepo;
  const file = (name: string): string => path.join(repo.recordDir, name);
  const callsText = (): Promise<string> => readFile(file('calls.jsonl'), 'utf8');
  const create = (head: string): ReturnType<TempRepo['gh']> =>
    repo.gh(['pr', 'create', '-H', head, '-t', `T ${head}`, '-b', 'B']);

  beforeEach(async () => {
    repo = await TempRepo.create();
    await repo.branch('feature');
    await repo.branch('second');
  });
  afterEach(async () => {
    await repo.remove();
  });

  it('a torn last line: pr create is refused once, opens nothing, and is recorded; the next call works', async () => {
    await repo.gh(['pr', 'list']);
    await appendFile(file('calls.jsonl'), '{"seq":2,"time":"2026-11-29T19:00:00Z","argv":["pr"');
    const refused = await create('feature');
    expect(refused.exitCode).to.equal(1);
    expect(refused.stdout).to.equal('');
    expect(refused.stderr).to.match(
      /^gh stand-in: the record .*calls\.jsonl is damaged: its last line is cut short \(no newline at its end\); the line is kept as it is and this call was refused: nothing was done\n$/,
    );
    expect(await stat(file('state.json')).catch(() => undefined)).to.equal(undefined);
    const lines = (await callsText()).split('\n');
    expect(lines[1]).to.equal('{"seq":2,"time":"2026-11-29T19:00:00Z","argv":["pr"');
    const last = JSON.parse(lines[2] ?? '') as { seq: number; played: boolean; command: string };
    expect(last).to.include({ seq: 3, played: false, command: 'pr create', exit_code: 1 });

    const again = await create('feature');
    expect(again).to.deep.include({ exitCode: 0, stdout: `${prUrl(1)}\n` });
    const seqs = (await callsText()).split('\n').map((l) => /^\{"seq":(\d+)/.exec(l)?.[1]);
    expect(seqs).to.deep.equal(['1', '2', '3', '4', undefined]);
    expect((await repo.state()).pull_requests.map((p) => p.number)).to.deep.equal([1]);
  });

  it('a last line with a non-numeric seq: refused once, and numbering goes on after the highest seq', async () => {
    for (let i = 0; i < 3; i++) await repo.gh(['pr', 'list']);
    await appendFile(file('calls.jsonl'), '{"seq":"x"}\n');
    const refused = await repo.gh(['pr', 'list']);
    expect(refused.stderr).to.contain('its last line has no valid seq (a positive integer)');
    await repo.gh(['pr', 'list']);
    const seqs = (await callsText())
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => (JSON.parse(l) as { seq: unknown }).seq);
    expect(seqs).to.deep.equal([1, 2, 3, 'x', 4, 5]);
  });

  it('numbering never starts again when calls.jsonl is cut short or removed', async () => {
    for (let i = 0; i < 4; i++) await repo.gh(['pr', 'list']);
    const text = await callsText();
    await writeFile(file('calls.jsonl'), text.slice(0, text.indexOf('\n') + 1));
    await repo.gh(['pr', 'list']);
    expect((await repo.lastCall()).seq).to.equal(5);
    await rm(file('calls.jsonl'));
    await repo.gh(['pr', 'list']);
    expect((await repo.calls()).map((c) => c.seq)).to.deep.equal([6]);
  });

  it('an empty lock file is broken at once, not after 30 s', async () => {
    await mkdir(repo.recordDir, { recursive: true });
    await writeFile(file('lock'), '');
    const started = Date.now();
    const r = await repo.gh(['pr', 'list']);
    expect(r.exitCode, r.stderr).to.equal(0);
    expect(Date.now() - started).to.be.below(5000);
    expect(await stat(file('lock')).catch(() => undefined)).to.equal(undefined);
  });

  it('a lock whose pid now belongs to another process (pid reused) is broken at once', async () => {
    await mkdir(repo.recordDir, { recursive: true });
    // This test process is alive, but it did not start at clock tick 1.
    await writeFile(file('lock'), `${process.pid} 1\n`);
    const started = Date.now();
    const r = await repo.gh(['pr', 'list']);
    expect(r.exitCode, r.stderr).to.equal(0);
    expect(Date.now() - started).to.be.below(5000);
  });

  it('a record that cannot be written: the call is refused and the state is left as it was', async () => {
    expect((await create('feature')).exitCode).to.equal(0);
    const before = await readFile(file('state.json'), 'utf8');
    await rm(file('calls.jsonl'));
    await mkdir(file('calls.jsonl'));
    const r = await create('second');
    expect(r.exitCode).to.equal(1);
    expect(r.stdout).to.equal('');
    expect(r.stderr).to.match(
      /^gh stand-in: could not record the call: .*calls\.jsonl is not a regular file; nothing was done\n$/,
    );
    expect(await readFile(file('state.json'), 'utf8')).to.equal(before);
    expect((await readdir(repo.recordDir)).sort()).to.deep.equal([
      'calls.jsonl',
      'seq',
      'state.json',
    ]);
  });

  it('a call killed after its line and before its state: the next call finishes it', async () => {
    expect((await create('feature')).exitCode).to.equal(0);
    const state = await repo.state();
    const opened = {
      ...state,
      next_number: 3,
      pull_requests: [...state.pull_requests, { ...state.pull_requests[0], number: 2 }],
    };
    // The pending state of call 2, whose line was written: the next call renames it in place.
    await writeFile(file('state.json.seq-2.pending'), JSON.stringify(opened));
    const line = { ...(await repo.lastCall()), seq: 2 };
    await appendFile(file('calls.jsonl'), `${JSON.stringify(line)}\n`);
    // And a pending state of a call 9 that never wrote its line: removed.
    await writeFile(file('state.json.seq-9.pending'), '{}');
    const list = await repo.gh(['pr', 'list', '--json', 'number']);
    expect(list.stdout).to.equal('[{"number":2},{"number":1}]\n');
    expect((await readdir(repo.recordDir)).filter((n) => n.endsWith('.pending'))).to.deep.equal([]);
  });

  it('a malformed state refuses the call with one clear line, records it, and changes nothing', async () => {
    const v = await recordValidators();
    await repo.prepare({
      pull_requests: [
        { number: 1, title: 'a', head: 'feature' },
        { number: 1, title: 'b', head: 'second' },
      ],
    });
    const before = await readFile(file('state.json'), 'utf8');
    const r = await repo.gh(['pr', 'edit', '1', '-b', 'x']);
    expect(r.exitCode).to.equal(1);
    expect(r.stderr).to.match(
      /^gh stand-in: .*state\.json at \/pull_requests\/1\/number: 1 is also \/pull_requests\/0\/number\n$/,
    );
    expect(await readFile(file('state.json'), 'utf8')).to.equal(before);
    const call = await repo.lastCall();
    expect(v.call(call)).to.equal(undefined);
    expect(call).to.include({ seq: 1, played: false, exit_code: 1 });
  });

  it('a state that cannot be read names the file and the reason', async () => {
    await mkdir(file('state.json'), { recursive: true });
    const r = await repo.gh(['pr', 'list']);
    expect(r.exitCode).to.equal(1);
    expect(r.stderr).to.match(/^gh stand-in: cannot read .*state\.json: EISDIR/);
    expect(await repo.lastCall()).to.include({ played: false });
  });
});
