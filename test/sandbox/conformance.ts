import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import {
  chown,
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  readlink,
  rm,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pack } from 'tar-stream';
import { buildImageFrom } from '../../src/image/build.js';
import { CreationGate } from '../../src/runtime/index.js';
import {
  LABELS,
  ProviderClosedError,
  RemoteDockerProvider,
  SandboxError,
  SandboxFileError,
  type Sandbox,
  type SandboxProvider,
  type SandboxSpec,
} from '../../src/sandbox/index.js';

/** A build context of one Dockerfile. */
function contextOf(dockerfile: string): NodeJS.ReadableStream {
  const archive = pack();
  archive.entry({ name: 'Dockerfile' }, dockerfile);
  archive.finalize();
  return archive as unknown as NodeJS.ReadableStream;
}

/**
 * What a backend gives the suite: its provider, an image it can run (sh and
 * GNU coreutils/findutils: the base image), and labels every sandbox of the
 * suite carries, so the suite reaps only its own.
 */
export interface ConformanceTarget {
  readonly provider: SandboxProvider;
  readonly image: string;
  readonly labels: Readonly<Record<string, string>>;
  /**
   * Another provider of the same backend, every container it creates carrying
   * `labels` (its client's: a session of its own), for the provider lifecycle
   * cases to open and close.
   */
  readonly another: (labels: Readonly<Record<string, string>>) => SandboxProvider;
  /** Called once after the suite (a second engine stopped, a client closed). */
  readonly close?: () => Promise<void>;
  /**
   * The backend runs every exec as the spec's exec user and writes files as it
   * (Kubernetes: no per-exec user, non-root pods). An exec as another user and
   * a file owned by another are then refused with a SandboxError, not done.
   */
  readonly onlyExecUser?: boolean;
}

/**
 * Another remote provider over `provider`'s engine (its connection shared), every
 * creation carrying `labels` behind a creation gate of its own.
 */
export function anotherOn(
  provider: RemoteDockerProvider,
  labels: Readonly<Record<string, string>>,
): SandboxProvider {
  return new RemoteDockerProvider({
    client: { ...provider.client, labels, gate: new CreationGate() },
    name: provider.name,
  });
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  return p.then(
    () => undefined,
    (e: unknown) => e,
  );
}

/** The agent's uid and the keeper's (the main process), as campaigns run them. */
const AGENT = { uid: 1000, gid: 1000 };
const AGENT_USER = '1000:1000';
const KEEPER_USER = '65534:65534';

