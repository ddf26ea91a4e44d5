import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { CODEX_CONTAINER, CodexSession, codexArgv } from '../../../../src/agents/index.js';

const FIXTURES = 'test/fixtures/transcripts/codex-0.171.0';
const fixture = (name: string): string => readFileSync(`${FIXTURES}/${name}`, 'utf8');
const MODEL = 'gpt-5.1-codex';
const THREAD = '01a22a96-42ca-7f00-8c0b-470c499f03d5';

describe('codex adapter', () => {
  describe('invocation', () => {
    it('the first turn starts a thread through the relay; later ones resume the thread Codex named', () => {
      const session = new CodexSession(MODEL);
      const first = session.argv('make the branch');
      expect(first.slice(0, 6)).to.deep.equal([
        CODEX_CONTAINER.relay,
        String(CODEX_CONTAINER.relayPort),
        CODEX_CONTAINER.modelSocket,
        '--',
        CODEX_CONTAINER.binary,
        'exec',
      ]);
      expect(first).to.include.members([
        '--json',
        '--dangerously-bypass-approvals-and-sandbox',
        `model_provider="evalrig"`,
        `model_providers.evalrig={name="evalrig",base_url="http://127.0.0.1:${CODEX_CONTAINER.relayPort}/v1",env_key="OPENAI_API_KEY",wire_api="responses"}`,
        `model="${MODEL}"`,
      ]);
      expect(first.slice(-2)).to.deep.equal(['--', 'make the branch']);
      session.take(fixture('turn-01.jsonl'));
      expect(session.threadId).to.equal(THREAD);
      const second = session.argv('push it');
      expect(second.slice(5, 7)).to.deep.equal(['exec', 'resume']);
      expect(second.slice(-3)).to.deep.equal(['--', THREAD, 'push it']);
    });

    it('never takes a thread id that could be read as an option or an argument', () => {
      const session = new CodexSession(MODEL);
      session.take('{"type":"thread.started","thread_id":"--config=x y"}\n');
      expect(session.threadId).to.equal(null);
      expect(codexArgv({ prompt: 'p', model: MODEL, threadId: null })).to.not.include('resume');
    });
  });
});
