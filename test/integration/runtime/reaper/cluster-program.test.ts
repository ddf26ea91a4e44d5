/**
 * A cluster's reaper as the program it is (dist/reaper/reaper.cjs, its sweep in
 * kubernetes-api.cjs beside it), with no cluster: what it cannot read it says at its start and
 * ends; a cluster that does not answer keeps it no longer than its sweep's bound. The sweep
 * against a real cluster: test/sandbox/kubernetes-reaper.test.ts.
 */
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ReaperConfig } from '../../../../src/runtime/reaper/config.js';

const PROGRAM = path.resolve(import.meta.dirname, '../../../../dist/reaper/reaper.cjs');

/** The program on `config`; `closeAfterMs`: its stdin closed then (the orchestrator gone). */
function reaper(
  config: ReaperConfig,
  closeAfterMs?: number,
): Promise<{ code: number | null; stderr: string; ms: number }> {
  const t0 = Date.now();
  const child = spawn(process.execPath, [PROGRAM, JSON.stringify(config)], {
    stdio: ['pipe', 'ignore', 'pipe'],
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
  });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  if (closeAfterMs !== undefined) setTimeout(() => child.stdin.end(), closeAfterMs);
  return new Promise((resolve) =>
    child.on('exit', (code) => resolve({ code, stderr, ms: Date.now() - t0 })),
  );
}

describe('reaper: a cluster reaper as a program, no cluster needed', function () {
  this.timeout(60_000);
  let dir: string;
  let kubeconfig: string;
  const base = { https: true, labels: ['evalrig.session=x'], placeLabel: 'evalrig.place' };

  before(async function () {
    if (!existsSync(PROGRAM)) throw new Error(`${PROGRAM} is missing: run npm run build`);
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-reaper-k8s-'));
    // Port 1 of loopback: nothing answers there.
    kubeconfig = await kubeconfigAt('https://127.0.0.1:1');
  });

  after(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** A kubeconfig whose API server is `server` (https://127.0.0.1:PORT). */
  async function kubeconfigAt(server: string): Promise<string> {
    const file = path.join(dir, `kubeconfig-${server.replace(/\W/gu, '-')}`);
    await writeFile(
      file,
      [
        'apiVersion: v1',
        'kind: Config',
        `clusters: [{name: c, cluster: {server: "${server}"}}]`,
        'users: [{name: u, user: {token: t}}]',
        'contexts: [{name: ci, context: {cluster: c, user: u, namespace: evalrig}}]',
        'current-context: ci',
        '',
      ].join('\n'),
    );
    return file;
  }

  it('a kubeconfig it cannot read: said at its start, before the orchestrator ends, exit 1', async () => {
    const missing = path.join(dir, 'absent.kubeconfig');
    const r = await reaper({
      ...base,
      sweepMs: 10_000,
      kubernetes: { kubeconfig: missing, namespace: 'evalrig' },
    });
    expect(r.code).to.equal(1);
    expect(r.stderr).to.include(missing);
  });

  it('a context the kubeconfig lacks: named, exit 1', async () => {
    const r = await reaper({
      ...base,
      sweepMs: 10_000,
      kubernetes: { kubeconfig, context: 'nope', namespace: 'evalrig' },
    });
    expect(r.code).to.equal(1);
    expect(r.stderr.trim()).to.equal('reaper: the kubeconfig has no context named nope');
  });

  it('a cluster that does not answer: it keeps trying for sweepMs after the orchestrator ended, then exits', async () => {
    const r = await reaper(
      { ...base, sweepMs: 2000, kubernetes: { kubeconfig, context: 'ci', namespace: 'evalrig' } },
      500,
    );
    expect(r.code).to.equal(0);
    expect(r.ms).to.be.within(2500, 15_000);
  });

  it('an API server that accepts and never answers: each call is bounded, so it still ends', async () => {
    const held: Socket[] = [];
    const silent: Server = createServer((socket) => held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as { port: number };
      const at = await kubeconfigAt(`https://127.0.0.1:${port}`);
      const r = await reaper(
        { ...base, sweepMs: 1000, kubernetes: { kubeconfig: at, namespace: 'evalrig' } },
        200,
      );
      expect(r.code).to.equal(0);
      expect(held.length, 'it did dial the silent server').to.be.at.least(1);
      // One call's bound (5 s) and a pause, past the rounds' own bound.
      expect(r.ms).to.be.within(5000, 15_000);
    } finally {
      for (const s of held) s.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
