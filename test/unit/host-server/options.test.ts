import { expect } from 'chai';
import { EvalrigError } from '../../../src/errors/index.js';
import { checkServerOptions } from '../../../src/host-server/index.js';

describe('host-server: the options checked before anything', () => {
  it('refuses a bound that is not a positive integer, and a relative socket path, naming the server', () => {
    const socketPath = '/run/evalrig/s.sock'; // only its being absolute is checked
    expect(() =>
      checkServerOptions('gh recorder', { socketPath, maxCalls: 3 }, ['maxCalls']),
    ).to.not.throw();
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      expect(() =>
        checkServerOptions('gh recorder', { socketPath, maxCalls: bad }, ['maxCalls']),
      ).to.throw(EvalrigError, `gh recorder: maxCalls must be a positive integer, not ${bad}`);
    }
    expect(() =>
      checkServerOptions('model gateway', { socketPath: 'rel/s.sock', maxConnections: 1 }, [
        'maxConnections',
      ]),
    ).to.throw(EvalrigError, 'model gateway: the socket path rel/s.sock is not absolute');
  });
});