/** A promise's outcome within `ms`, or 'pending': what "does not hang" is checked with. */
async function within<T>(p: Promise<T>, ms: number): Promise<'settled' | 'pending'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'pending'>((resolve) => {
    timer = setTimeout(() => resolve('pending'), ms);
  });
  try {
    return await Promise.race([
      p.then(
        () => 'settled' as const,
        () => 'settled' as const,
      ),
      late,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

async function refusal(p: Promise<unknown>): Promise<SandboxFileError> {
  const error = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, 'refused').to.be.instanceOf(SandboxFileError);
  return error as SandboxFileError;
}

/** One entry of a tree as both sides describe it: type, permission bits, content or link target. */
type Listing = Record<string, string>;

/** The host folder's tree, read without following a link. */
async function hostListing(root: string): Promise<Listing> {
  const out: Listing = {};
  const walk = async (rel: string): Promise<void> => {
    for (const name of (await readdir(path.join(root, rel))).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      const abs = path.join(root, r);
      const info = await lstat(abs);
      const mode = (info.mode & 0o7777).toString(8);
      if (info.isSymbolicLink()) out[r] = `link ${await readlink(abs)}`;
      else if (info.isDirectory()) {
        out[r] = `dir ${mode}`;
        await walk(r);
      } else if (info.isFile()) {
        const sha = createHash('sha256')
          .update(await readFile(abs))
          .digest('hex');
        out[r] = `file ${mode} ${sha}`;
      } else out[r] = 'other';
    }
  };
  await walk('');
  return out;
}

/** The same listing, made inside the sandbox (GNU find and sha256sum). */
const SANDBOX_LISTING = `cd "$1" && find . -mindepth 1 -printf '%y %m %P\\0' |
while IFS= read -r -d '' rec; do
  t=\${rec%% *}; rest=\${rec#* }; m=\${rest%% *}; p=\${rest#* }
  case $t in
    l) printf '%s\\tlink %s\\n' "$p" "$(readlink -- "$p")" ;;
    d) printf '%s\\tdir %s\\n' "$p" "$m" ;;
    f) printf '%s\\tfile %s %s\\n' "$p" "$m" "$(sha256sum < "$p" | cut -d' ' -f1)" ;;
    *) printf '%s\\tother\\n' "$p" ;;
  esac
done`;

async function sandboxListing(sandbox: Sandbox, at: string): Promise<Listing> {
  const r = await sandbox.exec(['bash', '-c', SANDBOX_LISTING, 'list', at]);
  expect(r.exitCode, r.stderr).to.equal(0);
  const out: Listing = {};
  for (const line of r.stdout.split('\n').filter(Boolean)) {
    const tab = line.indexOf('\t');
    out[line.slice(0, tab)] = line.slice(tab + 1);
  }
  return out;
}

/**
 * The contract every sandbox backend passes (Inspect AI's sandbox self-check
 * is the model): exec, output caps, timeouts, file round trips, copy in, sync
 * out, stopping the agent's processes, kill/remove/reap, and a sandbox killed
 * mid-exec. A backend's test file calls this once with its target.
 *
 * @example
 * sandboxConformance('local Docker', async () => ({ provider, image: BASE_IMAGE, labels }));
 */
export function sandboxConformance(name: string, target: () => Promise<ConformanceTarget>): void {
  describe(`sandbox conformance: ${name}`, function () {
    this.timeout(120_000);
    let t: ConformanceTarget;
    let sandbox: Sandbox;
    const scratch: string[] = [];
    const spec = (more: Partial<SandboxSpec> = {}): SandboxSpec => ({
      image: t.image,
      user: KEEPER_USER,
      execUser: AGENT_USER,
      workingDir: '/tmp',
      env: { EVALRIG_SPEC_ENV: 'from-spec' },
      labels: t.labels,
      limits: { memoryBytes: 256 * 1024 ** 2, cpus: 1, pids: 128 },
      ...more,
    });
    const hostFolder = async (): Promise<string> => {
      const dir = await mkdtemp(path.join(tmpdir(), 'evalrig-conformance-'));
      scratch.push(dir);
      return dir;
    };

    before(async () => {
      t = await target();
      await t.provider.check();
      sandbox = await t.provider.start(spec());
    });
    after(async () => {
      if (!t) return;
      await t.provider.reap(t.labels);
      for (const dir of scratch) await rm(dir, { recursive: true, force: true });
      await t.close?.();
    });

    describe('exec', () => {
      it('returns exit codes, stdout and stderr apart', async () => {
        const r = await sandbox.exec(['sh', '-c', 'echo out; echo err >&2; exit 7']);
        expect(r).to.include({ exitCode: 7, stdout: 'out\n', stderr: 'err\n', timedOut: false });
        expect(r.truncated).to.equal(false);
        expect(r.stdoutBytes.toString()).to.equal('out\n');
      });

      it('feeds stdin and closes it', async () => {
        const r = await sandbox.exec(['sh', '-c', 'wc -c; cat'], { stdin: 'hello' });
        expect(r.exitCode).to.equal(0);
        expect(r.stdout).to.match(/^5\n/);
      });

      it("passes the exec's env over the spec's, runs as the spec's exec user or the one asked, where asked", async () => {
        const r = await sandbox.exec(
          ['sh', '-c', 'echo "$EVALRIG_SPEC_ENV $MINE $(id -u):$(id -g) $(pwd)"'],
          { env: { MINE: 'mine' }, workingDir: '/var' },
        );
        expect(r.stdout).to.equal('from-spec mine 1000:1000 /var\n');
        if (t.onlyExecUser) {
          const refused = await rejection(sandbox.exec(['id', '-u'], { user: '0:0' }));
          expect(refused, 'another user refused').to.be.instanceOf(SandboxError);
        } else {
          const root = await sandbox.exec(['id', '-u'], { user: '0:0' });
          expect(root.stdout).to.equal('0\n');
        }
        const home = await sandbox.exec(['pwd']);
        expect(home.stdout).to.equal('/tmp\n');
      });

      it('caps stdout and stderr at maxOutputBytes, saying truncated', async () => {
        const r = await sandbox.exec(
          [
            'sh',
            '-c',
            'head -c 5000 /dev/zero | tr "\\0" a; head -c 10 /dev/zero | tr "\\0" b >&2',
          ],
          { maxOutputBytes: 1000 },
        );
        expect(r.exitCode).to.equal(0);
        expect(r.stdout).to.equal('a'.repeat(1000));
        expect(r.stderr).to.equal('b'.repeat(10));
        expect(r.truncated).to.equal(true);
      });

      it('ends an exec at its timeout (timedOut, exit unknown) and the sandbox is usable after', async () => {
        const started = Date.now();
        const r = await sandbox.exec(['sleep', '60'], { timeoutMs: 500 });
        expect(r).to.include({ timedOut: true, exitCode: null });
        // Well before the command's own end (60 s). The exec's timer is the test process's own:
        // once, in a full CI run, it fired 10.9 s late (cause not found; the execs before and
        // after took their usual time), so the bound separates the two ends, not 0.5 s from 10.
        expect(Date.now() - started).to.be.below(30_000);
        const after = await sandbox.exec(['echo', 'alive']);
        expect(after).to.include({ exitCode: 0, stdout: 'alive\n' });
      });
    });

    describe('files', () => {
      it('writes files (parents created) and reads them back, text and binary alike', async () => {
        const binary = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
        await sandbox.writeFiles([
          { path: '/tmp/conf/deep/a.txt', content: 'é—✓\n' },
          { path: '/tmp/conf/b.bin', content: binary },
        ]);
        const text = await sandbox.readFile('/tmp/conf/deep/a.txt', { maxBytes: 1024 });
        expect(text.toString('utf8')).to.equal('é—✓\n');
        expect(await sandbox.readFile('/tmp/conf/b.bin', { maxBytes: 256 })).to.deep.equal(binary);
      });

      it("writes modes and owners as asked (0644 and root's by default, or the exec user's where that is the only one)", async () => {
        await sandbox.writeFiles([
          { path: '/tmp/conf/owned.sh', content: '#!/bin/sh\n', mode: 0o750, owner: AGENT },
          { path: '/tmp/conf/plain', content: 'x' },
        ]);
        const r = await sandbox.exec([
          'stat',
          '-c',
          '%a %u:%g',
          '/tmp/conf/owned.sh',
          '/tmp/conf/plain',
        ]);
        expect(r.stdout).to.equal(`750 1000:1000\n644 ${t.onlyExecUser ? '1000:1000' : '0:0'}\n`);
        if (t.onlyExecUser) {
          const refused = await rejection(
            sandbox.writeFiles([
              { path: '/tmp/conf/root', content: 'x', owner: { uid: 0, gid: 0 } },
            ]),
          );
          expect(refused, "a root's file refused").to.be.instanceOf(SandboxError);
        }
      });

      it('refuses a file over its cap before its bytes cross, and reads one exactly at it', async () => {
        const r = await sandbox.exec(['sh', '-c', 'head -c 2097152 /dev/zero > /tmp/big']);
        expect(r.exitCode).to.equal(0);
        const refused = await refusal(sandbox.readFile('/tmp/big', { maxBytes: 1024 * 1024 }));
        expect(refused.reason).to.equal('too-large');
        const whole = await sandbox.readFile('/tmp/big', { maxBytes: 2 * 1024 * 1024 });
        expect(whole.length).to.equal(2 * 1024 * 1024);
      });

      it('refuses a FIFO at once, without blocking on it', async () => {
        await sandbox.exec(['mkfifo', '/tmp/conf-fifo']);
        const read = sandbox.readFile('/tmp/conf-fifo', { maxBytes: 1024 });
        expect(await within(read, 15_000), 'the read returned').to.equal('settled');
        expect((await refusal(read)).reason).to.equal('not-regular');
      });

      it('refuses a symbolic link instead of following it, and a folder, and a missing file', async () => {
        await sandbox.exec([
          'sh',
          '-c',
          'echo secret > /tmp/target; ln -sf /tmp/target /tmp/conf-link',
        ]);
        expect(
          (await refusal(sandbox.readFile('/tmp/conf-link', { maxBytes: 1024 }))).reason,
        ).to.equal('not-regular');
        expect((await refusal(sandbox.readFile('/tmp', { maxBytes: 1024 }))).reason).to.equal(
          'not-regular',
        );
        expect(
          (await refusal(sandbox.readFile('/tmp/none-here', { maxBytes: 1024 }))).reason,
        ).to.equal('missing');
      });

      it('refuses a relative path with a SandboxError before anything is read', async () => {
        const error = await sandbox.readFile('tmp/target', { maxBytes: 1024 }).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error, 'refused').to.be.instanceOf(SandboxError);
        expect((error as Error).message).to.match(/tmp\/target is not an absolute path$/u);
      });

      it('copies a folder in, owned as asked, modes kept, links kept as links', async () => {
        const from = await hostFolder();
        await mkdir(path.join(from, 'sub'));
        await writeFile(path.join(from, 'sub', 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
        await writeFile(path.join(from, 'top.txt'), 'top\n', { mode: 0o600 });
        await symlink('sub/run.sh', path.join(from, 'rel-link'));
        await symlink('/etc/passwd', path.join(from, 'abs-link'));
        await sandbox.copyIn(from, '/tmp/copied/here', AGENT);
        const r = await sandbox.exec([
          'sh',
          '-c',
          'cd /tmp/copied/here && stat -c "%n %F %a %u:%g" . sub sub/run.sh top.txt && readlink rel-link abs-link',
        ]);
        expect(r.stdout).to.equal(
          [
            '. directory 700 1000:1000',
            'sub directory 755 1000:1000',
            'sub/run.sh regular file 755 1000:1000',
            'top.txt regular file 600 1000:1000',
            'sub/run.sh',
            '/etc/passwd',
            '',
          ].join('\n'),
        );
        const links = await sandbox.exec([
          'sh',
          '-c',
          'test -L /tmp/copied/here/rel-link && test -L /tmp/copied/here/abs-link',
        ]);
        expect(links.exitCode).to.equal(0);
      });
    });

    describe('syncOut', () => {
      let tree: string;
      let synced: Sandbox;
      const inside = '/work/tree';

      before(async () => {
        tree = await hostFolder();
        await writeFile(path.join(tree, 'keep.txt'), 'kept\n');
        await writeFile(path.join(tree, 'change.txt'), 'before\n');
        await writeFile(path.join(tree, 'turn-into-folder'), 'a file\n');
        await writeFile(path.join(tree, 'tool.sh'), '#!/bin/sh\n', { mode: 0o755 });
        await mkdir(path.join(tree, 'gone', 'deeper'), { recursive: true });
        await writeFile(path.join(tree, 'gone', 'deeper', 'x'), 'x\n');
        await writeFile(path.join(tree, '.hidden'), 'h\n');
        // Mounted, the host folder itself is the agent's: handed over as a campaign does (as root).
        if (t.provider.mountsHostFolders && process.getuid?.() === 0) {
          const { execa } = await import('execa');
          await execa('chown', ['-R', '1000:1000', tree]);
          await chown(tree, 1000, 1000);
        }
        synced = await t.provider.start(
          spec({ folders: [{ host: tree, container: inside, owner: AGENT }] }),
        );
      });

      it('holds the host folder from the start, owned as asked', async () => {
        expect(await sandboxListing(synced, inside)).to.deep.equal(await hostListing(tree));
        const r = await synced.exec(['stat', '-c', '%u:%g', `${inside}/keep.txt`]);
        expect(r.stdout).to.equal('1000:1000\n');
      });

      it('brings back what the agent changed: added, modified, deleted, a file turned folder, modes, links as links', async () => {
        const script = [
          'set -e',
          `cd ${inside}`,
          'echo new > added.txt',
          'mkdir -p new/nested && echo n > new/nested/file',
          'echo after >> change.txt',
          'rm -r gone',
          'rm turn-into-folder && mkdir turn-into-folder && echo inner > turn-into-folder/inner',
          'chmod 600 tool.sh',
          'ln -s /etc/shadow leak',
          'ln -s ../../escape up',
          'ln -s keep.txt alias',
        ].join('\n');
        const r = await synced.exec(['sh', '-c', script]);
        expect(r.exitCode, r.stderr).to.equal(0);
        const stats = await synced.syncOut(inside, tree);
        const host = await hostListing(tree);
        expect(host).to.deep.equal(await sandboxListing(synced, inside));
        expect(host).to.include({
          leak: 'link /etc/shadow',
          up: 'link ../../escape',
          alias: 'link keep.txt',
          'added.txt': `file 644 ${createHash('sha256').update('new\n').digest('hex')}`,
        });
        expect(host['turn-into-folder']).to.match(/^dir /);
        expect(host).to.have.property('turn-into-folder/inner');
        expect(host).to.not.have.property('gone');
        expect(host['tool.sh']).to.match(/^file 600 /);
        // Links stay links on the host: never followed to what they name.
        expect((await lstat(path.join(tree, 'leak'))).isSymbolicLink()).to.equal(true);
        if (synced.mountsHostFolders)
          expect(stats).to.deep.equal({ changed: 0, removed: 0, bytes: 0 });
        else {
          expect(stats.changed).to.be.at.least(8);
          expect(stats.removed).to.be.at.least(1);
        }
      });

      it('moves nothing when nothing changed since the last sync', async () => {
        const before = await hostListing(tree);
        const stats = await synced.syncOut(inside, tree);
        expect(stats).to.include({ changed: 0, removed: 0 });
        expect(await hostListing(tree)).to.deep.equal(before);
      });

      it('still brings back what a killed sandbox left (a run cut by its timeout)', async () => {
        const r = await synced.exec([
          'sh',
          '-c',
          `echo late > ${inside}/late.txt; rm ${inside}/keep.txt`,
        ]);
        expect(r.exitCode).to.equal(0);
        await synced.kill();
        await synced.syncOut(inside, tree);
        const host = await hostListing(tree);
        expect(host['late.txt']).to.equal(
          `file 644 ${createHash('sha256').update('late\n').digest('hex')}`,
        );
        expect(host).to.not.have.property('keep.txt');
      });
    });

    describe("the agent's processes", () => {
      it('stops a background process of the agent user; the sandbox lives on', async () => {
        const bg = await sandbox.exec(['sh', '-c', 'sleep 1000 >/dev/null 2>&1 & echo $!']);
        const pid = bg.stdout.trim();
        expect(pid).to.match(/^\d+$/);
        expect((await sandbox.exec(['test', '-e', `/proc/${pid}`])).exitCode).to.equal(0);
        await sandbox.stopProcessesOf(AGENT_USER);
        const after = await sandbox.exec([
          'sh',
          '-c',
          `test -e /proc/${pid} && echo left; echo done`,
        ]);
        expect(after.stdout).to.equal('done\n');
      });
    });

    describe('lifecycle', () => {
      it('kills and removes idempotently; a removed sandbox refuses an exec', async () => {
        const s = await t.provider.start(spec());
        await s.kill();
        await s.kill();
        await s.remove();
        await s.remove();
        const error = await s.exec(['true']).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error, 'an exec in a removed sandbox fails').to.be.instanceOf(Error);
      });

      it('ends an exec in flight when its sandbox is killed: it returns, it does not hang', async () => {
        const s = await t.provider.start(spec());
        const running = s.exec(['sh', '-c', 'touch /tmp/started; exec sleep 600']);
        // Waits for the exec to have begun (a condition, not a guessed delay).
        for (;;) {
          if ((await s.exec(['test', '-e', '/tmp/started'])).exitCode === 0) break;
        }
        await s.kill();
        expect(await within(running, 20_000), 'the exec settled').to.equal('settled');
        await s.remove();
      });

      it('reaps every sandbox carrying the labels, and only those', async () => {
        const mine = { ...t.labels, 'evalrig.conformance': randomBytes(4).toString('hex') };
        const a = await t.provider.start(spec({ labels: mine }));
        await t.provider.start(spec({ labels: mine }));
        expect(await t.provider.reap(mine)).to.equal(2);
        expect(await t.provider.reap(mine)).to.equal(0);
        const error = await a.exec(['true']).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(error).to.be.instanceOf(Error);
        expect((await sandbox.exec(['echo', 'untouched'])).stdout).to.equal('untouched\n');
      });
    });

    describe('images', () => {
      it('builds an image on the engine it lends, then starts a sandbox from it once made runnable', async function () {
        const build = t.provider.buildImage?.bind(t.provider);
        if (!build) this.skip();
        const tag = `evalrig-conformance:${randomBytes(6).toString('hex')}`;
        const marker = randomBytes(8).toString('hex');
        // No RUN: the image is its base with one variable more, built in a second.
        const dockerfile = `FROM ${t.image}\nENV EVALRIG_CONFORMANCE=${marker}\n`;
        const id = await build('a conformance image', (engine) =>
          buildImageFrom(engine, tag, contextOf(dockerfile), { labels: { ...t.labels } }, () => {}),
        );
        try {
          await t.provider.ensureImage({ tag, id });
          const s = await t.provider.start(spec({ image: tag }));
          expect((await s.exec(['printenv', 'EVALRIG_CONFORMANCE'])).stdout).to.equal(
            `${marker}\n`,
          );
          await s.remove();
        } finally {
          await build('removing it', (engine) => engine.docker.getImage(tag).remove()).catch(
            () => undefined,
          );
        }
      });
    });

    describe("the provider's lifecycle (Inspect's task_init and task_cleanup)", () => {
      /** A provider of its own session: what its close removes is what it started. */
      const opening = (): { provider: SandboxProvider; session: Record<string, string> } => {
        const session = {
          ...t.labels,
          [LABELS.session]: `conformance-${randomBytes(6).toString('hex')}`,
        };
        return { provider: t.another(session), session };
      };

      it('opens (twice is harmless) and starts sandboxes once open', async () => {
        const { provider } = opening();
        await provider.open();
        await provider.open();
        try {
          const s = await provider.start(spec());
          expect((await s.exec(['echo', 'open'])).stdout).to.equal('open\n');
          await s.remove();
        } finally {
          await provider.close();
        }
      });

      it('closes (twice is harmless), removing every sandbox it started that was not removed', async () => {
        const { provider, session } = opening();
        await provider.open();
        const left = await provider.start(spec());
        const removed = await provider.start(spec());
        await removed.remove();
        expect((await left.exec(['true'])).exitCode, 'alive before the close').to.equal(0);
        await Promise.all([provider.close(), provider.close()]);
        await provider.close();
        // Nothing of its session is left on the engine: a reap by it finds none.
        expect(await t.provider.reap(session)).to.equal(0);
        expect(await rejection(left.exec(['true'])), 'its sandbox is gone').to.be.instanceOf(Error);
        expect((await sandbox.exec(['echo', 'untouched'])).stdout).to.equal('untouched\n');
      });

      it('refuses new sandboxes once closed, with an error that says so and names it', async () => {
        const { provider } = opening();
        await provider.open();
        await provider.close();
        const refused = await rejection(provider.start(spec()));
        expect(refused).to.be.instanceOf(ProviderClosedError);
        expect((refused as Error).message)
          .to.include(provider.name)
          .and.to.include('closed');
        expect(await rejection(provider.open()), 'no reopening').to.be.instanceOf(
          ProviderClosedError,
        );
      });
    });
  });
}
