import { cp, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { execa } from 'execa';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const fixtures = path.join(root, 'test/fixtures/config');
// Resolved here: `--import tsx` alone would look for tsx in the temporary working folder.
const tsx = import.meta.resolve('tsx');

/** Runs the CLI from source, in `cwd`, as a user would. */
function evalrig(args: string[], cwd: string) {
  return execa('node', ['--import', tsx, path.join(root, 'src/cli/main.ts'), ...args], {
    cwd,
    reject: false,
  });
}

/** Every path under `dir` with its size and mtime: what "nothing written" compares. */
async function snapshot(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return Promise.all(
    entries.sort().map(async (entry) => {
      const info = await stat(path.join(dir, entry));
      return `${entry} ${info.size} ${info.mtimeMs}`;
    }),
  );
}

describe('evalrig validate <evals.json>', function () {
  this.timeout(60_000);
  let work: string;

  beforeEach(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'evalrig-validate-'));
    await cp(fixtures, work, { recursive: true });
  });
  afterEach(async () => {
    await rm(work, { recursive: true, force: true });
  });

  it('prints a summary and exits 0 for a valid set, creating nothing', async () => {
    const before = await snapshot(work);
    const result = await evalrig(['validate', 'full/evals.json'], work);
    expect(result.stderr).to.equal('');
    expect(result.stdout).to.equal('full/evals.json: valid (2 evals, 2 conditions, 8 runs in all)');
    expect(result.exitCode).to.equal(0);
    expect(await snapshot(work)).to.deep.equal(before);
  });

  it('names the branches and tags of a local codebase whose ref is missing, at its pointer, before any run', async () => {
    const git = (cwd: string, ...args: string[]) =>
      execa('git', ['-c', 'user.name=a', '-c', 'user.email=a@b.invalid', ...args], { cwd });
    const source = path.join(work, 'toy');
    await git(work, 'init', '-q', '-b', 'trunk', source);
    await git(source, 'commit', '-q', '--allow-empty', '-m', 'one');
    await git(source, 'tag', 'v1.0');
    await git(source, 'branch', 'dev');
    await git(work, 'clone', '-q', '--bare', source, path.join(work, 'toy.git'));
    const doc = {
      name: 'refs',
      agent: { command: ['true'] },
      codebase: { url: 'toy.git', ref: 'main' },
      evals: [
        { id: 'a', prompt: 'p' },
        { id: 'b', prompt: 'p', codebase: { url: './toy', ref: 'v1.0' } },
        { id: 'c', prompt: 'p', codebase: { url: './toy', ref: 'nope' } },
      ],
    };
    await writeFile(path.join(work, 'refs.json'), JSON.stringify(doc));
    const result = await evalrig(['validate', 'refs.json'], work);
    expect(result.exitCode).to.equal(2);
    expect(result.stderr.split('\n')).to.deep.equal([
      'evalrig: refs.json is not a valid eval set (2 problems):',
      `  refs.json#/codebase/ref: no branch or tag "main" in ${path.join(work, 'toy.git')} (branches: dev, trunk; tags: v1.0)`,
      `  refs.json#/evals/2/codebase/ref: no branch or tag "nope" in ${source} (branches: dev, trunk; tags: v1.0)`,
    ]);
  });

  it('says a misspelt agent type once and a JSON syntax error with its line and a caret', async () => {
    const typo = {
      name: 'x',
      agent: { type: 'claude', version: '2.1.0' },
      evals: [{ id: 'e', prompt: 'p' }],
    };
    await writeFile(path.join(work, 'typo.json'), JSON.stringify(typo));
    const typed = await evalrig(['validate', 'typo.json'], work);
    expect(typed.exitCode).to.equal(2);
    expect(typed.stderr.split('\n')).to.have.length(2);
    expect(typed.stderr).to.contain(
      'typo.json#/agent/type: unknown agent type "claude" (did you mean "claude-code"?)',
    );
    await writeFile(path.join(work, 'broken.json'), '{\n  "name": "x"\n  "evals": []\n}\n');
    const broken = await evalrig(['validate', 'broken.json'], work);
    expect(broken.exitCode).to.equal(2);
    expect(broken.stderr.split('\n')).to.deep.equal([
      "evalrig: broken.json:3:3: not valid JSON: Expected ',' or '}' after property value",
      '  3 |   "evals": []',
      '    |   ^',
    ]);
  });

  it('counts the default condition of a set that declares none', async () => {
    const result = await evalrig(['validate', 'minimal/evals.json'], work);
    expect(result.stdout).to.equal('minimal/evals.json: valid (1 eval, 1 condition, 1 run in all)');
    expect(result.exitCode).to.equal(0);
  });

  it('lists every problem with its pointer and exits 2, creating nothing', async () => {
    const before = await snapshot(work);
    const result = await evalrig(['validate', 'invalid/evals.json'], work);
    expect(result.exitCode).to.equal(2);
    expect(result.stdout).to.equal('');
    const f = 'invalid/evals.json';
    expect(result.stderr.split('\n')).to.deep.equal([
      `evalrig: ${f} is not a valid eval set (5 problems):`,
      `  ${f}#: unknown field "colour" at the top level`,
      `  ${f}#/runs: wrong type: must be an integer, got a string ("2")`,
      `  ${f}#/evals/1/id: must be kebab-case (lowercase letters, digits, single dashes), got "a/b"`,
      `  ${f}#/evals/2: missing required field "prompt"`,
      `  ${f}#/evals/2/id: duplicate id "fine", first at /evals/0/id`,
    ]);
    expect(result.stderr).to.not.include('    at '); // no stack trace for a user's mistake
    expect(await snapshot(work)).to.deep.equal(before);
  });

  it('refuses paths that leave the eval set folder, each at its pointer', async () => {
    // Both were called valid: staging from an absolute path, files_root "/".
    const doc = {
      name: 'escape',
      agent: { command: ['agent'] },
      conditions: { c: { stage: { '/etc/passwd': 'x' } } },
      evals: [{ id: 'one', prompt: 'p', files_root: '/', files: ['etc/shadow'] }],
    };
    await writeFile(path.join(work, 'escape.json'), JSON.stringify(doc));
    const result = await evalrig(['validate', 'escape.json'], work);
    expect(result.exitCode).to.equal(2);
    expect(result.stderr.split('\n')).to.deep.equal([
      'evalrig: escape.json is not a valid eval set (2 problems):',
      `  escape.json#/conditions/c/stage/~1etc~1passwd: source is absolute ("/etc/passwd"); give a path relative to the eval set's folder`,
      `  escape.json#/evals/0/files_root: is absolute ("/"); give a path relative to the eval set's folder`,
    ]);
  });

  it('refuses 100,000 nested arrays at their pointer, exit 2, no stack trace', async () => {
    const n = 100_000;
    const text = `{"name":"deep","agent":{"command":["a"]},"evals":[{"id":"a","prompt":"p"}],"description":${'['.repeat(n)}${']'.repeat(n)}}`;
    await writeFile(path.join(work, 'deep.json'), text);
    const result = await evalrig(['validate', 'deep.json'], work);
    expect(result.exitCode).to.equal(2);
    expect(result.stderr).to.equal(
      `evalrig: deep.json is not a valid eval set (1 problem):\n  deep.json#/description${'/0'.repeat(31)}: nested deeper than 32 levels of objects and arrays; no field of an eval set is`,
    );
  });

  it('exits 2 with a clear message for a missing file', async () => {
    const result = await evalrig(['validate', 'nowhere/evals.json'], work);
    expect(result.exitCode).to.equal(2);
    expect(result.stderr).to.equal(
      'evalrig: cannot read eval set nowhere/evals.json: no such file',
    );
  });

  it('exits 2 when the file is not given', async () => {
    const result = await evalrig(['validate'], work);
    expect(result.exitCode).to.equal(2);
    expect(result.stderr).to.include("missing required argument 'evals.json'");
  });
});
