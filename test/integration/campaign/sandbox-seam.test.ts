/**
 * A campaign speaks to its sandboxes through the seam alone, in the order a
 * backend that copies instead of mounting relies on: at every stop the agent's
 * processes are stopped, then the work tree and origin are synced out, then
 * the stop is read; and once more before the final diff. Played in real
 * containers through a provider that records each call on its way to the
 * local one.
 */
import { expect } from 'chai';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { RunRecord } from '../../../src/artifacts/index.js';
import { runCampaign } from '../../../src/campaign/index.js';
import type { DockerClient } from '../../../src/runtime/index.js';
import {
  LocalDockerProvider,
  SandboxError,
  type ExecOptions,
  type OpenOptions,
  type Sandbox,
  type SandboxImage,
  type SandboxProvider,
  type SandboxSpec,
} from '../../../src/sandbox/index.js';
import { requireDocker, testDocker } from '../../support/docker.js';
import { makeToyWorkspace, type ToyWorkspace } from '../../support/toy.js';

const quiet = { write: () => true } as unknown as NodeJS.WriteStream;

/** The local provider, each call of its sandboxes written to `log` as it is made. */
class RecordingProvider implements SandboxProvider {
  readonly log: string[] = [];
  /** The provider's own open and close, apart from its sandboxes' calls. */
  readonly lifecycle: string[] = [];
  readonly mountsHostFolders = true;
  readonly specs: SandboxSpec[] = [];
  private readonly inner: LocalDockerProvider;

  constructor(
    client: DockerClient,
    private readonly failSync?: string,
  ) {
    this.inner = new LocalDockerProvider(client);
  }

  get name(): string {
    return this.inner.name;
  }
  check(): Promise<void> {
    return this.inner.check();
  }
  open(options?: OpenOptions): Promise<void> {
    this.lifecycle.push('open');
    return this.inner.open(options);
  }
  close(): Promise<void> {
    this.lifecycle.push('close');
    return this.inner.close();
  }
  dockerClients(): readonly DockerClient[] {
    return this.inner.dockerClients();
  }
  lost(): Error | undefined {
    return this.inner.lost();
  }
  buildImage<T>(what: string, build: (engine: DockerClient) => Promise<T>): Promise<T> {
    return this.inner.buildImage(what, build);
  }
  ensureImage(image: SandboxImage): Promise<void> {
    this.log.push(`image ${image.tag}`);
    return this.inner.ensureImage(image);
  }
  reap(labels: Readonly<Record<string, string>>): Promise<number> {
    return this.inner.reap(labels);
  }

  async start(spec: SandboxSpec): Promise<Sandbox> {
    this.specs.push(spec);
    const s: Sandbox = await this.inner.start(spec);
    const log = this.log;
    const failSync = this.failSync;
    return {
      id: s.id,
      engine: s.engine,
      mountsHostFolders: s.mountsHostFolders,
      exec(cmd: readonly string[], options?: ExecOptions) {
        const what = cmd[3] === 'probes' ? 'probes' : cmd[0] === 'sh' ? `sh ${cmd[2]}` : cmd[0];
        log.push(`exec ${what}`);
        return s.exec(cmd, options);
      },
      readFile: (p, o) => s.readFile(p, o),
      writeFiles: (f) => s.writeFiles(f),
      copyIn: (h, c, o) => s.copyIn(h, c, o),
      syncOut(containerPath: string, hostFolder: string) {
        log.push(`sync ${containerPath} ${hostFolder}`);
        if (failSync !== undefined) {
          return Promise.reject(new SandboxError('recording', 'sync out', failSync));
        }
        return s.syncOut(containerPath, hostFolder);
      },
      stopProcessesOf(user: string, timeoutMs?: number) {
        log.push(`stop processes of ${user}`);
        return s.stopProcessesOf(user, timeoutMs);
      },
      kill() {
        log.push('kill');
        return s.kill();
      },
      remove() {
        log.push('remove');
        return s.remove();
      },
    };
  }
}

