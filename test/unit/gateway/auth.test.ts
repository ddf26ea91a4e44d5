/** How the gateway composes an upstream's path and the headers of each way of signing in. */
import { expect } from 'chai';
import { keyHeader, OAUTH_BETA, upstreamPath, withBeta } from '../../../src/gateway/server.js';

describe('gateway auth: upstream paths and headers', () => {
  it("appends the API's path to the base, without repeating a version the base ends in", () => {
    expect(upstreamPath('/', '/v1/messages')).to.equal('/v1/messages');
    expect(upstreamPath('/proxy', '/v1/responses')).to.equal('/proxy/v1/responses');
    expect(upstreamPath('/openai/v1', '/v1/responses')).to.equal('/openai/v1/responses');
    expect(upstreamPath('/openai/v1/', '/v1/responses')).to.equal('/openai/v1/responses');
    expect(upstreamPath('/v1beta', '/v1beta/models/m:generateContent')).to.equal(
      '/v1beta/models/m:generateContent',
    );
    // Only a version segment is folded: another shared name is kept twice.
    expect(upstreamPath('/v2', '/v1/responses')).to.equal('/v2/v1/responses');
    expect(upstreamPath('/api', '/api/x')).to.equal('/api/api/x');
  });

  it('signs an OAuth token as a bearer, with the OAuth beta added to the agent betas once', () => {
    expect(keyHeader('oauth', 't')).to.deep.equal({ authorization: 'Bearer t' });
    expect(keyHeader('x-api-key', 'k')).to.deep.equal({ 'x-api-key': 'k' });
    expect(withBeta(undefined)).to.equal(OAUTH_BETA);
    expect(withBeta('a, b,,')).to.equal(`a,b,${OAUTH_BETA}`);
    expect(withBeta(`${OAUTH_BETA},a`)).to.equal(`${OAUTH_BETA},a`);
  });
});
