import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { execa } from 'execa';
import { EvalSetError, loadEvalSet } from '../../../src/config/index.js';
import { InputError } from '../../../src/errors/index.js';
import { seededUniform } from '../../../src/seeded/index.js';

/**
 * A fuzzer for eval sets, with fixed seeds so that every run plays the same
 * trials: a valid set mutated at random places (deep nesting, huge and
 * non-finite numbers, wrong types, odd and very long strings, unicode, lone
 * surrogates, prototype keys, wide lists, broken JSON text). Whatever the
 * input, validation either accepts the set or refuses it with the typed user
 * error (exit 2), every problem at a pointer, in a bounded message: it never
 * throws anything else, and the command never exits 70 nor prints a stack.
 */
const SEEDS = [0x5eed, 0xc0ffee, 2026];
const TRIALS_PER_SEED = 120;
// EVALRIG_FUZZ_REPORT=1 prints each seed's outcomes.

describe('fuzzed eval sets never crash validation', function () {
  this.timeout(120_000);
  let dir: string;

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-fuzz-'));
    await mkdir(path.join(dir, 'skills/tdd'), { recursive: true });
    await writeFile(path.join(dir, 'skills/tdd/SKILL.md'), 'skill\n');
    await mkdir(path.join(dir, 'files'));
    await writeFile(path.join(dir, 'files/task.md'), 'task\n');
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  for (const seed of SEEDS) {
    it(`seed ${seed}: ${TRIALS_PER_SEED} mutated sets are accepted or refused with exit 2, never crash`, async () => {
      const rng = new Random(seed);
      const outcomes = { valid: 0, refused: 0 };
      const crashes: string[] = [];
      for (let trial = 0; trial < TRIALS_PER_SEED; trial++) {
        const text = mutatedSet(rng);
        const file = path.join(dir, 'evals.json');
        await writeFile(file, text);
        const outcome = await judge(file);
        if (outcome === 'valid' || outcome === 'refused') outcomes[outcome]++;
        else
          crashes.push(
            `trial ${trial} (${text.length} bytes, starts ${text.slice(0, 120)}): ${outcome}`,
          );
      }
      if (process.env.EVALRIG_FUZZ_REPORT)
        console.log(seed, outcomes, crashes.length, crashes.slice(0, 5));
      expect(crashes, crashes.join('\n')).to.deep.equal([]);
      // The fuzzer reaches both sides of validation, not only the parser.
      expect(outcomes.valid, 'some trials stay valid').to.be.above(0);
      expect(outcomes.refused, 'most trials are refused').to.be.above(TRIALS_PER_SEED / 2);
    });
  }

  it('the command, on the nastiest sets, exits 0 or 2 and prints no stack trace', async () => {
    const main = fileURLToPath(new URL('../../../dist/src/cli/main.js', import.meta.url));
    const nastiest: Record<string, string> = {
      'deep-arrays': withField('"description"', `${'['.repeat(100_000)}${']'.repeat(100_000)}`),
      'deep-objects': withField('"x"', `${'{"__proto__":'.repeat(100_000)}1${'}'.repeat(100_000)}`),
      'huge-numbers': withField('"resources"', '{"cpus":1e999,"pids":1e15,"memory":-1e999}'),
      'long-strings': withField(
        '"evals"',
        JSON.stringify([{ id: 'é'.repeat(300_000), prompt: '\ud800' }]),
      ),
      'wide-list': withField('"hand_over"', JSON.stringify(new Array(50_000).fill('x'))),
      'escaping-paths': withField(
        '"conditions"',
        JSON.stringify({ c: { stage: { '/etc/shadow': 'x', ['../'.repeat(50)]: 'y' } } }),
      ),
    };
    for (const [name, text] of Object.entries(nastiest)) {
      const file = path.join(dir, `${name}.json`);
      await writeFile(file, text);
      const result = await execa('node', [main, 'validate', file], { reject: false });
      const said = `${name}: exit ${result.exitCode}\n${result.stderr.slice(0, 2000)}`;
      expect(result.exitCode, said).to.be.oneOf([0, 2]);
      expect(result.stderr, said).to.not.match(/internal error|\n\s+at /);
      expect(result.stderr.length, said).to.be.below(20_000);
    }
  });
});

