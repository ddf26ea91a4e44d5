import { expect } from 'chai';
import { codexEnv, parseCodexVersion, PLACEHOLDER_API_KEY } from '../../../../src/agents/index.js';

describe('codex adapter', () => {
  describe('invocation', () => {
    it('its environment holds the placeholder key only, and CODEX_HOME in the run’s home', () => {
      expect(codexEnv('/tmp/home')).to.deep.equal({
        HOME: '/tmp/home',
        CODEX_HOME: '/tmp/home',
        OPENAI_API_KEY: PLACEHOLDER_API_KEY,
      });
    });

    it('reads the version codex --version answers', () => {
      expect(parseCodexVersion('codex-cli 0.171.0\n')).to.equal('0.171.0');
      expect(parseCodexVersion('0.171.0')).to.equal(null);
    });
  });
});
