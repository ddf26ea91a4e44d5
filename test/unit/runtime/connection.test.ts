import { expect } from 'chai';
import { dockerEndpoint } from '../../../src/runtime/index.js';

describe('runtime/dockerEndpoint', () => {
  it('uses the default socket when DOCKER_HOST is unset', () => {
    const e = dockerEndpoint({});
    expect(e.where).to.equal('unix:///var/run/docker.sock');
    expect(e.options).to.deep.equal({ socketPath: '/var/run/docker.sock' });
  });

  it('reads a unix socket from DOCKER_HOST', () => {
    const e = dockerEndpoint({ DOCKER_HOST: 'unix:///tmp/other.sock' });
    expect(e.options).to.deep.equal({ socketPath: '/tmp/other.sock' });
    expect(e.where).to.equal('unix:///tmp/other.sock');
  });

  it('reads a tcp address from DOCKER_HOST', () => {
    const e = dockerEndpoint({ DOCKER_HOST: 'tcp://127.0.0.1:2375' });
    expect(e.options).to.deep.equal({ host: '127.0.0.1', port: '2375', protocol: 'http' });
  });

  it('refuses an address it cannot read, naming it', () => {
    expect(() => dockerEndpoint({ DOCKER_HOST: 'tcp://[bad' })).to.throw(
      /DOCKER_HOST="tcp:\/\/\[bad"/,
    );
  });
});
