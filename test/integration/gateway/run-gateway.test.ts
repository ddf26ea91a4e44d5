import { expect } from 'chai';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openRunGateway } from '../../../src/gateway/index.js';

function post(socketPath: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ socketPath, path: '/v1/messages', method: 'POST' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('a run’s model gateway', () => {
  let runDir: string;
  beforeEach(async () => {
    runDir = await mkdtemp(path.join(tmpdir(), 'evalrig-run-'));
  });
  afterEach(async () => {
    await rm(runDir, { recursive: true, force: true });
  });

  it('opens a 0711 socket folder, plays the run’s own copy of the script, logs in the run folder, and cleans up', async () => {
    const script = { responses: [{ content: [{ text: 'one' }] }] };
    const logPath = path.join(runDir, 'model-calls.jsonl');
    const a = await openRunGateway({ source: { script }, logPath });
    const b = await openRunGateway({ source: { script }, logPath: path.join(runDir, 'b.jsonl') });
    try {
      expect((await lstat(a.hostDir)).mode & 0o777).to.equal(0o711);
      expect((await lstat(a.socketPath)).isSocket()).to.equal(true);
      expect(a.hostDir).to.not.equal(b.hostDir);
      const ask = JSON.stringify({ model: 'm', messages: [] });
      // Each run starts the script from its first response.
      expect(JSON.parse((await post(a.socketPath, ask)).body).content).to.deep.equal([
        { type: 'text', text: 'one' },
      ]);
      expect((await post(b.socketPath, ask)).status).to.equal(200);
      expect((await post(a.socketPath, ask)).status).to.equal(400); // a's script is used up
    } finally {
      await a.close();
      await b.close();
    }
    expect(await lstat(a.hostDir).catch(() => null)).to.equal(null);
    const lines = (await readFile(logPath, 'utf8')).trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { status: number }).status)).to.deep.equal([
      200, 400,
    ]);
  });

  it('refuses a socket folder whose path passes the socket path limit, leaving nothing behind', async () => {
    const deep = path.join(runDir, 'x'.repeat(90));
    await mkdir(deep);
    let error: unknown;
    try {
      await openRunGateway({
        source: { url: 'http://127.0.0.1:9' },
        logPath: path.join(runDir, 'l'),
        socketRoot: deep,
      });
    } catch (e) {
      error = e;
    }
    expect(String(error)).to.match(/is longer than 100 bytes; give a shorter socket folder/);
    expect(await readdir(deep)).to.deep.equal([]);
  });
});
