import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { execa } from 'execa';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PROJECT_ROOT, bundleStandIn } from './bundle.js';

// The scripted agent's bundle, run as a program in temporary git repositories.

let scratch: string;
let agent: string;

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Tester',
  GIT_AUTHOR_EMAIL: 'tester@example.invalid',
  GIT_COMMITTER_NAME: 'Tester',
  GIT_COMMITTER_EMAIL: 'tester@example.invalid',
  GIT_AUTHOR_DATE: '2026-01-01T00:00:00Z',
  GIT_COMMITTER_DATE: '2026-01-01T00:00:00Z',
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
};

/** A fresh repository with one commit on main. */
async function repo(name = 'repo'): Promise<string> {
  const dir = await mkdtemp(path.join(scratch, `${name}-`));
  await execa('git', ['init', '-q', '-b', 'main', dir], { env: GIT_ENV });
  await writeFile(path.join(dir, 'README.md'), '# toy\n');
  await execa('git', ['add', '.'], { cwd: dir, env: GIT_ENV });
  await execa('git', ['commit', '-qm', 'start'], { cwd: dir, env: GIT_ENV });
  return dir;
}

/** Writes a script into the repository's parent folder (not the work tree). */
async function script(value: unknown): Promise<string> {
  const file = path.join(await mkdtemp(path.join(scratch, 'script-')), 'script.json');
  await writeFile(file, typeof value === 'string' ? value : JSON.stringify(value, null, 2));
  return file;
}

async function play(cwd: string, file: string, turn: number | string, ...extra: string[]) {
  return execa('node', [agent, '--script', file, '--turn', String(turn), ...extra], {
    cwd,
    reject: false,
    stripFinalNewline: false,
    env: GIT_ENV,
  });
}

const read = (dir: string, file: string) => readFile(path.join(dir, file), 'utf8');
const stopKind = (dir: string) => read(dir, '.git/evalrig-agent/stop-kind');

