/**
 * What the gh stand-in's tests share: the bundle built once per test process, and temporary
 * repositories with a local bare remote (`<tmp>/remote/acme/toy.git`, so OWNER/REPO is
 * acme/toy) in which it is run as a script.
 */
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleStandIn } from '../../../../scripts/bundle-stand-ins.mjs';
import type { CallRecord } from '../../../../stand-in/gh/store/calls.js';
import type { State } from '../../../../stand-in/gh/store/state.js';
import { execa } from 'execa';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

const root = path.resolve(import.meta.dirname, '../../../..');

let bundle: Promise<string> | undefined;

/**
 * Bundles stand-in/gh/main.ts as `npm run build` does, into a temporary folder of the test
 * process (removed when it exits), so the tests do not depend on a build of the project.
 */
export function ghBundle(): Promise<string> {
  bundle ??= (async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'gh-stand-in-bundle-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const outfile = path.join(dir, 'gh');
    await bundleStandIn('gh', outfile);
    return outfile;
  })();
  return bundle;
}

/** One call's result. */
export interface GhRun {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** A temporary work tree with an `origin` bare remote, on branch `main` with one commit. */
export class TempRepo {
  private constructor(
    readonly root: string,
    readonly work: string,
    readonly remote: string,
  ) {}

  static async create(): Promise<TempRepo> {
    const root = await mkdtemp(path.join(tmpdir(), 'gh-stand-in-test-'));
    const remote = path.join(root, 'remote/acme/toy.git');
    const work = path.join(root, 'work');
    await mkdir(path.dirname(remote), { recursive: true });
    await execa('git', ['init', '-q', '--bare', '-b', 'main', remote]);
    await execa('git', ['init', '-q', '-b', 'main', work]);
    const repo = new TempRepo(root, work, remote);
    await repo.git('config', 'user.email', 'dev@example.com');
    await repo.git('config', 'user.name', 'Dev');
    await repo.git('remote', 'add', 'origin', remote);
    await repo.commit('README.md', '# toy\n');
    await repo.git('push', '-q', 'origin', 'main');
    return repo;
  }

  get recordDir(): string {
    return path.join(this.work, '.git', 'gh-stand-in');
  }

  async git(...args: string[]): Promise<string> {
    return (await execa('git', args, { cwd: this.work })).stdout;
  }

  /** Writes a file and commits it. */
  async commit(file: string, text: string): Promise<void> {
    await writeFile(path.join(this.work, file), text);
    await this.git('add', file);
    await this.git('commit', '-q', '-m', `change ${file}`);
  }

  /** A new branch with one commit, pushed (with upstream) unless `push` is false. */
  async branch(name: string, push = true): Promise<void> {
    await this.git('switch', '-q', '-c', name);
    await this.commit(`${name.replace(/\W/g, '_')}.txt`, `${name}\n`);
    if (push) await this.git('push', '-q', '-u', 'origin', name);
  }

  /** Runs the stand-in in the work tree (or `cwd`). */
  async gh(
    args: string[],
    opts: { input?: string; cwd?: string; env?: Record<string, string> } = {},
  ): Promise<GhRun> {
    const r = await execa(await ghBundle(), args, {
      cwd: opts.cwd ?? this.work,
      input: opts.input ?? '',
      reject: false,
      stripFinalNewline: false,
      env: { GH_STAND_IN_NOW: '2026-11-29T19:00:00Z', ...opts.env },
    });
    return { stdout: String(r.stdout), stderr: String(r.stderr), exitCode: r.exitCode ?? -1 };
  }

  /** The recorded calls, parsed. */
  async calls(): Promise<CallLine[]> {
    const text = await readFile(path.join(this.recordDir, 'calls.jsonl'), 'utf8').catch(() => '');
    return text
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as CallLine);
  }

  /** The last recorded call. */
  async lastCall(): Promise<CallLine> {
    const calls = await this.calls();
    const last = calls[calls.length - 1];
    if (!last) throw new Error('no call recorded');
    return last;
  }

  /** The state file, parsed. */
  async state(): Promise<StateFile> {
    return JSON.parse(await readFile(path.join(this.recordDir, 'state.json'), 'utf8')) as StateFile;
  }

  /** The state file, parsed, or null when no call wrote one. */
  async stateOrNull(): Promise<StateFile | null> {
    try {
      return await this.state();
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw e;
    }
  }

  /** Writes a prepared state, as the harness does before a run. */
  async prepare(state: unknown): Promise<void> {
    await mkdir(this.recordDir, { recursive: true });
    await writeFile(path.join(this.recordDir, 'state.json'), JSON.stringify(state));
  }

  async remove(): Promise<void> {
    await rm(this.root, { recursive: true, force: true });
  }
}

/** A line of calls.jsonl and the state file: the stand-in's own types. */
export type CallLine = CallRecord;
export type StateFile = State;

/** Validators of the two record formats, from the project's schemas. */
export async function recordValidators(): Promise<{
  state: (v: unknown) => string | undefined;
  call: (v: unknown) => string | undefined;
}> {
  const ajv = new Ajv2020({ allErrors: true, strict: true });
  addFormats.default(ajv);
  const load = async (name: string): Promise<object> =>
    JSON.parse(await readFile(path.join(root, 'stand-in/gh/schemas', name), 'utf8')) as object;
  const wrap = (validate: ReturnType<typeof ajv.compile>) => (v: unknown) =>
    validate(v) ? undefined : ajv.errorsText(validate.errors);
  return {
    state: wrap(ajv.compile(await load('state.schema.json'))),
    call: wrap(ajv.compile(await load('call.schema.json'))),
  };
}

/**
 * A flag error's text up to its `Flags:` table (the parity suite checks the tables whole):
 * the message, a blank line and the usage line.
 */
export function beforeFlags(stderr: string): string {
  return stderr.split('\nFlags:\n')[0] ?? '';
}

/** The URL of pull request N of the test repository. */
export const prUrl = (n: number): string => `https://github.com/acme/toy/pull/${n}`;
