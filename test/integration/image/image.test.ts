import { expect } from 'chai';
import { execa } from 'execa';
import { createReadStream, createWriteStream } from 'node:fs';
import {
  chmod,
  copyFile,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { extract } from 'tar-fs';
import {
  BaseImageMissingError,
  ContextFileMissingError,
  ImageBuildError,
  IMAGE_LABELS,
  LOCAL_BASE_IMAGE,
  defaultBaseImage,
  defaultSources,
  ensureTestImage,
  packTestImageContext,
  readTestImageContext,
  sha256,
  testImageContextHash,
  type TestImageSources,
} from '../../../src/image/index.js';
import {
  LABELS,
  pingDocker,
  removeContainers,
  startContainer,
  type DockerClient,
  type RunContainer,
} from '../../../src/runtime/index.js';
import { BASE_IMAGE, TEST_CAMPAIGN, testDocker, requireDocker } from '../../support/docker.js';
import { PROJECT_ROOT, bundleStandIn } from '../agent/bundle.js';

const client = testDocker();
const labels = { [LABELS.campaign]: TEST_CAMPAIGN };
const quiet = () => {};

let scratch: string;
let sources: TestImageSources;

/** The same client with its buildImage counted: proves that no build happened. */
function countingBuilds(real: DockerClient): { client: DockerClient; builds: () => number } {
  let builds = 0;
  const docker = new Proxy(real.docker, {
    get(target, prop, receiver) {
      if (prop === 'buildImage') {
        return (...args: Parameters<typeof target.buildImage>) => {
          builds += 1;
          return target.buildImage(...args);
        };
      }
      return Reflect.get(target, prop, receiver) as unknown;
    },
  });
  return { client: { docker, where: real.where }, builds: () => builds };
}

/** Every file (not folder) under `dir`, relative, sorted. */
async function filesUnder(dir: string, prefix = ''): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(path.join(dir, prefix), { withFileTypes: true })) {
    const rel = path.join(prefix, entry.name);
    if (entry.isDirectory()) found.push(...(await filesUnder(dir, rel)));
    else found.push(rel);
  }
  return found.sort();
}

/** A Dockerfile of our own in the scratch folder, with the real bundles. */
async function withDockerfile(text: string): Promise<TestImageSources> {
  const file = path.join(await mkdtemp(path.join(scratch, 'df-')), 'Dockerfile');
  await writeFile(file, text);
  return { ...sources, dockerfile: file };
}

