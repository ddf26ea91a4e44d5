import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { InputError } from '../../../src/errors/index.js';
import { engineAddress } from '../../../src/sandbox/index.js';
import { engineChoices } from '../../../src/cli/commands/run.js';

/** `--engine` values, spelled as the Docker CLI spells engines. */
describe('sandbox/engines: naming engines', () => {
  let home: string;
  beforeEach(async () => {
    home = await mkdtemp(path.join(tmpdir(), 'evalrig-engines-'));
  });
  afterEach(() => rm(home, { recursive: true, force: true }));

  async function certs(dir: string): Promise<void> {
    await mkdir(dir, { recursive: true });
    for (const f of ['ca.pem', 'cert.pem', 'key.pem']) await writeFile(path.join(dir, f), `${f}\n`);
  }

  it('reads unix sockets; only the default socket is the local engine', () => {
    expect(engineAddress('unix:///var/run/docker.sock', {}, home)).to.include({ local: true });
    const other = engineAddress('unix:///tmp/d.sock', {}, home);
    expect(other.options).to.deep.equal({ socketPath: '/tmp/d.sock' });
    expect(other.local).to.equal(false);
    expect(engineAddress('/run/docker.sock', {}, home).where).to.equal('unix:///run/docker.sock');
  });

  it('reads tcp:// plain, or with TLS from DOCKER_CERT_PATH when DOCKER_TLS_VERIFY is set', async () => {
    expect(engineAddress('tcp://127.0.0.1:2999', {}, home).options).to.deep.equal({
      protocol: 'http',
      host: '127.0.0.1',
      port: '2999',
    });
    await certs(path.join(home, 'certs'));
    const tls = engineAddress(
      'tcp://build.example:2376',
      { DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: path.join(home, 'certs') },
      home,
    );
    expect(tls.options.protocol).to.equal('https');
    expect(String(tls.options.ca)).to.equal('ca.pem\n');
    expect(String(tls.options.key)).to.equal('key.pem\n');
    // Where they were read from, for the reaper to read them itself.
    const dir = path.join(home, 'certs');
    expect(tls.tlsFiles).to.deep.equal({
      ca: path.join(dir, 'ca.pem'),
      cert: path.join(dir, 'cert.pem'),
      key: path.join(dir, 'key.pem'),
    });
    const missing = () =>
      engineAddress('tcp://h:2376', { DOCKER_TLS_VERIFY: '1', DOCKER_CERT_PATH: '/nowhere' }, home);
    expect(missing).to.throw(
      InputError,
      /--engine "tcp:\/\/h:2376": TLS is asked for but \/nowhere\/ca\.pem/u,
    );
  });

  it('reads ssh://user@host with the ssh agent, its host key checked against known_hosts', async () => {
    const key = Buffer.from('the host key');
    await mkdir(path.join(home, '.ssh'));
    await writeFile(
      path.join(home, '.ssh', 'known_hosts'),
      `[builder]:2222 ssh-ed25519 ${key.toString('base64')}\n`,
    );
    const a = engineAddress('ssh://ci@builder:2222', { SSH_AUTH_SOCK: '/tmp/agent' }, home);
    expect(a.options).to.deep.include({
      protocol: 'ssh',
      host: 'builder',
      port: '2222',
      username: 'ci',
    });
    const ssh = (a.options as { sshOptions: { agent: string; hostVerifier(k: Buffer): boolean } })
      .sshOptions;
    expect(ssh.agent).to.equal('/tmp/agent');
    expect(ssh.hostVerifier(key)).to.equal(true);
    expect(ssh.hostVerifier(Buffer.from('another key'))).to.equal(false);
    // What evalrig's own transport and the reaper dial: the keys known_hosts accepts, no secret.
    expect(a.ssh).to.deep.equal({
      host: 'builder',
      port: 2222,
      username: 'ci',
      agent: '/tmp/agent',
      hostKeys: [key],
    });
    expect(() => engineAddress('ssh://ci@builder', {}, home)).to.throw(
      InputError,
      /--engine "ssh:\/\/ci@builder": no ssh host key is known for builder /u,
    );
    expect(() => engineAddress('ssh://builder', {}, home)).to.throw(InputError, /names its user/u);
  });

  it('reads a Docker context by name, its TLS files included', async () => {
    const id = createHash('sha256').update('remote-box').digest('hex');
    const meta = path.join(home, '.docker', 'contexts', 'meta', id);
    await mkdir(meta, { recursive: true });
    await writeFile(
      path.join(meta, 'meta.json'),
      JSON.stringify({
        Name: 'remote-box',
        Endpoints: { docker: { Host: 'tcp://10.1.2.3:2376' } },
      }),
    );
    await certs(path.join(home, '.docker', 'contexts', 'tls', id, 'docker'));
    const a = engineAddress('remote-box', {}, home);
    expect(a.name).to.equal('remote-box');
    expect(a.options).to.deep.include({ protocol: 'https', host: '10.1.2.3', port: '2376' });
    expect(() => engineAddress('nope', {}, home)).to.throw(
      InputError,
      /no Docker context of that name/u,
    );
  });

  it('refuses what it cannot read, naming the flag', () => {
    expect(() => engineAddress('ftp://x', {}, home)).to.throw(
      InputError,
      /--engine "ftp:\/\/x": ftp:/u,
    );
    expect(() => engineAddress('  ', {}, home)).to.throw(InputError, /empty/u);
  });

  it('marks an engine as seeing the host disk when local or named by --engine-mounts', () => {
    const choices = engineChoices({
      engine: ['unix:///var/run/docker.sock', 'unix:///tmp/a.sock', 'unix:///tmp/b.sock'],
      engineMounts: ['unix:///tmp/b.sock'],
    });
    expect(choices?.map((c) => c.mounts)).to.deep.equal([true, false, true]);
    expect(() => engineChoices({ engine: ['unix:///tmp/a.sock'], engineMounts: ['x'] })).to.throw(
      InputError,
      /not one of the --engine values/u,
    );
    expect(engineChoices({})).to.equal(undefined);
  });
});
