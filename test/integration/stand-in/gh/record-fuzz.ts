/**
 * A fuzzer of gh calls over a damaged record: before each call it damages the record at
 * random (a torn line, garbage, a bad seq, calls.jsonl cut or removed, an empty or dead lock,
 * a broken state, a stray pending state), plays a random call, and checks what the call left.
 * Seeded: the same seed plays the same faults and calls.
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { execa } from 'execa';
import { recordValidators, TempRepo } from './support.js';
import { seededUniform as random } from '../../../../src/seeded/index.js';

/** What the fuzzer counts: every figure but `calls` must be 0. */
export interface FuzzFigures {
  calls: number;
  /** Calls with no line of their own appended to calls.jsonl. */
  notRecorded: number;
  /** Appended text that is not exactly whole lines matching the call schema. */
  writtenCorrupt: number;
  /** A seq not greater than every seq the stand-in wrote before (a repeat or a restart). */
  seqAnomalies: number;
  /** state.json changed by a call whose line is missing, not played or failed. */
  stateWithoutRecord: number;
  /** Calls that took longer than the bound (and were killed). */
  slow: number;
  /** A stack trace on stderr or an exit code other than 0 and 1 (slow calls aside). */
  crashes: number;
  /** A lock left behind by a call (lock faults aside). */
  locksLeft: number;
}

const BRANCHES = 20;
const CALL_BOUND_MS = 10_000;

