import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { EvalSetError, loadEvalSet } from '../../../src/config/index.js';
import {
  MAX_DEPTH,
  MAX_ENTRIES,
  MAX_FILE_BYTES,
  MAX_VALUES,
  tooDeep,
} from '../../../src/config/limits.js';
import { MAX_LISTED } from '../../../src/config/problems.js';
import { InputError } from '../../../src/errors/index.js';

/** No eval set, however nested, large or absurd, crashes validation: each is refused at its pointer. */
describe('eval sets that cannot crash validation', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-limits-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const HEAD = '{"name":"x","agent":{"command":["a"]},"evals":[{"id":"a","prompt":"p"}]';

  describe('deep nesting is refused at the pointer where it goes too deep', () => {
    it('100,000 nested arrays', async () => {
      const n = 100_000;
      const error = await refusalOfText(`${HEAD},"description":${'['.repeat(n)}${']'.repeat(n)}}`);
      expect(error.problems).to.have.length(1);
      expect(error.problems[0]!.pointer).to.equal(`/description${'/0'.repeat(MAX_DEPTH - 1)}`);
      expect(error.problems[0]!.message).to.include(`nested deeper than ${MAX_DEPTH} levels`);
    });

    it('100,000 nested objects, under keys that need escaping', async () => {
      const n = 100_000;
      const text = `${HEAD},"colour":${'{"a/~b":'.repeat(n)}1${'}'.repeat(n)}}`;
      const error = await refusalOfText(text);
      expect(error.problems[0]!.pointer).to.equal(`/colour${'/a~1~0b'.repeat(MAX_DEPTH - 1)}`);
    });

    it('counts indexes and skips brackets inside strings', () => {
      const text = JSON.stringify({ s: '[[[[{{{{', a: [1, [2, { k: 'x]' }]], deep: nest(40) });
      expect(tooDeep(text)?.pointer).to.equal(`/deep${'/0'.repeat(MAX_DEPTH - 1)}`);
      const shallow = JSON.stringify({ evals: [[1], [2, [3, [4]]]] });
      expect(tooDeep(shallow)).to.equal(undefined);
      expect(tooDeep(JSON.stringify({ evals: [0, 1, nest(40)] }))?.pointer).to.match(
        /^\/evals\/2\/0\/0/,
      );
    });

    it('a deep value inside an otherwise valid set, up to the limit, is judged by the schema', async () => {
      const error = await refusalOfText(
        `${HEAD},"description":${JSON.stringify(nest(MAX_DEPTH - 2))}}`,
      );
      expect(error.problems.map((p) => [p.pointer, p.message])).to.deep.equal([
        ['/description', 'wrong type: must be a string, got an array'],
      ]);
    });
  });

  describe('numbers out of any engine\u2019s range are refused at their pointer', () => {
    const cases: [string, string, string][] = [
      ['"cpus": 1e308', '/resources/cpus', 'must be at most 8192, got 1e+308'],
      ['"cpus": 0.001', '/resources/cpus', 'must be at least 0.01, got 0.001'],
      ['"pids": 1e15', '/resources/pids', 'must be at most 4194304, got 1000000000000000'],
      ['"memory": 1e300', '/resources/memory', 'must be at most 9007199254740991, got 1e+300'],
      [`"memory": "${'9'.repeat(400)}g"`, '/resources/memory', 'at most 9007199254740991 bytes'],
      ['"cpus": 1e999', '/resources/cpus', 'got a number too large to hold (it reads as Infinity)'],
      ['"pids": -1e999', '/resources/pids', 'got a number too large to hold'],
    ];
    for (const [written, pointer, words] of cases) {
      it(written, async () => {
        const error = await refusalOfText(`${HEAD},"resources":{${written}}}`);
        expectProblem(error, pointer, words);
      });
    }

    it('timeouts a timer cannot hold (1e308 s would fire at once)', async () => {
      const error = await refusalOfText(`${HEAD},"timeout":1e308,"turn_timeout":604801}`);
      expectProblem(error, '/timeout', 'must be at most 604800, got 1e+308');
      expectProblem(error, '/turn_timeout', 'must be at most 604800, got 604801');
    });

    it('accepts the largest values allowed', async () => {
      const set = await loadEvalSet(
        await writeText(
          `${HEAD},"resources":{"cpus":8192,"pids":4194304,"memory":"6m"},"timeout":604800}`,
        ),
      );
      expect(set.resources).to.deep.equal({
        cpus: 8192,
        pids: 4194304,
        memory_bytes: 6 * 1024 ** 2,
        disk_bytes: 2 * 1024 ** 3,
      });
    });
  });

  describe('what is read and what is said stays bounded', () => {
    it('a file larger than the cap is refused before it is read', async () => {
      const file = await writeText(`${HEAD},"description":"${'x'.repeat(MAX_FILE_BYTES)}"}`);
      const error = await refusalOf(file, InputError);
      expect(error.message).to.include('too large for an eval set');
    });

    it('a named pipe is refused, not waited on', async () => {
      const fifo = path.join(dir, 'evals.json');
      execFileSync('mkfifo', [fifo]);
      const error = await refusalOf(fifo, InputError);
      expect(error.message).to.equal(`cannot read eval set ${fifo}: not a regular file`);
    });

    it('a folder is named as one', async () => {
      const error = await refusalOf(dir, InputError);
      expect(error.message).to.equal(
        `cannot read eval set ${dir}: is a folder; give the path of its evals.json`,
      );
    });

    it('a very long value is quoted cut, with its length', async () => {
      const id = 'A'.repeat(100_000);
      const error = await refusalOfText(JSON.stringify({ ...set(), evals: [{ id, prompt: 'p' }] }));
      expect(error.message.length).to.be.below(2000);
      expectProblem(error, '/evals/0/id', `got "${'A'.repeat(80)}…" (100000 characters)`);
    });

    it(`thousands of wrong items list the first ${MAX_LISTED} problems and count the rest`, async () => {
      const evals = new Array(5000).fill(1);
      const error = await refusalOfText(JSON.stringify({ ...set(), evals }));
      expect(error.problems).to.have.length(5000);
      const lines = error.message.split('\n');
      expect(lines).to.have.length(MAX_LISTED + 2);
      expect(lines.at(-1)).to.equal(`  ... and ${5000 - MAX_LISTED} more`);
    });

    it(`a list of more than ${MAX_ENTRIES} items is refused at its pointer, before the schema`, async () => {
      const turns = new Array(MAX_ENTRIES + 1).fill('go on');
      const error = await refusalOfText(
        JSON.stringify({ ...set(), evals: [{ id: 'a', prompt: 'p', turns }] }),
      );
      expect(error.problems).to.deep.equal([
        {
          pointer: '/evals/0/turns',
          message: `holds ${MAX_ENTRIES + 1} items; at most ${MAX_ENTRIES}`,
        },
      ]);
    });

    it(`more than ${MAX_VALUES} values in all are refused as a whole`, async () => {
      const evals = Array.from({ length: 30 }, (_, i) => ({
        id: `e${i}`,
        prompt: 'p',
        turns: new Array(8000).fill('x'),
      }));
      const error = await refusalOfText(JSON.stringify({ ...set(), evals }));
      expect(error.problems).to.have.length(1);
      expect(error.problems[0]!.pointer).to.equal('');
      expect(error.problems[0]!.message).to.include(`more than ${MAX_VALUES} values`);
    });

    it('prototype keys are plain names: refused where names are checked, never followed', async () => {
      const text = `${HEAD},"__proto__":{"polluted":1},"conditions":{"constructor":{},"__proto__":{"stage":{"x":"y"}}}}`;
      const error = await refusalOfText(text);
      expectProblem(error, '', 'unknown field "__proto__" at the top level');
      expectProblem(error, '/conditions/__proto__', 'name "__proto__" must be lowercase');
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    });
  });

  // --- helpers

  function set(): Record<string, unknown> {
    return { name: 'x', agent: { command: ['a'] }, evals: [{ id: 'a', prompt: 'p' }] };
  }

  function nest(levels: number): unknown {
    let value: unknown = 0;
    for (let i = 0; i < levels; i++) value = [value];
    return value;
  }

  async function writeText(text: string): Promise<string> {
    const file = path.join(dir, 'evals.json');
    await writeFile(file, text);
    return file;
  }

  async function refusalOf<T extends Error>(
    file: string,
    type: new (...a: never[]) => T,
  ): Promise<T> {
    try {
      await loadEvalSet(file);
    } catch (error) {
      expect(error).to.be.instanceOf(type);
      return error as T;
    }
    return expect.fail(`${file} was accepted`);
  }

  async function refusalOfText(text: string): Promise<EvalSetError> {
    return refusalOf(await writeText(text), EvalSetError);
  }

  function expectProblem(error: EvalSetError, pointer: string, words: string): void {
    const found = error.problems.some((p) => p.pointer === pointer && p.message.includes(words));
    expect(found, `no problem at "${pointer}" saying "${words}" in:\n${error.message}`).to.equal(
      true,
    );
  }
});
