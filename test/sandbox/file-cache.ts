import { expect } from 'chai';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RemoteDockerProvider, type Sandbox } from '../../src/sandbox/index.js';
import { BASE_IMAGE } from '../support/docker.js';

/**
 * What a remote provider holds to for the files a sandbox shares read-only (an
 * agent's binary): they cross once per engine, into a volume named by their
 * content, mounted read-only into every sandbox; a second provider on the
 * same engine (the next campaign) finds it whole. Files outside evalrig's
 * tree are still copied in.
 */
export function sharedFilesOncePerEngine(
  provider: () => RemoteDockerProvider,
  labels: Readonly<Record<string, string>>,
): void {
  describe('shared read-only files, once per engine', function () {
    this.timeout(120_000);
    let dir: string;
    let tool: string;
    let digest: string;
    const live: Sandbox[] = [];
    let volume: string | undefined;
    before(async () => {
      dir = await mkdtemp(path.join(tmpdir(), 'evalrig-files-'));
      tool = path.join(dir, 'tool');
      const content = randomBytes(256 * 1024);
      digest = createHash('sha256').update(content).digest('hex');
      await writeFile(tool, content, { mode: 0o755 });
    });
    after(async () => {
      for (const s of live.splice(0)) await s.remove();
      // Named by this test's random content: no one else's.
      if (volume) await provider().client.docker.getVolume(volume).remove();
      await rm(dir, { recursive: true, force: true });
    });

    async function start(p: RemoteDockerProvider, container: string): Promise<Sandbox> {
      const s = await p.start({
        image: BASE_IMAGE,
        user: '65534:65534',
        execUser: '1000:1000',
        labels,
        files: [{ host: tool, container }],
      });
      live.push(s);
      return s;
    }
    const sha = async (s: Sandbox, file: string) =>
      (await s.exec(['sha256sum', file])).stdout.split(' ')[0];

    it('in two sandboxes and by a second provider: the same volume, read-only, the same bytes', async () => {
      const first = provider();
      const a = await start(first, '/opt/evalrig/test-files/tool');
      const b = await start(first, '/opt/evalrig/test-files/tool');
      const again = new RemoteDockerProvider({ client: first.client, name: first.name });
      const c = await start(again, '/opt/evalrig/test-files/tool');
      for (const s of [a, b, c]) {
        expect(await sha(s, '/opt/evalrig/test-files/tool')).to.equal(digest);
        const write = await s.exec(['sh', '-c', 'echo x > /opt/evalrig/test-files/tool'], {
          user: '0:0',
        });
        expect(write.exitCode, 'the mount is read-only, even for root').not.to.equal(0);
      }
      const mounts = await Promise.all(
        [a, b, c].map(async (s) =>
          (await first.client.docker.getContainer(s.id).inspect()).Mounts.filter(
            (m) => m.Destination === '/opt/evalrig/test-files',
          ),
        ),
      );
      const names = new Set(mounts.flat().map((m) => m.Name));
      expect(names.size, 'one volume for the three').to.equal(1);
      volume = [...names][0];
      expect(volume).to.match(/^evalrig-files-[0-9a-f]{24}$/u);
      expect(mounts.flat().every((m) => m.RW === false)).to.equal(true);
    });

    it('a file outside /opt/evalrig is copied in, as before', async () => {
      const s = await start(provider(), '/usr/local/lib/evalrig-test-tool');
      expect(await sha(s, '/usr/local/lib/evalrig-test-tool')).to.equal(digest);
      const mounts = (await provider().client.docker.getContainer(s.id).inspect()).Mounts;
      expect(mounts.filter((m) => m.Type === 'volume')).to.have.length(0);
    });
  });
}