/** Plays `calls` seeded calls of `bundle` in a fresh repository and returns the figures. */
export async function fuzzRecord(
  bundle: string,
  seed: number,
  calls: number,
): Promise<FuzzFigures> {
  const rnd = random(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T;
  const validate = (await recordValidators()).call;
  const repo = await TempRepo.create();
  const figures: FuzzFigures = {
    calls: 0,
    notRecorded: 0,
    writtenCorrupt: 0,
    seqAnomalies: 0,
    stateWithoutRecord: 0,
    slow: 0,
    crashes: 0,
    locksLeft: 0,
  };
  try {
    await repo.branch('feature');
    await repo.git('switch', '-q', 'main');
    const names = Array.from({ length: BRANCHES }, (_, i) => `b${i}`);
    for (const b of names) await repo.git('branch', b, 'feature');
    await repo.git('push', '-q', 'origin', ...names);
    await mkdir(repo.recordDir, { recursive: true });
    const file = (n: string): string => path.join(repo.recordDir, n);
    const read = (n: string): Promise<string | undefined> =>
      readFile(file(n), 'utf8').catch(() => undefined);

    const faults: Record<string, () => Promise<void>> = {
      none: async () => undefined,
      torn: async () => {
        const line = JSON.stringify({ seq: 900, argv: ['pr', 'list'], stdout: 'x'.repeat(50) });
        await writeFile(file('calls.jsonl'), line.slice(0, 1 + Math.floor(rnd() * line.length)), {
          flag: 'a',
        });
      },
      garbage: async () => {
        const bytes = Buffer.from(
          Array.from({ length: 1 + Math.floor(rnd() * 40) }, () => Math.floor(rnd() * 256)),
        );
        await writeFile(file('calls.jsonl'), Buffer.concat([bytes, Buffer.from('\n')]), {
          flag: 'a',
        });
      },
      badSeq: async () => {
        const seq = pick(['"x"', '-1', '1.5', 'null', '0', '"7"', '1e400']);
        await writeFile(file('calls.jsonl'), `{"seq":${seq},"argv":[]}\n`, { flag: 'a' });
      },
      cut: async () => {
        const text = await read('calls.jsonl');
        if (text)
          await writeFile(file('calls.jsonl'), text.slice(0, Math.floor(rnd() * text.length)));
      },
      removeCalls: async () => rm(file('calls.jsonl'), { force: true }),
      emptyLock: async () => writeFile(file('lock'), ''),
      deadLock: async () => writeFile(file('lock'), '999999999\n'),
      reusedLock: async () => writeFile(file('lock'), `${process.pid} 1\n`),
      stateGarbage: async () => writeFile(file('state.json'), '{"pull_requests": [{"numb'),
      stateDuplicate: async () =>
        writeFile(
          file('state.json'),
          JSON.stringify({
            pull_requests: [
              { number: 1, title: 'a', head: 'b0' },
              { number: 1, title: 'b', head: 'b1' },
            ],
          }),
        ),
      strayPending: async () =>
        writeFile(file(`state.json.seq-${Math.floor(rnd() * 5)}.pending`), '{"x":'),
    };
    const faultNames = Object.keys(faults);
    const commands = (): string[] => {
      const n = String(1 + Math.floor(rnd() * 6));
      return pick([
        ['pr', 'create', '-H', pick(names), '-t', 'T', '-b', 'B'],
        ['pr', 'create', '-d', '-H', pick(names), '-t', 'T', '-b', 'B'],
        ['pr', 'list', '--json', 'number,isDraft'],
        ['pr', 'view', n, '--json', 'title'],
        ['pr', 'edit', n, '-b', `body ${Math.floor(rnd() * 100)}`],
        ['pr', 'ready', n],
        ['pr', 'ready', n, '--undo'],
        ['--version'],
        ['auth', 'status'],
        ['api', 'repos'],
      ]);
    };

    let maxWritten = 0;
    for (let i = 0; i < calls; i++) {
      // Half the calls meet a damaged record; state damage is undone after its call.
      const fault = rnd() < 0.5 ? pick(faultNames) : 'none';
      const savedState = await read('state.json');
      await faults[fault]?.();
      const before = (await read('calls.jsonl')) ?? '';
      const stateBefore = await read('state.json');
      const argv = commands();
      const r = await execa(bundle, argv, {
        cwd: repo.work,
        input: '',
        reject: false,
        timeout: CALL_BOUND_MS,
        env: { GH_STAND_IN_NOW: '2026-11-29T19:00:00Z' },
      });
      figures.calls++;
      if (r.timedOut) figures.slow++;
      const stackTrace = /\n\s+at /.test(String(r.stderr));
      if (!r.timedOut && (stackTrace || (r.exitCode !== 0 && r.exitCode !== 1))) {
        figures.crashes++;
      }
      const after = (await read('calls.jsonl')) ?? '';
      const appended = after.startsWith(before) ? after.slice(before.length) : after;
      // Appended after a line cut short, a new line must start with a newline of its own.
      const glued = before !== '' && !before.endsWith('\n') && !appended.startsWith('\n');
      const lines = appended.replace(/^\n/, '').split('\n');
      const whole = lines.pop() === '';
      const mine = lines.map((l) => {
        try {
          return JSON.parse(l) as {
            seq: number;
            argv: string[];
            played: boolean;
            exit_code: number;
          };
        } catch {
          return undefined;
        }
      });
      const call = mine.find((c) => JSON.stringify(c?.argv) === JSON.stringify(argv));
      if (!call) figures.notRecorded++;
      if (glued || !whole || mine.length !== 1 || mine.some((c) => validate(c) !== undefined)) {
        if (appended !== '') figures.writtenCorrupt++;
      }
      if (call && typeof call.seq === 'number') {
        if (call.seq <= maxWritten) figures.seqAnomalies++;
        maxWritten = Math.max(maxWritten, call.seq);
      }
      const stateAfter = await read('state.json');
      if (stateAfter !== stateBefore && (!call || !call.played || call.exit_code !== 0)) {
        figures.stateWithoutRecord++;
      }
      if (fault.startsWith('state')) {
        if (savedState === undefined) await rm(file('state.json'), { force: true });
        else await writeFile(file('state.json'), savedState);
      }
      const lockLeft = (await read('lock')) !== undefined;
      if (lockLeft && !fault.endsWith('Lock')) figures.locksLeft++;
      await rm(file('lock'), { force: true });
    }
    return figures;
  } finally {
    await repo.remove();
  }
}

/** Runs the fuzzer from the command line against a bundle: `tsx record-fuzz.ts <bundle> <seed> <calls>`. */
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const [bundle, seed, n] = process.argv.slice(2);
  if (!bundle) throw new Error('usage: record-fuzz.ts <bundle> [seed] [calls]');
  console.log(JSON.stringify(await fuzzRecord(bundle, Number(seed ?? 1), Number(n ?? 250))));
}
