import { expect } from 'chai';
import { createConnection, type Socket } from 'node:net';
import { GH_RECORDER_ENV } from '../../../src/recorder/index.js';
import { TempRepo } from '../stand-in/gh/support.js';
import { exchange, message, tempRecorder, validCall } from './support.js';

const closed = (s: Socket): Promise<number> =>
  new Promise((resolve) => s.on('close', () => resolve(Date.now())));

/**
 * Whatever reaches the socket comes from the container, where the agent can run anything:
 * each forged or broken message is refused and counted, and the host stays responsive.
 */
describe('gh recorder: every byte from the container is untrusted', function () {
  let rec: Awaited<ReturnType<typeof tempRecorder>>;
  const sock = (): string => rec.recorder.socketPath;
  const kinds = (): string[] => rec.recorder.problems().map((p) => p.kind);

  beforeEach(async () => {
    rec = await tempRecorder({ maxMessageBytes: 4096, maxCalls: 3, connectionTimeoutMs: 500 });
  });
  afterEach(async () => {
    await rec.stop();
  });

  it('accepts a valid message and acknowledges it with its seq', async () => {
    expect(await exchange(sock(), message(validCall(1)))).to.deep.equal({
      ack: { ok: true, seq: 1 },
      closedByHost: true,
    });
    expect(rec.recorder.calls()).to.deep.equal([validCall(1)]);
    // A caller cannot change the host's copy through what it is given.
    expect(Object.isFrozen(rec.recorder.calls()[0]?.argv)).to.equal(true);
  });

  it('refuses calls and states that do not match the stand-in’s schemas', async () => {
    const { seq: _, ...noSeq } = validCall(1);
    const cases: [string, string][] = [
      [message(noSeq), "the call /: must have required property 'seq'"],
      [message({ ...validCall(1), extra: 1 }), 'the call /: must NOT have additional properties'],
      [
        message(validCall(1, { time: 'yesterday' })),
        'the call /time: must match format "date-time"',
      ],
      [
        message(validCall(1), { version: 1, next_number: 0, pull_requests: [] }),
        'the state /next_number: must be >= 1',
      ],
      [message(validCall(1), 'state'), 'the state /: must be object'],
    ];
    for (const [text, problem] of cases) {
      expect((await exchange(sock(), text)).ack).to.deep.equal({ ok: false, problem });
    }
    expect(kinds()).to.deep.equal(['bad-call', 'bad-call', 'bad-call', 'bad-state', 'bad-state']);
    expect(rec.recorder.calls()).to.deep.equal([]);
  });

  it('refuses garbage bytes, JSON that is not a message, and another version', async () => {
    const replies = await Promise.all([
      exchange(sock(), Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x0a])),
      exchange(sock(), '{"v":1,"call":\n'),
      exchange(sock(), '[1,2]\n'),
      exchange(sock(), `${JSON.stringify({ v: 2, call: validCall(1), state: null })}\n`),
      exchange(sock(), `${JSON.stringify({ v: 1, call: validCall(1), state: null, x: 1 })}\n`),
    ]);
    for (const r of replies) expect(r.ack).to.include({ ok: false });
    expect(kinds().sort()).to.deep.equal([
      'bad-message',
      'bad-message',
      'bad-message',
      'not-json',
      'not-json',
    ]);
    expect(rec.recorder.calls()).to.deep.equal([]);
  });

  it('drops a line longer than maxMessageBytes, sent at once or bit by bit', async () => {
    const huge = await exchange(sock(), message(validCall(1, { stdout: 'x'.repeat(10_000) })));
    expect(huge).to.deep.equal({ ack: null, closedByHost: true });
    const endless = await exchange(sock(), 'y'.repeat(5000));
    expect(endless.ack).to.equal(null);
    expect(kinds()).to.deep.equal(['oversize', 'oversize']);
    expect((await exchange(sock(), message(validCall(1)))).ack).to.deep.equal({ ok: true, seq: 1 });
  });

  it('keeps seq strictly increasing: a repeated or earlier seq is refused', async () => {
    expect((await exchange(sock(), message(validCall(5)))).ack).to.include({ ok: true });
    expect((await exchange(sock(), message(validCall(5)))).ack).to.deep.equal({
      ok: false,
      problem: 'seq 5 is not after 5, the last recorded',
    });
    expect((await exchange(sock(), message(validCall(2)))).ack).to.include({ ok: false });
    expect((await exchange(sock(), message(validCall(6)))).ack).to.include({ ok: true });
    expect(rec.recorder.calls().map((c) => c.seq)).to.deep.equal([5, 6]);
    expect(kinds()).to.deep.equal(['seq', 'seq']);
  });

  it('accepts at most maxCalls calls', async () => {
    for (let seq = 1; seq <= 4; seq++) await exchange(sock(), message(validCall(seq)));
    expect(rec.recorder.calls()).to.have.length(3);
    expect(rec.recorder.problems()[0]).to.include({
      kind: 'too-many-calls',
      reason: '3 calls were already recorded',
    });
  });

  it('a client that connects and never writes, or writes half a line, is dropped at its deadline while others are served', async () => {
    const silent = createConnection({ path: sock() });
    silent.on('error', () => undefined);
    const slow = createConnection({ path: sock() });
    slow.on('error', () => undefined);
    slow.write('{"v":1,');
    const started = Date.now();
    const [silentClosed, slowClosed, served] = await Promise.all([
      closed(silent),
      closed(slow),
      exchange(sock(), message(validCall(1))).then((r) => ({ r, at: Date.now() })),
    ]);
    expect(served.r.ack).to.deep.equal({ ok: true, seq: 1 });
    expect(served.at).to.be.below(Math.min(silentClosed, slowClosed));
    expect(silentClosed - started).to.be.within(450, 5000);
    expect(slowClosed - started).to.be.within(450, 5000);
    expect(kinds()).to.deep.equal(['timeout', 'timeout']);
  });

  it('a connection that ends before its newline is counted as incomplete', async () => {
    await new Promise<void>((resolve) => {
      const s = createConnection({ path: sock() }, () => s.end('{"v":1'));
      s.on('close', () => resolve());
    });
    expect(kinds()).to.deep.equal(['incomplete']);
  });

  it('more connections at once than allowed are dropped and counted; the host serves again once they are gone', async () => {
    const clients = Array.from({ length: 40 }, () => {
      const s = createConnection({ path: sock() });
      s.on('error', () => undefined);
      return s;
    });
    // 8 are dropped at once, the 32 others (never writing) at their deadline.
    await Promise.all(clients.map(closed));
    const counts = kinds().reduce<Record<string, number>>(
      (m, k) => ({ ...m, [k]: (m[k] ?? 0) + 1 }),
      {},
    );
    expect(counts).to.deep.equal({ 'too-many-connections': 8, timeout: 32 });
    expect((await exchange(sock(), message(validCall(1)))).ack).to.deep.equal({ ok: true, seq: 1 });
  });

  it('a forged call sent ahead of the stand-in shows as a refused real report', async () => {
    const repo = await TempRepo.create();
    try {
      // The agent guesses the next seq and forges a harmless call for it...
      await exchange(sock(), message(validCall(1)));
      // ...then the real call: its report is refused, and the refusal is counted.
      const r = await repo.gh(['pr', 'merge', '1'], { env: { [GH_RECORDER_ENV]: sock() } });
      expect(r.exitCode).to.equal(1);
      expect(rec.recorder.problems()).to.have.length(1);
      expect(rec.recorder.problems()[0]).to.include({ kind: 'seq' });
    } finally {
      await repo.remove();
    }
  });
});