describe('scripted agent (stand-in/agent)', function () {
  before(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'evalrig-agent-test-'));
    agent = await bundleStandIn('agent', path.join(scratch, 'bin', 'evalrig-agent'));
  });
  after(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  describe('files', () => {
    it('writes (creating folders), appends and deletes, relative to the current directory', async () => {
      const dir = await repo();
      await writeFile(path.join(dir, 'old.txt'), 'old\n');
      const s = await script({
        turns: [
          {
            actions: [
              { write: 'src/deep/a.txt', content: 'one\n' },
              { append: 'src/deep/a.txt', content: 'two\n' },
              { append: 'new.txt', content: 'fresh\n' },
              { delete: 'old.txt' },
              { delete: 'never-was.txt' },
              { write: 'gone/x.txt', content: 'x' },
              { delete: 'gone' },
            ],
          },
        ],
      });
      const r = await play(dir, s, 1);
      expect(r.exitCode, r.stderr).to.equal(0);
      expect(await read(dir, 'src/deep/a.txt')).to.equal('one\ntwo\n');
      expect(await read(dir, 'new.txt')).to.equal('fresh\n');
      expect(existsSync(path.join(dir, 'old.txt'))).to.equal(false);
      expect(existsSync(path.join(dir, 'gone'))).to.equal(false);
      expect(r.stdout).to.equal('');
      expect(r.stderr).to.include('evalrig-agent: write src/deep/a.txt (4 bytes)\n');
      expect(r.stderr).to.include('evalrig-agent: delete never-was.txt (absent: nothing to do)\n');
    });

    it('replaces {turn} and {prompt} in every string, and leaves other braces', async () => {
      const dir = await repo();
      const s = await script({
        turns: [
          { actions: [] },
          {
            actions: [
              { write: 'turn-{turn}.txt', content: 'asked: {prompt} {other} {}\n' },
              { run: 'printf "%s/%s" "$EVALRIG_TURN" "$EVALRIG_PROMPT" > env.txt' },
              { say: 'turn {turn} done: {prompt}' },
            ],
          },
        ],
      });
      const r = await play(dir, s, 2, '--prompt', 'add a flag');
      expect(r.exitCode, r.stderr).to.equal(0);
      expect(await read(dir, 'turn-2.txt')).to.equal('asked: add a flag {other} {}\n');
      expect(await read(dir, 'env.txt')).to.equal('2/add a flag');
      expect(r.stdout).to.equal('turn 2 done: add a flag\n');
    });

    it('accepts --name=value and ignores other arguments', async () => {
      const dir = await repo();
      const s = await script({ turns: [{ actions: [{ say: '{prompt}' }] }] });
      const r = await execa(
        'node',
        [agent, '-p', '--verbose', `--script=${s}`, '--turn=1', '--prompt=hello', 'extra'],
        { cwd: dir, reject: false, stripFinalNewline: false },
      );
      expect(r.exitCode, r.stderr).to.equal(0);
      expect(r.stdout).to.equal('hello\n');
    });
  });

  describe('run', () => {
    it('runs sh -c with stdin, its output on stderr; stdout holds only say', async () => {
      const dir = await repo();
      const s = await script({
        turns: [
          {
            actions: [
              { run: 'tr a-z A-Z > upper.txt', stdin: 'quiet {turn}\n' },
              { run: 'echo to-out; echo to-err >&2' },
              { run: 'cat; echo "[stdin was empty]"' },
              { say: 'finished' },
            ],
          },
        ],
      });
      const r = await play(dir, s, 1);
      expect(r.exitCode, r.stderr).to.equal(0);
      expect(await read(dir, 'upper.txt')).to.equal('QUIET 1\n');
      expect(r.stdout).to.equal('finished\n');
      expect(r.stderr).to.include('to-out\nto-err\n');
      expect(r.stderr).to.include('[stdin was empty]');
    });

    it('stops the turn with the failing command code; allow_failure goes on', async () => {
      const dir = await repo();
      const s = await script({
        turns: [
          {
            actions: [
              { run: 'exit 5', allow_failure: true },
              { write: 'before.txt', content: 'x' },
              { run: 'echo failing >&2; exit 7' },
              { write: 'after.txt', content: 'x' },
              { say: 'never said' },
            ],
          },
        ],
      });
      const r = await play(dir, s, 1);
      expect(r.exitCode).to.equal(7);
      expect(existsSync(path.join(dir, 'before.txt'))).to.equal(true);
      expect(existsSync(path.join(dir, 'after.txt'))).to.equal(false);
      expect(r.stdout).to.equal('');
      expect(r.stderr).to.include('run exited with 5 (allowed)');
      expect(r.stderr).to.include('run exited with 7: the turn stops here');
    });

    it('commits with real git in the work tree', async () => {
      const dir = await repo();
      const s = await script({
        turns: [
          {
            actions: [
              { write: 'feature.txt', content: 'feature\n' },
              { run: 'git add feature.txt && git commit -qm "feature {turn}"' },
            ],
          },
        ],
      });
      const r = await play(dir, s, 1);
      expect(r.exitCode, r.stderr).to.equal(0);
      const log = await execa('git', ['log', '--format=%s'], { cwd: dir });
      expect(log.stdout.split('\n')).to.deep.equal(['feature 1', 'start']);
    });
  });

  describe('stop', () => {
    it('leaves the kind in <git-dir>/evalrig-agent/stop-kind, out of git status', async () => {
      const dir = await repo();
      await mkdir(path.join(dir, 'sub'));
      const s = await script({
        turns: [
          { actions: [{ stop: 'awaiting-approval' }, { say: 'after the stop marker' }] },
          { actions: [{ stop: 'first' }, { stop: 'done' }] },
          { actions: [{ say: 'no stop this turn' }] },
        ],
      });
      const r1 = await play(path.join(dir, 'sub'), s, 1);
      expect(r1.exitCode, r1.stderr).to.equal(0);
      expect(r1.stdout).to.equal('after the stop marker\n');
      expect(await stopKind(dir)).to.equal('awaiting-approval\n');
      const probe = await execa(
        'sh',
        ['-c', 'cat "$(git rev-parse --git-dir)/evalrig-agent/stop-kind"'],
        {
          cwd: dir,
        },
      );
      expect(probe.stdout).to.equal('awaiting-approval');
      expect((await execa('git', ['status', '--porcelain'], { cwd: dir })).stdout).to.equal('');

      await play(dir, s, 2);
      expect(await stopKind(dir)).to.equal('done\n');
      await play(dir, s, 3);
      expect(existsSync(path.join(dir, '.git/evalrig-agent/stop-kind'))).to.equal(false);
    });

    it('follows a .git file to the git directory of a worktree', async () => {
      const dir = await repo();
      const wt = path.join(scratch, `wt-${Date.now()}`);
      await execa('git', ['worktree', 'add', '-q', '-b', 'side', wt], { cwd: dir, env: GIT_ENV });
      const s = await script({ turns: [{ actions: [{ stop: 'handed-over' }] }] });
      const r = await play(wt, s, 1);
      expect(r.exitCode, r.stderr).to.equal(0);
      const gitDir = (await execa('git', ['rev-parse', '--absolute-git-dir'], { cwd: wt })).stdout;
      expect(await readFile(path.join(gitDir, 'evalrig-agent/stop-kind'), 'utf8')).to.equal(
        'handed-over\n',
      );
    });

    it('fails with exit 1 outside a git repository', async () => {
      const dir = await mkdtemp(path.join(scratch, 'plain-'));
      const s = await script({ turns: [{ actions: [{ stop: 'done' }] }] });
      const r = await play(dir, s, 1);
      expect(r.exitCode).to.equal(1);
      expect(r.stderr).to.include(`stop done: ${dir} is not inside a git repository`);
    });
  });

  describe('follow and if_exists', () => {
    const skill = [
      '# Draft first',
      '',
      'Some prose, and a block for another tool:',
      '```sh',
      'echo not for the agent',
      '```',
      '```evalrig-agent',
      '[{ "write": "from-skill.txt", "content": "turn {turn}\\n" }]',
      '```',
      '~~~~evalrig-agent',
      '[{ "say": "second block" }, { "follow": "NESTED.md" }]',
      '~~~~',
    ].join('\n');

    it('plays the evalrig-agent blocks of the skill file when it is there', async () => {
      const dir = await repo();
      await writeFile(path.join(dir, 'SKILL.md'), skill);
      await writeFile(path.join(dir, 'NESTED.md'), '```evalrig-agent\n[{"say": "nested"}]\n```\n');
      const s = await script({ turns: [{ actions: [{ follow: 'SKILL.md' }, { say: 'end' }] }] });
      const r = await play(dir, s, 1);
      expect(r.exitCode, r.stderr).to.equal(0);
      expect(await read(dir, 'from-skill.txt')).to.equal('turn 1\n');
      expect(r.stdout).to.equal('second block\nnested\nend\n');
      expect(r.stderr).to.not.include('not for the agent');
    });

    it('does nothing when the skill file is absent (a session without the skill)', async () => {
      const dir = await repo();
      const s = await script({ turns: [{ actions: [{ follow: 'SKILL.md' }, { say: 'end' }] }] });
      const r = await play(dir, s, 1);
      expect(r.exitCode, r.stderr).to.equal(0);
      expect(r.stdout).to.equal('end\n');
      expect(r.stderr).to.include('follow SKILL.md (absent: nothing to follow)');
      expect(await readdir(dir)).to.have.members(['.git', 'README.md']);
    });

    it('refuses a bad block with exit 2, naming the file, the block and the pointer', async () => {
      const dir = await repo();
      await writeFile(path.join(dir, 'SKILL.md'), '```evalrig-agent\n[{"say": 1}]\n```\n');
      const s = await script({ turns: [{ actions: [{ follow: 'SKILL.md' }] }] });
      const r = await play(dir, s, 1);
      expect(r.exitCode).to.equal(2);
      expect(r.stderr).to.include(
        'SKILL.md (evalrig-agent block 1): /0/say: must be a string, not a number',
      );
    });

    it('refuses a skill that follows itself forever', async () => {
      const dir = await repo();
      await writeFile(
        path.join(dir, 'LOOP.md'),
        '```evalrig-agent\n[{"follow": "LOOP.md"}]\n```\n',
      );
      const s = await script({ turns: [{ actions: [{ follow: 'LOOP.md' }] }] });
      const r = await play(dir, s, 1);
      expect(r.exitCode).to.equal(1);
      expect(r.stderr).to.include('more than 8 nested follows');
    });

    it('plays then or else by whether the path exists', async () => {
      const dir = await repo();
      const s = await script({
        turns: [
          {
            actions: [
              {
                if_exists: 'README.md',
                then: [{ say: 'has readme' }],
                else: [{ say: 'no readme' }],
              },
              {
                if_exists: 'missing',
                then: [{ say: 'has missing' }],
                else: [{ say: 'no missing' }],
              },
              { if_exists: 'missing', then: [{ say: 'only then' }] },
            ],
          },
        ],
      });
      const r = await play(dir, s, 1);
      expect(r.exitCode, r.stderr).to.equal(0);
      expect(r.stdout).to.equal('has readme\nno missing\n');
    });
  });

  describe('turns and sleep', () => {
    it('plays nothing for a turn beyond the script, and exits 0', async () => {
      const dir = await repo();
      const s = await script({ turns: [{ actions: [{ write: 'x.txt', content: 'x' }] }] });
      const r = await play(dir, s, 2);
      expect(r.exitCode).to.equal(0);
      expect(r.stdout).to.equal('');
      expect(r.stderr).to.equal('evalrig-agent: turn 2: the script has 1 turn(s); nothing to do\n');
      expect(existsSync(path.join(dir, 'x.txt'))).to.equal(false);
    });

    it('sleeps the seconds it is told (fractions allowed)', async () => {
      const dir = await repo();
      const s = await script({ turns: [{ actions: [{ sleep: 0.2 }, { say: 'awake' }] }] });
      const started = process.hrtime.bigint();
      const r = await play(dir, s, 1);
      const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
      expect(r.exitCode, r.stderr).to.equal(0);
      expect(r.stdout).to.equal('awake\n');
      expect(elapsedMs).to.be.at.least(200);
    });
  });

  describe('bad scripts and command lines (exit 2, nothing played)', () => {
    const cases: { name: string; script: unknown; message: string }[] = [
      { name: 'invalid JSON', script: '{"turns": [', message: ': (document): not valid JSON: ' },
      {
        name: 'not an object',
        script: [],
        message: ': (document): a script must be an object, not an array',
      },
      { name: 'no turns', script: {}, message: ': (document): a script needs "turns"' },
      {
        name: 'an unknown top field',
        script: { turns: [], extra: 1 },
        message: ': /extra: "extra" is not a field of a script (it takes turns)',
      },
      {
        name: 'an unknown action',
        script: {
          turns: [{ actions: [{ say: 'ok' }] }, { actions: [{ wirte: 'a', content: '' }] }],
        },
        message:
          ': /turns/1/actions/0/wirte: unknown action "wirte" (expected one of write, append, delete, run, say, stop, follow, if_exists, sleep)',
      },
      {
        name: 'a wrong type',
        script: { turns: [{ actions: [{ run: 'true', allow_failure: 'yes' }] }] },
        message: ': /turns/0/actions/0/allow_failure: must be true or false, not a string',
      },
      {
        name: 'two actions in one object',
        script: { turns: [{ actions: [{ say: 'a', stop: 'b' }] }] },
        message: ': /turns/0/actions/0: one action per object, found say and stop',
      },
      {
        name: 'a field the action does not take',
        script: { turns: [{ actions: [{ write: 'a', content: 'x', mode: 1 }] }] },
        message:
          ': /turns/0/actions/0/mode: "mode" is not a field of a write action (it takes content)',
      },
      {
        name: 'a missing content',
        script: { turns: [{ actions: [{ append: 'a' }] }] },
        message: ': /turns/0/actions/0: an append action needs "content"',
      },
      {
        name: 'a negative sleep',
        script: { turns: [{ actions: [{ sleep: -1 }] }] },
        message: ': /turns/0/actions/0/sleep: must be a number of seconds >= 0, not -1',
      },
      {
        name: 'a bad nested action',
        script: { turns: [{ actions: [{ if_exists: 'a', then: [{ delete: '' }] }] }] },
        message: ': /turns/0/actions/0/then/0/delete: must not be empty',
      },
      {
        name: 'a two-line stop kind',
        script: { turns: [{ actions: [{ stop: 'a\nb' }] }] },
        message: ': /turns/0/actions/0/stop: a stop kind is one line',
      },
    ];
    for (const c of cases) {
      it(`refuses ${c.name}`, async () => {
        const dir = await repo();
        const file = await script(c.script);
        // The first turn is good in some cases: the whole script is checked before playing.
        const r = await play(dir, file, 1);
        expect(r.exitCode).to.equal(2);
        const expected = `evalrig-agent: ${file}${c.message}`;
        // JSON.parse's own wording follows the prefix for invalid JSON.
        if (c.name === 'invalid JSON')
          expect(r.stderr.startsWith(expected), r.stderr).to.equal(true);
        else expect(r.stderr).to.equal(`${expected}\n`);
        expect(r.stdout).to.equal('');
        expect((await execa('git', ['status', '--porcelain'], { cwd: dir })).stdout).to.equal('');
      });
    }

    it('refuses an unreadable script, naming it', async () => {
      const dir = await repo();
      const r = await play(dir, path.join(scratch, 'nope.json'), 1);
      expect(r.exitCode).to.equal(2);
      expect(r.stderr).to.match(/nope\.json: \(document\): cannot read the script: ENOENT/);
    });

    it('refuses a missing --script or a bad --turn', async () => {
      const dir = await repo();
      const s = await script({ turns: [] });
      const noScript = await execa('node', [agent, '--turn', '1'], { cwd: dir, reject: false });
      expect(noScript.exitCode).to.equal(2);
      expect(noScript.stderr).to.include('--script is required');
      for (const turn of ['0', 'two', '-1', '1.5']) {
        const r = await play(dir, s, turn);
        expect(r.exitCode, turn).to.equal(2);
        expect(r.stderr).to.include(`--turn must be a whole number from 1, not "${turn}"`);
      }
    });
  });

  describe('determinism', () => {
    it('gives the same files, commits and output twice', async () => {
      const s = await script({
        turns: [
          {
            actions: [
              { write: 'a.txt', content: 'a {turn}\n' },
              { run: 'git add -A && git commit -qm "turn {turn}" && git rev-parse HEAD' },
              { if_exists: 'a.txt', then: [{ append: 'a.txt', content: 'more\n' }] },
              { say: 'done {prompt}' },
              { stop: 'done' },
            ],
          },
        ],
      });
      const outcome = async () => {
        const dir = await repo('det');
        const r = await play(dir, s, 1, '--prompt', 'p');
        const head = (await execa('git', ['rev-parse', 'HEAD'], { cwd: dir })).stdout;
        return {
          code: r.exitCode,
          out: r.stdout,
          err: r.stderr,
          head,
          a: await read(dir, 'a.txt'),
          kind: await stopKind(dir),
        };
      };
      const first = await outcome();
      expect(first.code, first.err).to.equal(0);
      expect(await outcome()).to.deep.equal(first);
    });
  });

  describe('script.schema.json', () => {
    it('accepts the README example and refuses what the agent refuses', async () => {
      const schema = JSON.parse(
        await readFile(path.join(PROJECT_ROOT, 'stand-in/agent/script.schema.json'), 'utf8'),
      ) as object;
      const validate = new Ajv2020({ allErrors: true, strict: true }).compile(schema);
      const readme = await readFile(path.join(PROJECT_ROOT, 'stand-in/agent/README.md'), 'utf8');
      const example = /## The script\n\n```json\n([\s\S]*?)\n```/.exec(readme)?.[1];
      expect(example, 'README example').to.be.a('string');
      const parsed = JSON.parse(example!) as unknown;
      expect(validate(parsed), JSON.stringify(validate.errors)).to.equal(true);
      for (const c of cases()) expect(validate(c), JSON.stringify(c)).to.equal(false);

      // And the agent plays the same example (absent skill, failing npm test allowed).
      const dir = await repo();
      const file = await script(parsed);
      const r = await play(dir, file, 1, '--prompt', 'x');
      expect(r.exitCode, r.stderr).to.not.equal(2);
    });
  });
});

/** Bad scripts the schema must refuse too. */
function cases(): unknown[] {
  return [
    {},
    { turns: [], extra: 1 },
    { turns: [{ actions: [{ wirte: 'a', content: '' }] }] },
    { turns: [{ actions: [{ run: 'true', allow_failure: 'yes' }] }] },
    { turns: [{ actions: [{ say: 'a', stop: 'b' }] }] },
    { turns: [{ actions: [{ write: 'a', content: 'x', mode: 1 }] }] },
    { turns: [{ actions: [{ append: 'a' }] }] },
    { turns: [{ actions: [{ sleep: -1 }] }] },
    { turns: [{ actions: [{ if_exists: 'a', then: [{ delete: '' }] }] }] },
    { turns: [{ actions: [{ stop: 'a\nb' }] }] },
  ];
}
