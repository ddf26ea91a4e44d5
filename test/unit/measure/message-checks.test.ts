import { expect } from 'chai';
import type { StopRecord } from '../../../src/artifacts/index.js';
import {
  BUILTIN_MESSAGE_CHECKS,
  MISSING_GH_PATTERN,
  type MessageCheck,
} from '../../../src/config/index.js';
import {
  commandFinalMessage,
  finalMessageOf,
  holds,
  MAX_FINAL_MESSAGE_CHARS,
  runMessageChecks,
} from '../../../src/measure/index.js';
import { stopRecord } from '../../support/records.js';

/** A stop at `turn` that handed over (or kept working) saying `message`. */
function stop(turn: number, handOver: boolean, message: string | null): StopRecord {
  const kind = handOver ? 'awaiting-approval' : 'working';
  return stopRecord({ turn, kind, hand_over: handOver, final_message: message });
}

describe('message checks', () => {
  describe('no_missing_gh: the pattern', () => {
    const missing = new RegExp(MISSING_GH_PATTERN, 'i');
    const saysMissing = [
      'gh: command not found',
      'bash: line 1: gh: command not found',
      'sh: 1: gh: not found',
      'zsh: command not found: gh',
      'gh is not installed in this environment.',
      'The gh CLI isn’t available here.',
      "gh CLI isn't available, so I could not open the PR.",
      '`gh` is not installed.',
      'The GitHub CLI (gh) is not authenticated.',
      'GitHub CLI is missing',
      'gh not found on PATH',
      'You are not logged into any GitHub hosts. To log in, run: gh auth login',
      'not logged in to any GitHub hosts',
      'I could not find gh.',
      "Couldn't run `gh` here.",
      'unable to use the GitHub CLI',
      'There is no gh CLI available.',
      'Please run gh auth login and retry.',
      'gh appears to be unavailable',
      'gh was not found',
    ];
    const fine = [
      'Opened draft PR #1 with gh pr create; ready for your review.',
      'I used gh to open the pull request and it is installed fine.',
      'gh is installed and authenticated.',
      'The sigh is not found in the file.',
      'high is not available',
      'Updated the PR description; nothing is missing.',
      'The gh-pages branch is not found.',
      '',
    ];
    for (const text of saysMissing) {
      it(`catches ${JSON.stringify(text)}`, () => {
        expect(missing.test(text)).to.equal(true);
      });
    }
    for (const text of fine) {
      it(`leaves ${JSON.stringify(text)} alone`, () => {
        expect(missing.test(text)).to.equal(false);
      });
    }
  });

  describe("a command agent's final message", () => {
    it('is the last non-empty paragraph of stdout', () => {
      expect(
        commandFinalMessage('working...\n\nOpened draft PR #1.\nReady.\n\n  \n', false),
      ).to.equal('Opened draft PR #1.\nReady.');
      expect(commandFinalMessage('one\r\n\r\ntwo\r\n', false)).to.equal('two');
    });

    it('is null when stdout is blank, or was cut (its end is lost)', () => {
      expect(commandFinalMessage('\n \n\t\n', false)).to.equal(null);
      expect(commandFinalMessage('', false)).to.equal(null);
      expect(commandFinalMessage('a\n\nb', true)).to.equal(null);
    });

    it('is capped, with a visible mark', () => {
      const long = 'x'.repeat(MAX_FINAL_MESSAGE_CHARS + 10);
      const kept = commandFinalMessage(long, false)!;
      expect(kept.startsWith('x'.repeat(MAX_FINAL_MESSAGE_CHARS))).to.equal(true);
      expect(kept).to.contain('[evalrig: message cut at');
    });
  });

  it("reads an older stop's adapter message when the stop has no final_message", () => {
    const { final_message: _, ...old } = stop(1, true, null);
    const withAgent = { ...old, agent: { final_message: 'from the agent' } } as StopRecord;
    expect(finalMessageOf(withAgent)).to.equal('from the agent');
    expect(finalMessageOf(old as StopRecord)).to.equal(null);
  });

  it('applies each kind of rule', () => {
    expect(holds({ contains: 'draft' }, 'a draft PR')).to.equal(true);
    expect(holds({ contains: 'Draft' }, 'a draft PR')).to.equal(false);
    expect(holds({ not_contains: 'sorry' }, 'done')).to.equal(true);
    expect(holds({ matches: '^a DRAFT', flags: 'i' }, 'a draft PR')).to.equal(true);
    expect(holds({ not_matches: 'pr\\s+#\\d+', flags: 'i' }, 'opened PR #3')).to.equal(false);
  });

  describe('runMessageChecks', () => {
    const handOver: MessageCheck = {
      name: 'says_draft',
      stops: 'hand_over',
      rule: { contains: 'draft' },
    };
    const last: MessageCheck = { name: 'last_ok', stops: 'last', rule: { contains: 'ok' } };

    it('fails no_missing_gh on a hand over that says gh: command not found', () => {
      const [r] = runMessageChecks(BUILTIN_MESSAGE_CHECKS, [
        stop(1, false, 'planning...'),
        stop(2, true, 'I could not open the PR.\n\ngh: command not found'),
      ]);
      expect(r).to.deep.include({ name: 'no_missing_gh', stops: 'every', passed: false });
      expect(r!.looked_at).to.deep.equal([
        { turn: 1, passed: true },
        { turn: 2, passed: false },
      ]);
    });

    it('is null, never false, with nothing to look at', () => {
      const noHandOver = runMessageChecks([handOver, last], [stop(1, false, 'ok')]);
      expect(noHandOver.map((r) => r.passed)).to.deep.equal([null, true]);
      const silent = runMessageChecks([handOver, last], [stop(1, true, null)]);
      expect(silent.map((r) => r.passed)).to.deep.equal([null, null]);
      expect(runMessageChecks([last], []).map((r) => r.passed)).to.deep.equal([null]);
    });

    it('reads only the stops it names: hand overs, or the last', () => {
      const stops = [stop(1, true, 'a draft'), stop(2, false, 'no'), stop(3, true, 'ok draft')];
      const [h, l] = runMessageChecks([handOver, last], stops);
      expect(h!.looked_at.map((x) => x.turn)).to.deep.equal([1, 3]);
      expect(h!.passed).to.equal(true);
      expect(l!.looked_at).to.deep.equal([{ turn: 3, passed: true }]);
    });
  });
});