/** Validates one file: 'valid', 'refused', or what went wrong instead. */
async function judge(file: string): Promise<string> {
  try {
    await loadEvalSet(file);
    return 'valid';
  } catch (error) {
    if (!(error instanceof InputError)) {
      return `threw ${(error as Error)?.constructor?.name}: ${String((error as Error)?.message).slice(0, 300)}`;
    }
    if (/\n\s+at /.test(error.message)) return `a stack trace in the message`;
    const lines = error.message.split('\n');
    if (lines.length > 60) return `a message of ${lines.length} lines`;
    const long = lines.find((line) => line.length > 2000);
    if (long) return `a message line of ${long.length} characters`;
    if (error instanceof EvalSetError) {
      if (error.problems.length === 0) return 'an EvalSetError with no problem';
      const bad = error.problems.find(
        (p) => (p.pointer !== '' && !p.pointer.startsWith('/')) || p.message === '',
      );
      if (bad) return `a problem without a pointer or words: ${JSON.stringify(bad).slice(0, 200)}`;
    }
    return 'refused';
  }
}

// --- the generator

/** The seeded generator with picks: the same seed gives the same trials. */
class Random {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = seededUniform(seed);
  }
  int(below: number): number {
    return Math.floor(this.next() * below);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

function validSet(): Record<string, unknown> {
  return {
    name: 'fuzz',
    description: 'A valid eval set, mutated by each trial.',
    agent: { command: ['agent', '{prompt}'], resume_command: ['agent', 'resume'], env: ['KEY'] },
    conditions: {
      without_skill: {},
      with_skill: {
        stage: { 'skills/tdd': '.claude/skills/tdd' },
        env: { MODE: 'on' },
        agent_args: ['--v'],
      },
    },
    baseline_condition: 'without_skill',
    probes: { kind: 'echo plan', description: 'cat d' },
    hand_over: ['pr-ready'],
    resources: { memory: '512m', cpus: 1, pids: 256 },
    timeout: 60,
    turn_timeout: 30,
    runs: 2,
    repo_owner: 'acme',
    checks: [{ name: 'tests', run: 'true' }],
    evals: [
      {
        id: 'one',
        prompt: 'Do it.',
        files: ['task.md'],
        files_root: 'files',
        turns: ['go on', { message: 'build', phase: 'execution' }],
        start: {
          branch: 'feature/x',
          pull_requests: [{ title: 't', head: 'feature/x', base: 'main', state: 'OPEN' }],
        },
      },
      { id: 'two', prompt: 'Again.', codebase: { path: 'repo' }, checks: [] },
    ],
  };
}

// Stand-ins replaced in the JSON text: values JSON.stringify cannot write
// (1e999, 100,000 nested arrays) or would overflow on.
const MARK = '\u0001';
const marker = (what: string): string => `${MARK}${what}${MARK}`;

const PROTO_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '__defineGetter__',
];

function nastyString(rng: Random): string {
  const fixed = [
    '',
    ' ',
    '.',
    '..',
    '../..',
    '/',
    '/etc/passwd',
    'a/../../b',
    'C:\\Windows',
    '\\\\server\\share',
    '.git/hooks/pre-commit',
    'HEAD',
    '-rf',
    'a..b',
    '@{u}',
    '\u0000',
    '\ud800',
    '\udfff\ud800',
    '\u202eevil',
    '💥🧪',
    'é',
    'e\u0301',
    '{prompt}',
    '$(rm -rf /)',
    '9'.repeat(400) + 'g',
    '0x10',
    '1e999',
  ];
  const kind = rng.int(4);
  if (kind === 0) return 'x'.repeat(rng.pick([81, 1000, 100_000, 400_000]));
  if (kind === 1) {
    let s = '';
    for (let i = rng.int(40); i > 0; i--) s += String.fromCharCode(rng.int(0x10000));
    return s;
  }
  return rng.pick(fixed);
}