describe('test image (src/image, docker/Dockerfile)', function () {
  before(requireDocker);
  this.timeout(300_000);

  before(async () => {
    await pingDocker(client);
    scratch = await mkdtemp(path.join(tmpdir(), 'evalrig-image-test-'));
    // Bundled from the current sources, as `npm run build` does.
    // The real Dockerfile with one comment more: its own tag, so that the forced build below
    // never swaps the image behind the tag that campaigns on this engine are using.
    const dockerfile = path.join(scratch, 'Dockerfile');
    const real = await readFile(path.join(PROJECT_ROOT, 'docker', 'Dockerfile'), 'utf8');
    await writeFile(dockerfile, `${real}\n# the image test's own copy\n`);
    sources = {
      dockerfile,
      standIn: await bundleStandIn('gh', path.join(scratch, 'dist', 'gh')),
      agent: await bundleStandIn('agent', path.join(scratch, 'dist', 'agent')),
    };
  });
  after(async () => {
    await removeContainers(client, labels);
    await rm(scratch, { recursive: true, force: true });
  });

  describe('building', () => {
    it('builds from the Dockerfile and both bundles, tagged by content and labelled', async () => {
      const progress: string[] = [];
      const image = await ensureTestImage(client, {
        baseImage: BASE_IMAGE,
        sources,
        force: true,
        onProgress: (line) => progress.push(line),
      });
      expect(image.built).to.equal(true);
      expect(image.tag).to.match(/^evalrig-test:[0-9a-f]{12}$/);
      expect(image.baseImage).to.equal(BASE_IMAGE);
      expect(image.standInSha256).to.equal(sha256(await readFile(sources.standIn)));
      expect(image.agentSha256).to.equal(sha256(await readFile(sources.agent)));
      expect(progress.join('\n')).to.include(`Successfully tagged ${image.tag}`);

      const info = await client.docker.getImage(image.tag).inspect();
      expect(info.Id).to.equal(image.id);
      expect(info.Config.User).to.equal('evalrig');
      expect(info.Config.WorkingDir).to.equal('/work');
      expect(info.Config.Labels).to.include({
        [LABELS.managed]: 'true',
        [IMAGE_LABELS.image]: 'test',
        [IMAGE_LABELS.standIn]: image.standInSha256,
        [IMAGE_LABELS.agent]: image.agentSha256,
        [IMAGE_LABELS.base]: BASE_IMAGE,
      });
      expect(info.Config.Labels[IMAGE_LABELS.context]?.slice(0, 12)).to.equal(
        image.tag.split(':')[1],
      );
      const pathVar = info.Config.Env.find((e) => e.startsWith('PATH='));
      expect(pathVar).to.match(/^PATH=\/opt\/gh-stand-in:\/opt\/evalrig\/bin:/);
    });

    it('reuses the image when nothing changed: no build at all', async () => {
      const first = await ensureTestImage(client, {
        baseImage: BASE_IMAGE,
        sources,
        onProgress: quiet,
      });
      const counting = countingBuilds(client);
      const progress: string[] = [];
      const again = await ensureTestImage(counting.client, {
        baseImage: BASE_IMAGE,
        sources,
        onProgress: (line) => progress.push(line),
      });
      expect(again.built).to.equal(false);
      expect(again.tag).to.equal(first.tag);
      expect(again.id).to.equal(first.id);
      expect(counting.builds()).to.equal(0);
      expect(progress).to.deep.equal([]);
    });

    it('gives another tag when a bundle, the Dockerfile or the base changes', async () => {
      const files = await readTestImageContext(sources);
      const base = (await client.docker.getImage(BASE_IMAGE).inspect()).Id;
      const args = { BASE_IMAGE };
      const hash = testImageContextHash(files, base, args);
      expect(hash).to.match(/^[0-9a-f]{64}$/);
      expect(testImageContextHash([...files].reverse(), base, args)).to.equal(hash);

      const agentCopy = path.join(scratch, 'agent-changed');
      await copyFile(sources.agent, agentCopy);
      await writeFile(agentCopy, '\n// changed\n', { flag: 'a' });
      const changed = await readTestImageContext({ ...sources, agent: agentCopy });
      expect(testImageContextHash(changed, base, args)).to.not.equal(hash);

      const df = await withDockerfile(`${await readFile(sources.dockerfile, 'utf8')}\n# changed\n`);
      expect(testImageContextHash(await readTestImageContext(df), base, args)).to.not.equal(hash);
      expect(testImageContextHash(files, 'sha256:other', args)).to.not.equal(hash);
      expect(testImageContextHash(files, base, { BASE_IMAGE: 'other:tag' })).to.not.equal(hash);
    });

    it('packs a context holding only the Dockerfile and the two bundles', async () => {
      const files = await readTestImageContext(sources);
      const packed = await packTestImageContext(files);
      const tarFile = path.join(scratch, 'context.tar');
      const out = await mkdtemp(path.join(scratch, 'context-'));
      try {
        await pipeline(packed.stream, createWriteStream(tarFile));
      } finally {
        await packed.dispose();
      }
      await pipeline(createReadStream(tarFile), extract(out));
      expect(await filesUnder(out)).to.deep.equal([
        'Dockerfile',
        'bin/evalrig-agent',
        'gh-stand-in/gh',
      ]);
      expect(await readFile(path.join(out, 'gh-stand-in/gh'))).to.deep.equal(
        await readFile(sources.standIn),
      );
      expect((await stat(path.join(out, 'bin/evalrig-agent'))).mode & 0o777).to.equal(0o755);
      const listing = await execa('tar', ['-tvf', tarFile]);
      expect(listing.stdout).to.not.match(/node_modules|src\/|\.git/);
    });
  });

  describe('the base image and the CLI', () => {
    it('takes EVALRIG_BASE_IMAGE, else the local base when the engine has it', async () => {
      expect(await defaultBaseImage(client, { EVALRIG_BASE_IMAGE: 'my/base:1' })).to.equal(
        'my/base:1',
      );
      // The local base exists on every machine the tests run on (scripts/base-image.sh).
      expect(await defaultBaseImage(client, {})).to.equal(LOCAL_BASE_IMAGE);
    });

    it('evalrig image build prints the tag, built or reused', async function () {
      const dist = defaultSources();
      const bundled = await Promise.all(
        [dist.standIn, dist.agent].map((f) =>
          stat(f).then(
            () => true,
            () => false,
          ),
        ),
      );
      // The CLI reads the bundles of `npm run build`; without them it has nothing to build.
      if (!bundled.every(Boolean)) this.skip();
      const cli = (...args: string[]) =>
        execa(
          'node',
          [
            '--import',
            'tsx',
            path.join(PROJECT_ROOT, 'src/cli/main.ts'),
            'image',
            'build',
            ...args,
          ],
          {
            cwd: PROJECT_ROOT,
            reject: false,
            stripFinalNewline: false,
            env: { EVALRIG_BASE_IMAGE: BASE_IMAGE },
          },
        );
      await cli();
      const again = await cli();
      expect(again.exitCode, again.stderr).to.equal(0);
      expect(again.stdout).to.match(
        /^evalrig-test:[0-9a-f]{12} reused \(already built, same content\)\n$/,
      );
      const absent = await cli('--base', 'evalrig-absent:none');
      expect(absent.exitCode).to.equal(1);
      expect(absent.stderr).to.equal(
        'evalrig: base image evalrig-absent:none is not present: run scripts/base-image.sh or set EVALRIG_BASE_IMAGE\n',
      );
    });
  });

  describe('failures', () => {
    it('fails with the builder message when a step fails (error line inside the 200 stream)', async () => {
      const df = await withDockerfile(
        'ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\nRUN echo broken >&2; exit 3\n',
      );
      const error = await ensureTestImage(client, {
        baseImage: BASE_IMAGE,
        sources: df,
        onProgress: quiet,
      }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(ImageBuildError);
      expect((error as ImageBuildError).builderMessage).to.equal(
        "The command '/bin/sh -c echo broken >&2; exit 3' returned a non-zero code: 3",
      );
      expect((error as Error).message).to.match(
        /^building evalrig-test:[0-9a-f]{12} failed: The command/,
      );
    });

    it('fails with the builder message for a Dockerfile it cannot parse', async () => {
      const df = await withDockerfile('ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\nFROBNICATE now\n');
      const error = await ensureTestImage(client, {
        baseImage: BASE_IMAGE,
        sources: df,
        onProgress: quiet,
      }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(ImageBuildError);
      expect((error as ImageBuildError).builderMessage).to.equal(
        'dockerfile parse error line 3: unknown instruction: FROBNICATE',
      );
    });

    it('refuses a base image the engine does not have, saying what to do', async () => {
      const counting = countingBuilds(client);
      const error = await ensureTestImage(counting.client, {
        baseImage: 'evalrig-absent:none',
        sources,
        onProgress: quiet,
      }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(BaseImageMissingError);
      expect((error as Error).message).to.equal(
        'base image evalrig-absent:none is not present: run scripts/base-image.sh or set EVALRIG_BASE_IMAGE',
      );
      expect(counting.builds()).to.equal(0);
    });

    it('refuses a missing bundle before any build, naming it and the build that writes it', async () => {
      const missing = path.join(scratch, 'no-such', 'gh');
      const error = await ensureTestImage(client, {
        baseImage: BASE_IMAGE,
        sources: { ...sources, standIn: missing },
      }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).to.be.instanceOf(ContextFileMissingError);
      expect((error as Error).message).to.equal(
        `${missing} is missing: the gh stand-in is not bundled: run \`npm run build\` (it bundles stand-in/<name>/main.ts)`,
      );
    });
  });

  describe('a container of the image (network none, a mounted repository)', () => {
    let run: RunContainer;
    let root: string;
    const work = '/work/toy';
    const sh = (script: string, stdin?: string) =>
      run.exec(['sh', '-c', script], { workingDir: work, stdin, timeoutMs: 60_000 });

    before(async () => {
      const image = await ensureTestImage(client, {
        baseImage: BASE_IMAGE,
        sources,
        onProgress: quiet,
      });
      root = await mkdtemp(path.join(scratch, 'mount-'));
      const bare = path.join(root, 'remote', 'acme', 'toy.git');
      const tree = path.join(root, 'toy');
      const git = (cwd: string, ...args: string[]) => execa('git', args, { cwd });
      await mkdir(bare, { recursive: true });
      await git(bare, 'init', '-q', '--bare', '-b', 'main');
      await git(root, 'init', '-q', '-b', 'main', tree);
      await git(tree, 'config', 'user.name', 'Tester');
      await git(tree, 'config', 'user.email', 'tester@example.invalid');
      await writeFile(path.join(tree, 'README.md'), '# toy\n');
      await git(tree, 'add', '.');
      await git(tree, 'commit', '-qm', 'start');
      await git(tree, 'remote', 'add', 'origin', bare);
      await git(tree, 'push', '-q', 'origin', 'main');
      // Inside the container the remote is at its mount point.
      await git(tree, 'remote', 'set-url', 'origin', '/remote/acme/toy.git');
      // The container user is uid 1000: the mounted folders must be its own.
      await execa('chown', ['-R', '1000:1000', root]);
      await chmod(root, 0o755);
      run = await startContainer(client, {
        image: image.tag,
        labels,
        binds: [
          { host: tree, container: work },
          { host: path.join(root, 'remote'), container: '/remote' },
        ],
      });
    });
    after(async () => {
      await run?.remove();
    });

    it('runs as uid 1000 with network none, gh being the stand-in and the agent on PATH', async () => {
      expect((await sh('id -u; id -g; echo "$HOME"')).stdout).to.equal(
        '1000\n1000\n/home/evalrig\n',
      );
      expect((await sh('command -v gh')).stdout).to.equal('/opt/gh-stand-in/gh\n');
      // A login shell (Codex runs its commands in `bash -lc`) resets PATH from /etc/profile.
      const login = await run.exec(['bash', '-lc', 'command -v gh evalrig-agent']);
      expect(login.stdout).to.equal('/opt/gh-stand-in/gh\n/opt/evalrig/bin/evalrig-agent\n');
      expect((await sh('command -v evalrig-agent')).stdout).to.equal(
        '/opt/evalrig/bin/evalrig-agent\n',
      );
      expect((await sh('ls /sys/class/net')).stdout.trim()).to.equal('lo');
      const help = await sh('evalrig-agent --help');
      expect(help.exitCode, help.stderr).to.equal(0);
    });

    it('plays push + pr create --draft --body-file - + pr list + pr edit, recorded in the mounted git dir', async () => {
      const push = await sh(
        'git checkout -q -b feature && echo change > change.txt && git add change.txt && ' +
          'git commit -qm change && git push -q -u origin feature',
      );
      expect(push.exitCode, push.stderr).to.equal(0);

      const create = await sh(
        'gh pr create --draft --title "Add change" --body-file -',
        'The plan.\n',
      );
      expect(create.exitCode, create.stderr).to.equal(0);
      expect(create.stdout).to.equal('https://github.com/acme/toy/pull/1\n');

      const list = await sh('gh pr list --json number,isDraft');
      expect(list.exitCode, list.stderr).to.equal(0);
      expect(JSON.parse(list.stdout)).to.deep.equal([{ isDraft: true, number: 1 }]);

      const edit = await sh('gh pr edit --body "The final description."');
      expect(edit.exitCode, edit.stderr).to.equal(0);
      expect(edit.stdout).to.equal('https://github.com/acme/toy/pull/1\n');

      const view = await sh('gh pr view --json body,isDraft');
      expect(JSON.parse(view.stdout)).to.deep.equal({
        body: 'The final description.',
        isDraft: true,
      });

      // Read on the host, in the mounted repository's git directory.
      const record = await readFile(
        path.join(root, 'toy', '.git', 'gh-stand-in', 'calls.jsonl'),
        'utf8',
      );
      const calls = record
        .trim()
        .split('\n')
        .map(
          (line) =>
            JSON.parse(line) as {
              command: string;
              exit_code: number;
              played: boolean;
              stdin: string | null;
              description: string | null;
            },
        );
      expect(calls.map((c) => c.command)).to.deep.equal([
        'pr create',
        'pr list',
        'pr edit',
        'pr view',
      ]);
      expect(calls.every((c) => c.played && c.exit_code === 0)).to.equal(true);
      expect(calls[0]?.stdin).to.equal('The plan.\n');
      expect(calls[0]?.description).to.equal('The plan.\n');
      expect(calls[2]?.description).to.equal('The final description.');
      const status = await sh('git status --porcelain');
      expect(status.stdout).to.equal('');
    });
  });
});
