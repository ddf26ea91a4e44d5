import { expect } from 'chai';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { knownHostKeys, knownHostsFiles } from '../../../src/sandbox/known-hosts.js';

const A = Buffer.from('key A blob');
const B = Buffer.from('key B blob');
const C = Buffer.from('key C blob');
const b64 = (k: Buffer): string => k.toString('base64');

/** An OpenSSH hashed host name: |1|salt|HMAC-SHA1(salt, name). */
function hashed(name: string): string {
  const salt = randomBytes(20);
  const mac = createHmac('sha1', salt).update(name).digest('base64');
  return `|1|${salt.toString('base64')}|${mac}`;
}

/** known_hosts as OpenSSH reads it, for `ssh://` engines. */
describe('sandbox/known-hosts: the host keys ssh would accept', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-known-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  async function file(lines: string[]): Promise<string> {
    const f = path.join(dir, `known_hosts_${lines.length}_${Math.random()}`);
    await writeFile(f, lines.join('\n'));
    return f;
  }

  it('names a host on port 22 plainly and on another port as [host]:port', async () => {
    const f = await file([
      `builder ssh-ed25519 ${b64(A)}`,
      `[builder]:2222 ssh-ed25519 ${b64(B)} comment`,
    ]);
    const on22 = knownHostKeys('builder', 22, [f]);
    expect(on22.name).to.equal('builder');
    expect(on22.accepts(A)).to.equal(true);
    expect(on22.accepts(B)).to.equal(false);
    const on2222 = knownHostKeys('builder', 2222, [f]);
    expect(on2222.name).to.equal('[builder]:2222');
    expect(on2222.accepts(B)).to.equal(true);
    expect(on2222.accepts(A)).to.equal(false);
  });

  it('reads hashed names, lists of patterns, wildcards and negations', async () => {
    const f = await file([
      '# a comment',
      '',
      `${hashed('[10.0.0.7]:2222')} ssh-ed25519 ${b64(A)}`,
      `other,10.0.0.* ecdsa-sha2-nistp256 ${b64(B)}`,
      `*,!10.0.0.7 ssh-rsa ${b64(C)}`,
    ]);
    const hashedHost = knownHostKeys('10.0.0.7', 2222, [f]);
    expect(hashedHost.accepts(A)).to.equal(true);
    expect(hashedHost.accepts(B), 'another port than 10.0.0.*').to.equal(false);
    const wild = knownHostKeys('10.0.0.7', 22, [f]);
    expect(wild.accepts(B), '10.0.0.*').to.equal(true);
    expect(wild.accepts(C), 'negated').to.equal(false);
    expect(knownHostKeys('10.0.0.8', 22, [f]).accepts(C)).to.equal(true);
  });

  it('refuses a @revoked key and ignores @cert-authority lines', async () => {
    const f = await file([
      `builder ssh-ed25519 ${b64(A)}`,
      `@revoked builder ssh-ed25519 ${b64(A)}`,
      `@cert-authority builder ssh-ed25519 ${b64(B)}`,
    ]);
    const k = knownHostKeys('builder', 22, [f]);
    expect(k.accepts(A)).to.equal(false);
    expect(k.accepts(B)).to.equal(false);
  });

  it("reads the user's files, then the system's; a missing file is no error", async () => {
    expect(knownHostsFiles('/home/u')).to.deep.equal([
      '/home/u/.ssh/known_hosts',
      '/home/u/.ssh/known_hosts2',
      '/etc/ssh/ssh_known_hosts',
      '/etc/ssh/ssh_known_hosts2',
    ]);
    const f = await file([`builder ssh-ed25519 ${b64(A)}`]);
    const k = knownHostKeys('builder', 22, [path.join(dir, 'absent'), f]);
    expect(k.accepts(A)).to.equal(true);
  });
});