function nastyValue(rng: Random, depth = 0): unknown {
  switch (rng.int(9)) {
    case 0:
      return rng.pick([
        1e308,
        -1e308,
        2 ** 53 + 2,
        Number.MAX_SAFE_INTEGER,
        1e15,
        -1,
        0,
        -0,
        0.5,
        0.001,
        5e-324,
        64,
        4194305,
        604801,
      ]);
    case 1:
      return marker(rng.pick(['INF', '-INF', 'BIGINT']));
    case 2:
    case 3:
      return nastyString(rng);
    case 4:
      return rng.pick([null, true, false, [], {}, [1, 2], { a: 1 }, ['x', 'x']]);
    case 5:
      return marker(`DEEP:${rng.pick(['a', 'o'])}:${rng.pick([5, 31, 32, 33, 1000, 100_000])}`);
    case 6: {
      // Long lists of small values (a long list of 100,000-deep values would be gigabytes).
      const length = rng.pick([2, 100, 10_001]);
      const item =
        length === 2 && depth < 2 ? nastyValue(rng, depth + 1) : rng.pick([1, 'x', null, { a: 1 }]);
      return Array.from({ length }, () => structuredClone(item));
    }
    case 7: {
      const object: Record<string, unknown> = {};
      for (let i = rng.int(4); i >= 0; i--)
        setOwn(object, nastyKey(rng), depth < 2 ? nastyValue(rng, depth + 1) : 1);
      return object;
    }
    default:
      return structuredClone(rng.pick(Object.values(validSet())));
  }
}

function nastyKey(rng: Random): string {
  return rng.chance(0.5) ? rng.pick(PROTO_KEYS) : nastyString(rng).slice(0, 1000);
}

/** An own, enumerable property even for "__proto__" (plain assignment would set the prototype). */
function setOwn(object: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(object, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** Every (container, key) of a document, to pick a place to mutate. */
function places(doc: unknown): [Record<string, unknown> | unknown[], string | number][] {
  const found: [Record<string, unknown> | unknown[], string | number][] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        found.push([value, index]);
        walk(item);
      });
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        found.push([value as Record<string, unknown>, key]);
        walk(child);
      }
    }
  };
  walk(doc);
  return found;
}

function mutate(doc: Record<string, unknown>, rng: Random): void {
  const all = places(doc);
  const [container, key] = rng.pick(all);
  const op = rng.int(5);
  if (op === 0) {
    if (Array.isArray(container)) container.splice(Number(key), 1);
    else delete container[key];
  } else if (op === 1 && !Array.isArray(container)) {
    setOwn(container, nastyKey(rng), nastyValue(rng));
  } else if (op === 2 && Array.isArray(container)) {
    container.push(structuredClone(container[Number(key)]));
  } else if (Array.isArray(container)) {
    container[Number(key)] = nastyValue(rng);
  } else {
    setOwn(container, String(key), nastyValue(rng));
  }
}

/** The JSON text of a valid set after 1 to 4 mutations, sometimes broken as text too. */
function mutatedSet(rng: Random): string {
  const doc = validSet();
  for (let i = 1 + rng.int(4); i > 0; i--) mutate(doc, rng);
  let text = JSON.stringify(doc).replace(/"\\u0001([^"\\]*)\\u0001"/g, (_, what: string) =>
    expand(what),
  );
  const textual = rng.int(10);
  if (textual === 0) text = text.slice(0, rng.int(text.length));
  else if (textual === 1) {
    const at = rng.int(text.length);
    text =
      text.slice(0, at) +
      rng.pick(['{', ']', '"', ',', '\\', '\u0000', 'NaN', '[']) +
      text.slice(at + 1);
  } else if (textual === 2) text = `\ufeff${text}`;
  return text;
}

function expand(what: string): string {
  if (what === 'INF') return '1e999';
  if (what === '-INF') return '-1e999';
  if (what === 'BIGINT') return '123456789012345678901234567890';
  const [, shape, count] = what.split(':');
  const n = Number(count);
  return shape === 'a'
    ? `${'['.repeat(n)}0${']'.repeat(n)}`
    : `${'{"k":'.repeat(n)}0${'}'.repeat(n)}`;
}

function withField(name: string, value: string): string {
  return `{"name":"x","agent":{"command":["a"]},"evals":[{"id":"a","prompt":"p"}],${name}:${value}}`;
}