describe('campaign: through the sandbox seam', function () {
  this.timeout(300_000);
  before(requireDocker);
  const client = testDocker();
  let ws: ToyWorkspace;

  before(async () => {
    ws = await makeToyWorkspace({
      scripts: {
        two: {
          turns: [
            { actions: [{ write: 'NOTES.md', content: 'one\n' }, { stop: 'conformant' }] },
            { actions: [{ write: 'NOTES.md', content: 'two\n' }, { stop: 'conformant' }] },
          ],
        },
      },
      set: {
        evals: [
          {
            id: 'two',
            prompt: 'p',
            turns: [{ message: 'again', phase: 'execution' }],
            checks: [{ name: 'tests', run: 'node test.js' }],
          },
        ],
      },
    });
  });
  after(() => ws.cleanup());

  it('stops the agent, syncs the work tree and origin, then reads each stop; and syncs again before the final diff', async () => {
    let recording: RecordingProvider | undefined;
    const outDir = path.join(ws.root, 'out-order');
    const r = await runCampaign({
      evalSetFile: ws.evalSetFile,
      outDir,
      client,
      log: quiet,
      sandboxes: (c) => (recording = new RecordingProvider(c)),
    });
    expect(r).to.include({ played: 1, failed: 0 });
    // First the command agent's preflight, through the seam too: the eval set's folder alone.
    const [preflight, spec] = recording!.specs;
    expect(preflight!.folders!.map((f) => [f.container, f.readOnly])).to.deep.equal([
      ['/evalset', true],
    ]);
    const folders = spec!.folders!.map((f) => [f.container, f.host] as const);
    const [work, origin] = folders;
    expect(work![0]).to.equal('/work/toy');
    expect(origin![0]).to.match(/^\/remote\/.+\/toy\.git$/u);
    const sync = folders.slice(0, 2).map(([c, h]) => `sync ${c} ${h}`);
    const agent = 'exec evalrig-agent';
    const stop = 'stop processes of 1000:1000';
    const calls = recording!.log.filter((l) => !l.startsWith('image '));
    expect(calls[0]).to.match(/^exec sh for p in "\$@"/u);
    expect(calls.slice(1)).to.deep.equal([
      'remove',
      agent,
      stop,
      ...sync,
      'exec probes',
      agent,
      stop,
      ...sync,
      'exec probes',
      'exec sh node test.js',
      'kill',
      ...sync,
      'remove',
    ]);
    // Opened once before the first sandbox, closed once at the end (after the last removal).
    expect(recording!.lifecycle).to.deep.equal(['open', 'close']);
    // The runs' image was made sure of where they run, once.
    expect(recording!.log.filter((l) => l.startsWith('image '))).to.have.length(1);
    const record = JSON.parse(
      await readFile(path.join(outDir, 'runs/two/default/run-01/run.json'), 'utf8'),
    ) as RunRecord;
    expect(record.checks[0]).to.include({ passed: true });
    expect(record.diff.untracked + record.diff.files_added).to.be.at.least(1);
  });

  it('records a sandbox that cannot bring its trees back as failed for the harness in phase collect', async () => {
    const outDir = path.join(ws.root, 'out-fail');
    const r = await runCampaign({
      evalSetFile: ws.evalSetFile,
      outDir,
      client,
      log: quiet,
      sandboxes: (c) => new RecordingProvider(c, 'the archive was cut'),
    });
    expect(r).to.include({ played: 1, failed: 1 });
    const record = JSON.parse(
      await readFile(path.join(outDir, 'runs/two/default/run-01/run.json'), 'utf8'),
    ) as RunRecord;
    expect(record).to.include({ status: 'failed', phase: 'collect', turns_completed: 0 });
    expect(record.error).to.equal(
      'collect: sandbox on recording: sync out failed: the archive was cut',
    );
  });
});
