import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { copyFile, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ensureTestImage } from '../../src/image/index.js';
import { requireDocker, testDocker } from '../support/docker.js';
import { containersWhile, expectBothRunsCompleted, nominalWorkspace } from '../support/engines.js';
import { campaignContainers, cli, runRecords, waitFor } from '../support/faults.js';
import {
  makeCertificates,
  startSecondEngine,
  type SecondEngine,
} from '../support/second-engine.js';
import { makeToyWorkspace, type ToyWorkspace } from '../support/toy.js';

/**
 * A Docker engine reached over TLS, both sides verified (`dockerd --tlsverify`),
 * named as the Docker CLI names it: `tcp://` with DOCKER_TLS_VERIFY and
 * DOCKER_CERT_PATH, or a Docker context whose TLS files are in the context store.
 */
describe('a campaign on a TLS engine', function () {
  this.timeout(600_000);
  let engine: SecondEngine;
  let ws: ToyWorkspace;
  let tlsEnv: Record<string, string>;

  before(async function () {
    await requireDocker();
    if (process.getuid?.() !== 0) this.skip();
    engine = await startSecondEngine({ tls: true });
    tlsEnv = { DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: engine.certPath! };
    // The test image is built where the campaign's first engine is: this one.
    await ensureTestImage(testDocker(), { onProgress: () => undefined });
    await engine.loadImage('evalrig-base:bookworm');
    ws = await nominalWorkspace();
  });
  after(async () => {
    await ws?.cleanup();
    await engine?.stop();
  });

  /** Runs the campaign in `out` on `engine`, and what the engines held meanwhile. */
  async function play(out: string, spec: string, env: Record<string, string>) {
    const args = ['run', ws.evalSetFile, '--out', out, '--jobs', '2', '--no-report'];
    const running = cli([...args, '--engine', spec], env);
    const held = await containersWhile(running, out, {
      tls: engine.client(),
      first: testDocker(),
    });
    return { result: await running, tls: held.tls, first: held.first };
  }

  it('tcp:// with DOCKER_TLS_VERIFY and DOCKER_CERT_PATH: every run plays on that engine', async () => {
    const out = path.join(ws.root, 'tcp');
    const played = await play(out, engine.tcpHost!, tlsEnv);
    expect(played.result.exitCode, played.result.stderr).to.equal(0);
    expect(played.tls, 'run containers on the TLS engine').to.equal(2);
    expect(played.first, 'run containers on the first engine').to.equal(0);
    await expectBothRunsCompleted(out);
  });

  it('a Docker context whose TLS files are in the context store plays the same', async () => {
    const config = path.join(ws.root, 'docker-config');
    const name = 'tls-test';
    const id = createHash('sha256').update(name).digest('hex');
    const meta = path.join(config, 'contexts', 'meta', id);
    const tls = path.join(config, 'contexts', 'tls', id, 'docker');
    await mkdir(meta, { recursive: true });
    await mkdir(tls, { recursive: true });
    await writeFile(
      path.join(meta, 'meta.json'),
      JSON.stringify({
        Name: name,
        Metadata: {},
        Endpoints: { docker: { Host: engine.tcpHost, SkipTLSVerify: false } },
      }),
    );
    for (const f of ['ca.pem', 'cert.pem', 'key.pem'])
      await copyFile(path.join(engine.certPath!, f), path.join(tls, f));
    const out = path.join(ws.root, 'context');
    // No DOCKER_TLS_VERIFY nor DOCKER_CERT_PATH: the context says it all.
    const played = await play(out, name, { DOCKER_CONFIG: config });
    expect(played.result.exitCode, played.result.stderr).to.equal(0);
    expect(played.tls).to.equal(2);
    await expectBothRunsCompleted(out);
  });

  /** The campaign is refused before anything runs: one line naming the engine, no stack. */
  function expectRefused(r: { exitCode?: number; stderr: string }, why: RegExp): void {
    expect(r.exitCode, r.stderr).to.equal(1);
    const lines = r.stderr
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('evalrig: warning: '));
    expect(lines, r.stderr).to.have.length(1);
    expect(lines[0]).to.contain(engine.tcpHost!);
    expect(lines[0]).to.match(why);
    expect(r.stderr).not.to.match(/^\s+at /mu);
  }

  it('without DOCKER_TLS_VERIFY (plain HTTP to a TLS port): refused, saying TLS is wanted', async () => {
    const out = path.join(ws.root, 'plain');
    const r = await cli(['run', ws.evalSetFile, '--out', out, '--engine', engine.tcpHost!]);
    expectRefused(r, /speaks TLS.*DOCKER_TLS_VERIFY/u);
    expect(await runRecords(out)).to.have.length(0);
  });

  it('with a CA that did not sign the engine: refused, saying the certificate is not trusted', async () => {
    const other = await makeCertificates(path.join(ws.root, 'other-ca'));
    const out = path.join(ws.root, 'wrong-ca');
    const r = await cli(['run', ws.evalSetFile, '--out', out, '--engine', engine.tcpHost!], {
      DOCKER_TLS_VERIFY: '1',
      DOCKER_CERT_PATH: other.client,
    });
    expectRefused(r, /TLS certificate is not trusted/u);
    expect(await runRecords(out)).to.have.length(0);
  });

  it('with a client certificate the engine did not sign: refused, saying the engine refused it', async () => {
    const other = await makeCertificates(path.join(ws.root, 'other-client'));
    const mixed = path.join(ws.root, 'mixed-certs');
    await mkdir(mixed, { recursive: true });
    await copyFile(path.join(engine.certPath!, 'ca.pem'), path.join(mixed, 'ca.pem'));
    await copyFile(path.join(other.client, 'cert.pem'), path.join(mixed, 'cert.pem'));
    await copyFile(path.join(other.client, 'key.pem'), path.join(mixed, 'key.pem'));
    const out = path.join(ws.root, 'wrong-client');
    const r = await cli(['run', ws.evalSetFile, '--out', out, '--engine', engine.tcpHost!], {
      DOCKER_TLS_VERIFY: '1',
      DOCKER_CERT_PATH: mixed,
    });
    expectRefused(r, /refused evalrig's TLS client certificate/u);
  });

  it('evalrig killed (SIGKILL): its reaper removes its containers on the TLS engine', async () => {
    const slow = await makeToyWorkspace({
      scripts: { slow: { turns: [{ actions: [{ sleep: 30 }, { stop: 'conformant' }] }] } },
      set: { conditions: { a: {}, b: {} }, evals: [{ id: 'slow', prompt: 'wait', runs: 1 }] },
    });
    try {
      const args = ['run', slow.evalSetFile, '--out', slow.outDir, '--jobs', '2', '--no-report'];
      const child = cli([...args, '--engine', engine.tcpHost!], tlsEnv);
      const second = engine.client();
      await waitFor(
        async () => (await campaignContainers(second, slow.outDir)) === 2,
        120_000,
        'both runs on the TLS engine',
      );
      child.kill('SIGKILL');
      await child;
      await waitFor(
        async () => (await campaignContainers(second, slow.outDir)) === 0,
        15_000,
        'no container of the campaign on the TLS engine',
      );
    } finally {
      await slow.cleanup();
    }
  });
});
