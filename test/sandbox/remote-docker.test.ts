import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
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
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { projectRoot } from '../../src/image/index.js';
import { startGhRecorder } from '../../src/recorder/index.js';
import { connectDocker } from '../../src/runtime/index.js';
import { SandboxFileError, type Sandbox } from '../../src/sandbox/index.js';
import { RemoteDockerProvider, connectEngine, engineAddress } from '../../src/sandbox/index.js';
import { BASE_IMAGE, TEST_CAMPAIGN, requireDocker } from '../support/docker.js';
import { anotherOn, sandboxConformance } from './conformance.js';
import { servicesConformance } from './services-conformance.js';
import { sharedFilesOncePerEngine } from './file-cache.js';
import { startSecondEngine, type SecondEngine } from '../support/second-engine.js';

/** What a tree holds, read on the host without following links: path → type, bytes' digest or target, x bit. */
export async function treeOf(root: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const walk = async (dir: string, rel: string): Promise<void> => {
    for (const name of (await readdir(dir)).sort()) {
      const p = path.join(dir, name);
      const r = rel ? `${rel}/${name}` : name;
      const info = await lstat(p);
      if (info.isDirectory()) {
        out.set(r, 'dir');
        await walk(p, r);
      } else if (info.isSymbolicLink()) out.set(r, `link ${await readlink(p)}`);
      else if (info.isFile()) {
        const digest = createHash('sha256')
          .update(await readFile(p))
          .digest('hex');
        out.set(r, `file ${info.mode & 0o100 ? 'x' : '-'} ${digest}`);
      } else out.set(r, 'other');
    }
  };
  await walk(root, '');
  return out;
}

/** The error `p` fails with (the test fails when it does not). */
export async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a failure');
}

function expectFailure(error: Error, type: new (...a: never[]) => Error, message: RegExp): void {
  expect(error).to.be.instanceOf(type);
  expect(error.message).to.match(message);
}

/**
 * The remote Docker provider on a second engine started by these tests (its own
 * data-root and socket): nothing is mounted, everything goes in as archives
 * and comes back as checked deltas. The conformance suite first, then what
 * only a copying backend must hold to.
 */
