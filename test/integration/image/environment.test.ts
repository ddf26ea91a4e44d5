import { expect } from 'chai';
import { execa } from 'execa';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  readlink,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  ensureEnvironmentImage,
  ensureSetupOutput,
  ensureTestImage,
  IMAGE_LABELS,
  ImageBuildError,
  placeSetupOutput,
  SetupError,
  type EnsureSetupOptions,
} from '../../../src/image/index.js';
import { setupRunnerOf } from '../../../src/campaign/setup-runner.js';
import { LABELS, removeContainers, runOnce } from '../../../src/runtime/index.js';
import { LocalDockerProvider, RemoteDockerProvider } from '../../../src/sandbox/index.js';
import { BASE_IMAGE, TEST_CAMPAIGN, requireDocker, testDocker } from '../../support/docker.js';

const client = testDocker();
const labels = { [LABELS.campaign]: TEST_CAMPAIGN };
const quiet = (): void => {};

/** Images this file built (unique content per process), removed at the end. */
const built = new Set<string>();

async function gitIn(cwd: string, ...args: string[]): Promise<string> {
  const r = await execa('git', args, {
    cwd,
    env: {
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  });
  return r.stdout;
}

describe('environment images and setup (src/image)', function () {
  this.timeout(600_000);
  let scratch: string;
  let context: string;
  let nonce: string;

  before(requireDocker);
  before(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'evalrig-envimage-'));
    context = path.join(scratch, 'env');
    nonce = randomBytes(8).toString('hex');
    await mkdir(path.join(context, 'docker'), { recursive: true });
    // No RUN step: the build needs no container, so no network, and is quick.
    await writeFile(
      path.join(context, 'docker', 'Dockerfile'),
      'ARG BASE_IMAGE=none\nFROM ${BASE_IMAGE}\nCOPY hello.txt /opt/env/hello.txt\n',
    );
    await writeFile(path.join(context, 'hello.txt'), `hello ${nonce}\n`);
  });
  after(async () => {
    await removeContainers(client, labels);
    for (const tag of built) {
      await client.docker
        .getImage(tag)
        .remove({ force: true })
        .catch(() => undefined);
    }
    await rm(scratch, { recursive: true, force: true });
  });

  describe('ensureEnvironmentImage', () => {
    it('builds the Dockerfile over BASE_IMAGE from its context, then finds it by content', async () => {
      const options = {
        dockerfile: path.join(context, 'docker', 'Dockerfile'),
        context,
        baseImage: BASE_IMAGE,
        onProgress: quiet,
      };
      const first = await ensureEnvironmentImage(client, options);
      built.add(first.tag);
      expect(first.built).to.equal(true);
      expect(first.tag).to.equal(`evalrig-env:${first.hash.slice(0, 12)}`);
      expect(first.baseImage).to.equal(BASE_IMAGE);
      expect(first.baseId).to.equal((await client.docker.getImage(BASE_IMAGE).inspect()).Id);
      const info = await client.docker.getImage(first.tag).inspect();
      expect(info.Id).to.equal(first.id);
      expect(info.Config.Labels).to.include({
        [IMAGE_LABELS.image]: 'environment',
        [IMAGE_LABELS.context]: first.hash,
        [IMAGE_LABELS.base]: BASE_IMAGE,
      });

      const again = await ensureEnvironmentImage(client, options);
      expect(again).to.include({ built: false, tag: first.tag, id: first.id, buildMs: 0 });

      // A byte changed in the context is another image.
      await writeFile(path.join(context, 'hello.txt'), `hello again ${nonce}\n`);
      const changed = await ensureEnvironmentImage(client, options);
      built.add(changed.tag);
      expect(changed.built).to.equal(true);
      expect(changed.tag).to.not.equal(first.tag);
    });

    it("gets evalrig's layers on top: the stand-in, the agent and user evalrig over the environment", async () => {
      const env = await ensureEnvironmentImage(client, {
        dockerfile: path.join(context, 'docker', 'Dockerfile'),
        context,
        baseImage: BASE_IMAGE,
        onProgress: quiet,
      });
      built.add(env.tag);
      const image = await ensureTestImage(client, { baseImage: env.tag, onProgress: quiet });
      built.add(image.tag);
      const r = await runOnce(client, { image: image.tag, labels }, [
        'sh',
        '-c',
        'cat /opt/env/hello.txt; command -v gh; command -v evalrig-agent; id -u',
      ]);
      expect(r.exitCode, r.stderr).to.equal(0);
      expect(r.stdout).to.equal(
        `hello again ${nonce}\n/opt/gh-stand-in/gh\n/opt/evalrig/bin/evalrig-agent\n1000\n`,
      );
    });

    it("fails with the builder's own message, naming the image", async () => {
      const dockerfile = path.join(context, 'docker', 'Broken.Dockerfile');
      await writeFile(dockerfile, 'ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\nCOPY missing.txt /x\n');
      try {
        await ensureEnvironmentImage(client, {
          dockerfile,
          context,
          baseImage: BASE_IMAGE,
          onProgress: quiet,
        });
      } catch (error) {
        expect(error).to.be.instanceOf(ImageBuildError);
        expect((error as Error).message).to.match(/^building evalrig-env:[0-9a-f]{12} failed: /);
        expect((error as Error).message).to.include('missing.txt');
        return;
      } finally {
        await rm(dockerfile);
      }
      expect.fail('the build succeeded');
    });
  });

  describe('ensureSetupOutput and placeSetupOutput', () => {
    let repo: string;
    let cachePath: string;
    let commit: string;
    let image: { tag: string; id: string };
    let setupCache: string;
    const asRoot = process.getuid?.() === 0;

    before(async () => {
      repo = path.join(scratch, 'repo');
      await mkdir(repo);
      await gitIn(repo, 'init', '-q', '-b', 'main');
      await writeFile(path.join(repo, '.gitignore'), 'out/\n*.log\n');
      await writeFile(path.join(repo, 'README'), 'tracked\n');
      await gitIn(repo, 'add', '.');
      await gitIn(repo, 'commit', '-qm', 'first');
      commit = await gitIn(repo, 'rev-parse', 'HEAD');
      cachePath = path.join(scratch, 'cache.git');
      await gitIn(scratch, 'clone', '-q', '--bare', repo, cachePath);
      const test = await ensureTestImage(client, { baseImage: BASE_IMAGE, onProgress: quiet });
      image = { tag: test.tag, id: test.id };
      setupCache = path.join(scratch, 'setup-cache');
    });

    function options(commands: string[]): EnsureSetupOptions {
      return {
        runner: setupRunnerOf(new LocalDockerProvider(client)),
        image: image.tag,
        imageId: image.id,
        commands,
        commit,
        cachePath,
        containerWorkTree: '/work/proj',
        cacheDir: setupCache,
        user: asRoot ? '1000:1000' : `${process.getuid?.()}:${process.getgid?.()}`,
        home: asRoot ? '/home/evalrig' : '/tmp/evalrig-home',
        labels,
        onProgress: quiet,
      };
    }

    const commands = [
      'mkdir -p out/deep && pwd > out/deep/where.txt',
      'echo debug > debug.log && ln -s /etc out/etc-link',
      'echo changed >> README && echo new > untracked.txt',
    ];

    it('runs once per commit and image, keeping only what the codebase ignores', async () => {
      const first = await ensureSetupOutput(options(commands));
      expect(first.ran).to.equal(true);
      expect(first.entries).to.deep.equal(['debug.log', 'out']);
      expect(await readFile(path.join(first.filesDir, 'out/deep/where.txt'), 'utf8')).to.equal(
        '/work/proj\n',
      );
      expect((await readdir(first.filesDir)).sort()).to.deep.equal(['debug.log', 'out']);
      expect(await readdir(setupCache)).to.deep.equal([first.key]);

      const second = await ensureSetupOutput(options(commands));
      expect(second).to.deep.include({ ran: false, key: first.key, entries: first.entries });
      expect(second.setupMs).to.equal(0);
    });

    it('keeps the same output through a provider that copies the checkout in and back (a remote or rootless engine)', async () => {
      const copying = new RemoteDockerProvider({ client, name: 'copying' });
      const mounted = await ensureSetupOutput(options(commands));
      const copied = await ensureSetupOutput({
        ...options(commands),
        runner: setupRunnerOf(copying),
        cacheDir: path.join(scratch, 'setup-cache-copied'),
      });
      expect(copied).to.deep.include({ ran: true, key: mounted.key, entries: mounted.entries });
      expect(await readFile(path.join(copied.filesDir, 'out/deep/where.txt'), 'utf8')).to.equal(
        '/work/proj\n',
      );
      expect(await readlink(path.join(copied.filesDir, 'out/etc-link'))).to.equal('/etc');
    });

    it('copies the output into a work tree: present, ignored, links kept as links, placed paths win', async () => {
      const output = await ensureSetupOutput(options(commands));
      const work = path.join(scratch, 'work');
      await gitIn(scratch, 'clone', '-q', cachePath, work);
      await mkdir(path.join(work, 'out/deep'), { recursive: true });
      await writeFile(path.join(work, 'out/deep/where.txt'), 'placed by the eval\n');
      await placeSetupOutput(output, work, ['out/deep/where.txt']);
      expect(await readFile(path.join(work, 'out/deep/where.txt'), 'utf8')).to.equal(
        'placed by the eval\n',
      );
      expect(await readFile(path.join(work, 'debug.log'), 'utf8')).to.equal('debug\n');
      expect((await lstat(path.join(work, 'out/etc-link'))).isSymbolicLink()).to.equal(true);
      expect(await readlink(path.join(work, 'out/etc-link'))).to.equal('/etc');
      expect(await readFile(path.join(work, 'README'), 'utf8')).to.equal('tracked\n');
      expect(await gitIn(work, 'status', '--porcelain')).to.equal('');

      const plain = path.join(scratch, 'work-plain');
      await gitIn(scratch, 'clone', '-q', cachePath, plain);
      await placeSetupOutput(output, plain);
      expect(await readFile(path.join(plain, 'out/deep/where.txt'), 'utf8')).to.equal(
        '/work/proj\n',
      );
    });

    it('links the files instead when asked (a run behind an overlay), copying across filesystems', async () => {
      const output = await ensureSetupOutput(options(commands));
      const work = path.join(scratch, 'work-linked');
      await gitIn(scratch, 'clone', '-q', cachePath, work);
      const placed = await placeSetupOutput(output, work, [], { link: true });
      expect(placed.linked).to.equal(true);
      const kept = await stat(path.join(output.filesDir, 'out/deep/where.txt'));
      const seen = await stat(path.join(work, 'out/deep/where.txt'));
      expect(seen.ino).to.equal(kept.ino);
      expect(await gitIn(work, 'status', '--porcelain')).to.equal('');

      // Another filesystem (a tmpfs) cannot hold a link: the files are copied.
      if (!existsSync('/dev/shm')) return;
      const other = await mkdtemp('/dev/shm/evalrig-envimage-');
      try {
        await gitIn(other, 'clone', '-q', cachePath, 'work');
        const copied = await placeSetupOutput(output, path.join(other, 'work'), [], {
          link: true,
        });
        expect(copied.linked).to.equal(false);
        const there = await stat(path.join(other, 'work/out/deep/where.txt'));
        expect(there.ino).to.not.equal(kept.ino);
        expect(await readFile(path.join(other, 'work/out/deep/where.txt'), 'utf8')).to.equal(
          '/work/proj\n',
        );
      } finally {
        await rm(other, { recursive: true, force: true });
      }
    });

    it('fails with the failing command and its output, keeping nothing', async () => {
      const before = await readdir(setupCache);
      try {
        await ensureSetupOutput(options(['echo before-the-failure', 'exit 7', 'echo never']));
      } catch (error) {
        expect(error).to.be.instanceOf(SetupError);
        const message = (error as Error).message;
        expect(message).to.include('failed (exit 7)');
        expect(message).to.include('before-the-failure');
        expect(message).to.include('setup command failed (exit 7): exit 7');
        expect(message).to.not.include('never');
        // The container's log frames are unwrapped: no header bytes in the text.
        expect([...message].some((c) => c.charCodeAt(0) < 9)).to.equal(false);
        expect(await readdir(setupCache)).to.deep.equal(before);
        return;
      }
      expect.fail('the setup succeeded');
    });
  });
});
