import { expect } from 'chai';
import {
  claudeCodeArgv,
  claudeCodeBinds,
  claudeCodeEnv,
  newSessionId,
  PLACEHOLDER_API_KEY,
} from '../../../../src/agents/index.js';

describe('claude-code adapter', () => {
  describe('invocation', () => {
    it('a first turn names the session evalrig chose; a later turn resumes it', () => {
      const sessionId = newSessionId();
      expect(sessionId).to.match(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      const common = [
        '--output-format',
        'stream-json',
        '--verbose',
        '--dangerously-skip-permissions',
      ];
      expect(claudeCodeArgv({ prompt: 'do it', sessionId, resume: false })).to.deep.equal([
        '/opt/evalrig/agent/claude',
        '-p',
        'do it',
        '--session-id',
        sessionId,
        ...common,
      ]);
      expect(
        claudeCodeArgv({ prompt: 'again', sessionId, resume: true, extraArgs: ['--model', 'x'] }),
      ).to.deep.equal([
        '/opt/evalrig/agent/claude',
        '-p',
        'again',
        '--resume',
        sessionId,
        ...common,
        '--model',
        'x',
      ]);
      expect(claudeCodeArgv({ prompt: 'x', sessionId, resume: false })).to.not.include('--bare');
    });

    it('the container gets a placeholder key, the gateway socket and no side traffic', () => {
      const env = claudeCodeEnv('/home/agent');
      expect(env).to.deep.equal({
        HOME: '/home/agent',
        ANTHROPIC_UNIX_SOCKET: '/run/evalrig-model/model.sock',
        ANTHROPIC_BASE_URL: 'http://localhost',
        ANTHROPIC_API_KEY: PLACEHOLDER_API_KEY,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      });
      expect(claudeCodeBinds('/cache/claude.exe', '/runs/r1/model')).to.deep.equal([
        { host: '/cache/claude.exe', container: '/opt/evalrig/agent/claude', readOnly: true },
        { host: '/runs/r1/model', container: '/run/evalrig-model', readOnly: true },
      ]);
    });
  });
});