describe('sandbox/RemoteDockerProvider', function () {
  this.timeout(300_000);
  let engine: SecondEngine;
  let provider: RemoteDockerProvider;
  const labels = { 'evalrig.campaign': `${TEST_CAMPAIGN}-remote` };

  before(async function () {
    await requireDocker();
    if (process.getuid?.() !== 0) this.skip();
    if (!existsSync(path.join(projectRoot(), 'dist', 'stand-in', 'tunnel', 'tunnel'))) {
      throw new Error('run npm run build first: the tunnel program is bundled there');
    }
    engine = await startSecondEngine({ tcp: true, bridged: true });
    provider = new RemoteDockerProvider({ client: engine.client(), name: 'second' });
    const first = new RemoteDockerProvider({ client: connectDocker(), name: 'first' });
    const id = (await connectDocker().docker.getImage(BASE_IMAGE).inspect()).Id;
    await provider.ensureImage({ tag: BASE_IMAGE, id }, first);
  });
  after(async () => {
    if (provider) await provider.reap(labels);
    await engine?.stop();
  });

  sandboxConformance('remote Docker (no mounts, second engine)', () =>
    Promise.resolve({
      provider,
      image: BASE_IMAGE,
      labels: { ...labels, 'evalrig.suite': 'conformance' },
      another: (session) => anotherOn(provider, session),
    }),
  );

  // The same isolation on the remote engine (no iptables there: the run's bridge alone keeps it).
  servicesConformance('remote Docker (second engine)', () =>
    Promise.resolve({
      provider,
      client: engine.client(),
      image: BASE_IMAGE,
      labels: { ...labels, 'evalrig.suite': 'services' },
      enginePorts: engine.tcpHost ? [Number(new URL(engine.tcpHost).port)] : [],
    }),
  );

  describe('what a copying backend holds to', remoteSpecifics);

  sharedFilesOncePerEngine(() => provider, labels);

  function remoteSpecifics(): void {
    let dir: string;
    const live: Sandbox[] = [];

    beforeEach(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'evalrig-remote-'));
    });
    afterEach(async () => {
      for (const s of live.splice(0)) await s.remove();
      await rm(dir, { recursive: true, force: true });
    });

    async function start(spec: Partial<Parameters<RemoteDockerProvider['start']>[0]> = {}) {
      const s = await provider.start({
        image: BASE_IMAGE,
        user: '65534:65534',
        execUser: '1000:1000',
        labels,
        ...spec,
      });
      live.push(s);
      return s;
    }

    async function hostTree(files: Record<string, string>): Promise<string> {
      const root = path.join(dir, 'host');
      for (const [rel, text] of Object.entries(files)) {
        await mkdir(path.dirname(path.join(root, rel)), { recursive: true });
        await writeFile(path.join(root, rel), text);
      }
      return root;
    }

    const sh = (s: Sandbox, script: string, user = '1000:1000') =>
      s.exec(['sh', '-c', script], { user, timeoutMs: 60_000 });

    it('reaches the engine by tcp:// as --engine names it, and plays a sandbox there', async () => {
      if (!engine.tcpHost) throw new Error('the second engine was started without its TCP port');
      const address = engineAddress(engine.tcpHost, {});
      expect(address.local).to.equal(false);
      const overTcp = new RemoteDockerProvider({ client: connectEngine(address) });
      await overTcp.check();
      const work = await hostTree({ a: 'a\n' });
      const s = await overTcp.start({
        image: BASE_IMAGE,
        user: '65534:65534',
        execUser: '1000:1000',
        labels,
        folders: [{ host: work, container: '/work/repo' }],
      });
      live.push(s);
      await sh(s, 'echo b >> /work/repo/a');
      expect(await s.syncOut('/work/repo', work)).to.deep.include({ changed: 1 });
      expect(await readFile(path.join(work, 'a'), 'utf8')).to.equal('a\nb\n');
    });

    it('ships an image from another engine through the API, and then finds it by id', async () => {
      const id = (await connectDocker().docker.getImage(BASE_IMAGE).inspect()).Id;
      expect((await engine.client().docker.getImage(BASE_IMAGE).inspect()).Id).to.equal(id);
      // Present by id: nothing to ship, no source needed.
      await provider.ensureImage({ tag: BASE_IMAGE, id });
      const missing = provider.ensureImage({ tag: 'evalrig-none:absent', id: 'sha256:00' });
      expect((await failure(missing)).message).to.match(/no engine to ship it from/u);
    });

    it('puts folders with the owners asked: the work tree the agent’s, read-only ones root’s and not writable', async () => {
      const work = await hostTree({ 'a.txt': 'a\n', 'sub/b.txt': 'b\n' });
      const ro = path.join(dir, 'ro');
      await mkdir(ro);
      await writeFile(path.join(ro, 'prompt.md'), 'hello\n', { mode: 0o666 });
      const bin = path.join(dir, 'tool');
      await writeFile(bin, '#!/bin/sh\necho tool\n', { mode: 0o755 });
      const s = await start({
        folders: [
          { host: work, container: '/work/repo' },
          { host: ro, container: '/evalset', readOnly: true },
        ],
        files: [{ host: bin, container: '/opt/tool/tool' }],
      });
      const r = await sh(
        s,
        'stat -c "%u:%g %a %n" /work/repo /work/repo/sub/b.txt /evalset /evalset/prompt.md /opt/tool/tool',
      );
      expect(r.stdout.trim().split('\n')).to.deep.equal([
        '1000:1000 700 /work/repo'.replace('700', r.stdout.split('\n')[0]!.split(' ')[1]!),
        `1000:1000 644 /work/repo/sub/b.txt`,
        '0:0 755 /evalset'.replace('755', r.stdout.split('\n')[2]!.split(' ')[1]!),
        '0:0 644 /evalset/prompt.md',
        '0:0 755 /opt/tool/tool',
      ]);
      expect((await sh(s, '/opt/tool/tool')).stdout).to.equal('tool\n');
      const write = await sh(
        s,
        'echo x > /evalset/prompt.md || echo refused; echo y > /evalset/new || echo refused',
      );
      expect(write.stdout).to.equal('refused\nrefused\n');
      expect((await sh(s, 'echo z > /work/repo/a.txt && cat /work/repo/a.txt')).stdout).to.equal(
        'z\n',
      );
    });

    it('syncs back only what changed (3 files of a few thousand), and the host tree then equals the sandbox’s', async () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 3000; i++) files[`d${i % 30}/f${i}.txt`] = `file ${i}\n`.repeat(20);
      const work = await hostTree(files);
      const s = await start({ folders: [{ host: work, container: '/work/repo' }] });
      const none = await s.syncOut('/work/repo', work);
      expect(none).to.deep.equal({ changed: 0, removed: 0, bytes: 0 });
      await sh(
        s,
        'cd /work/repo && echo changed > d1/f1.txt && echo new > d2/new.txt && chmod +x d3/f3.txt && rm d4/f4.txt',
      );
      const stats = await s.syncOut('/work/repo', work);
      // Two files fetched (changed, new) and one re-moded: 3 entries, their bytes only.
      expect(stats.changed).to.equal(3);
      expect(stats.removed).to.equal(1);
      expect(stats.bytes).to.equal(
        'changed\n'.length + 'new\n'.length + files['d3/f3.txt']!.length,
      );
      const tar = await s.exec(['tar', '-c', '-C', '/work/repo', '.'], {
        user: '0:0',
        maxOutputBytes: 64 * 1024 ** 2,
      });
      const back = path.join(dir, 'back');
      await mkdir(back);
      const { execa } = await import('execa');
      await execa('tar', ['-x', '-C', back], { input: tar.stdoutBytes });
      expect(await treeOf(work)).to.deep.equal(await treeOf(back));
    });

    it('follows type changes (file → folder, folder → link, link → file) and keeps links as links', async () => {
      const work = await hostTree({ 'f/x': '1', 'd/y': '2', keep: 'k' });
      await symlink('keep', path.join(work, 'l'));
      const s = await start({ folders: [{ host: work, container: '/work/repo' }] });
      await sh(
        s,
        'cd /work/repo && rm -r f d l && mkdir -p f/x && echo in > f/x/z && ln -s /etc d && echo now-a-file > l && ln -s ../../outside link-out && ln keep hard',
      );
      await s.syncOut('/work/repo', work);
      const tree = await treeOf(work);
      expect(tree.get('d')).to.equal('link /etc');
      expect(tree.get('link-out')).to.equal('link ../../outside');
      expect(tree.get('f/x')).to.equal('dir');
      expect(tree.get('f/x/z')).to.match(/^file /u);
      expect(tree.get('l')).to.match(/^file /u);
      // A hard link comes back as a second file of the same bytes.
      expect(tree.get('hard')).to.equal(tree.get('keep'));
      expect([...tree.keys()].sort()).to.deep.equal([
        'd',
        'f',
        'f/x',
        'f/x/z',
        'hard',
        'keep',
        'l',
        'link-out',
      ]);
    });

    it('never writes outside the host folder: a link planted where a folder was is replaced, not followed', async () => {
      const outside = path.join(dir, 'outside');
      await mkdir(outside);
      const work = await hostTree({ 'a/file': 'x' });
      const s = await start({ folders: [{ host: work, container: '/work/repo' }] });
      // Sync 1: the agent makes `a` a link to a host folder's absolute path; the host keeps a link.
      await sh(s, `cd /work/repo && rm -r a && ln -s ${outside} a && ln -s ${outside}/victim b`);
      await s.syncOut('/work/repo', work);
      expect(await readlink(path.join(work, 'a'))).to.equal(outside);
      // Sync 2: `a` is a folder again with a file in it, `b` a file: written in the host folder only.
      await sh(s, 'cd /work/repo && rm a b && mkdir a && echo pwned > a/file && echo pwned > b');
      await s.syncOut('/work/repo', work);
      expect(await readdir(outside)).to.deep.equal([]);
      expect((await lstat(path.join(work, 'a'))).isDirectory()).to.equal(true);
      expect(await readFile(path.join(work, 'a', 'file'), 'utf8')).to.equal('pwned\n');
      expect((await lstat(path.join(work, 'b'))).isFile()).to.equal(true);
    });

    it('takes any name the agent makes (newlines, leading dashes, backslashes) and skips FIFOs without blocking', async () => {
      const work = await hostTree({ keep: 'k' });
      const s = await start({ folders: [{ host: work, container: '/work/repo' }] });
      await sh(
        s,
        `cd /work/repo && printf 1 > "$(printf 'new\\nline')" && printf 2 > ./-rf && printf 3 > 'back\\\\nslash' && printf 4 > '...' && mkfifo pipe && chmod 000 keep`,
      );
      const stats = await s.syncOut('/work/repo', work);
      expect(stats.changed).to.equal(5);
      const names = (await readdir(work)).sort();
      expect(names).to.deep.equal(['-rf', '...', 'back\\\\nslash', 'keep', 'new\nline'].sort());
      expect(await readFile(path.join(work, 'new\nline'), 'utf8')).to.equal('1');
    });

    it('refuses a tree over its caps as the agent’s doing (too large), leaving the host folder in place', async () => {
      const small = new RemoteDockerProvider({
        client: engine.client(),
        limits: { maxFileBytes: 1024, maxEntries: 50 },
      });
      const work = await hostTree({ a: 'a' });
      const s = await small.start({
        image: BASE_IMAGE,
        user: '65534:65534',
        labels,
        folders: [{ host: work, container: '/w' }],
      });
      live.push(s);
      await sh(s, 'head -c 4096 /dev/zero > /w/big');
      expectFailure(await failure(s.syncOut('/w', work)), SandboxFileError, /too large/u);
      await sh(s, 'rm /w/big; for i in $(seq 60); do : > /w/f$i; done');
      expectFailure(
        await failure(s.syncOut('/w', work)),
        SandboxFileError,
        /more than 50 entries/u,
      );
      expect(await readdir(work)).to.include('a');
    });

    it('keeps holes: large empty files the agent makes take no room on the host, and the run’s host copies are held to its disk', async () => {
      const MiB = 1024 ** 2;
      const work = await hostTree({ a: 'a' });
      const origin = path.join(dir, 'origin');
      await mkdir(origin);
      const s = await start({
        diskBytes: 16 * MiB,
        folders: [
          { host: work, container: '/work/repo' },
          { host: origin, container: '/work/origin' },
        ],
      });
      // 64 MB with 5 bytes of data, and eight empty files of 100 MB: 864 MB long, no disk used.
      await sh(
        s,
        'cd /work/repo && truncate -s 64M holes && printf hello | dd of=holes bs=1 seek=40000000 conv=notrunc status=none && for i in 1 2 3 4 5 6 7 8; do truncate -s 100M empty$i; done',
      );
      await s.syncOut('/work/repo', work);
      const holes = await lstat(path.join(work, 'holes'));
      expect(holes.size).to.equal(64 * MiB);
      const bytes = await readFile(path.join(work, 'holes'));
      expect(bytes.subarray(40_000_000, 40_000_005).toString()).to.equal('hello');
      expect(bytes.indexOf(1)).to.equal(-1);
      let onDisk = 0;
      for (const name of await readdir(work))
        onDisk += (await lstat(path.join(work, name))).blocks * 512;
      expect(onDisk).to.be.below(MiB);

      // Real bytes count: 10 MB in the work tree fits the 16 MB disk, 10 more in origin do not.
      await sh(s, 'head -c 10M /dev/urandom > /work/repo/dense');
      await s.syncOut('/work/repo', work);
      expect((await lstat(path.join(work, 'dense'))).size).to.equal(10 * MiB);
      expect((await sh(s, 'head -c 10M /dev/urandom > /work/origin/dense')).exitCode).to.equal(0);
      expectFailure(
        await failure(s.syncOut('/work/origin', origin)),
        SandboxFileError,
        /the run's files would take 2097\d{4} bytes on the host, the run's disk \(resources\.disk\) is 16777216/u,
      );
      expect(await readdir(origin)).to.deep.equal([]);
    });

    it('syncs a sandbox that was killed (a cut turn): its main process is started again to list', async () => {
      const work = await hostTree({ a: 'a' });
      const s = await start({ folders: [{ host: work, container: '/work/repo' }] });
      await sh(s, 'echo b > /work/repo/b');
      await s.kill();
      const stats = await s.syncOut('/work/repo', work);
      expect(stats.changed).to.equal(1);
      expect(await readFile(path.join(work, 'b'), 'utf8')).to.equal('b\n');
    });

    it('reads regular files within a cap and refuses links, FIFOs, folders and missing files without blocking', async () => {
      const s = await start();
      await sh(
        s,
        'mkdir -p /tmp/t && cd /tmp/t && echo hi > f && ln -s /etc/passwd l && mkfifo p && head -c 100 /dev/zero > big',
      );
      expect((await s.readFile('/tmp/t/f', { maxBytes: 10 })).toString()).to.equal('hi\n');
      expectFailure(
        await failure(s.readFile('/tmp/t/l', { maxBytes: 10_000 })),
        SandboxFileError,
        /not regular/u,
      );
      expectFailure(
        await failure(s.readFile('/tmp/t/p', { maxBytes: 10 })),
        SandboxFileError,
        /not regular/u,
      );
      expectFailure(
        await failure(s.readFile('/tmp/t', { maxBytes: 10 })),
        SandboxFileError,
        /not regular/u,
      );
      expectFailure(
        await failure(s.readFile('/tmp/t/big', { maxBytes: 99 })),
        SandboxFileError,
        /too large/u,
      );
      expectFailure(
        await failure(s.readFile('/tmp/t/none', { maxBytes: 10 })),
        SandboxFileError,
        /missing/u,
      );
    });

    it('writes files with their owners and modes', async () => {
      const s = await start();
      await s.writeFiles([
        {
          path: '/home/agent/.config/x.json',
          content: '{}',
          owner: { uid: 1000, gid: 1000 },
          mode: 0o600,
        },
        { path: '/opt/r/run.sh', content: Buffer.from('#!/bin/sh\necho ran\n'), mode: 0o755 },
      ]);
      const r = await sh(
        s,
        'stat -c "%u:%g %a" /home/agent/.config/x.json /opt/r/run.sh && /opt/r/run.sh',
      );
      expect(r.stdout).to.equal('1000:1000 600\n0:0 755\nran\n');
    });

    it('tunnels host sockets into a sandbox with no network: a gh stand-in call reaches the host recorder, a request a host server', async () => {
      const sockets = path.join(dir, 'sock');
      await mkdir(sockets, { mode: 0o711 });
      const recorder = await startGhRecorder({
        socketPath: path.join(sockets, 'gh.sock'),
        maxMessageBytes: 1024 ** 2,
        maxCalls: 100,
      });
      const server: Server = createServer((c) => {
        let got = '';
        c.on('data', (d) => {
          got += d.toString();
          if (got.endsWith('\n')) c.end(`echo:${got}`);
        });
      });
      await new Promise<void>((r) => server.listen(path.join(sockets, 'echo.sock'), r));
      try {
        const gh = path.join(projectRoot(), 'dist', 'stand-in', 'gh', 'gh');
        const work = path.join(dir, 'repo');
        await mkdir(work);
        const { execa } = await import('execa');
        await execa('git', ['init', '-q', '-b', 'main', work]);
        await execa('git', [
          '-C',
          work,
          'remote',
          'add',
          'origin',
          'https://github.com/acme/toy.git',
        ]);
        const s = await start({
          folders: [{ host: work, container: '/work/repo' }],
          files: [{ host: gh, container: '/opt/gh/gh' }],
          sockets: [{ host: sockets, container: '/run/evalrig', names: ['gh.sock', 'echo.sock'] }],
          env: { EVALRIG_GH_RECORDER: '/run/evalrig/gh.sock', HOME: '/tmp' },
          workingDir: '/work/repo',
        });
        const call = await s.exec(['/opt/gh/gh', 'pr', 'list'], { timeoutMs: 60_000 });
        expect(call.exitCode, call.stderr).to.equal(0);
        expect(recorder.calls().map((c) => c.argv)).to.deep.equal([['pr', 'list']]);
        const echo = await s.exec(
          [
            'node',
            '-e',
            "const s=require('net').connect('/run/evalrig/echo.sock');s.end('ping\\n');s.pipe(process.stdout)",
          ],
          { timeoutMs: 30_000 },
        );
        expect(echo.stdout).to.equal('echo:ping\n');
        // The agent may connect, but neither remove nor replace a socket, nor add one.
        const tamper = await sh(
          s,
          'rm -f /run/evalrig/gh.sock 2>/dev/null || echo kept; touch /run/evalrig/x 2>/dev/null || echo no-new; stat -c "%u %a" /run/evalrig',
        );
        expect(tamper.stdout).to.equal('kept\nno-new\n65534 711\n');
      } finally {
        server.close();
        await recorder.close();
      }
    });

    it('stops the agent’s processes (the tunnel, the keeper’s, lives on), times out execs, and reaps by label', async () => {
      const s = await start({ sockets: [{ host: dir, container: '/run/t', names: ['n.sock'] }] });
      await sh(s, 'sleep 300 >/dev/null 2>&1 &');
      await s.stopProcessesOf('1000:1000');
      const left = await sh(
        s,
        'for p in /proc/[0-9]*; do stat -c %u "$p"; done | grep -c "^1000$"',
        '0:0',
      );
      expect(left.stdout.trim()).to.equal('0');
      expect((await sh(s, 'test -S /run/t/n.sock && echo up')).stdout).to.equal('up\n');
      const slow = await s.exec(['sleep', '30'], { timeoutMs: 300 });
      expect(slow.timedOut).to.equal(true);
      expect(await provider.reap(labels)).to.be.greaterThanOrEqual(1);
      live.splice(0);
      const inspect = engine.client().docker.getContainer(s.id).inspect();
      expect(await failure(inspect)).to.be.instanceOf(Error);
    });
  }
});
