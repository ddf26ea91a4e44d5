import { expect } from 'chai';
import type { GhCall } from '../../../src/artifacts/index.js';
import { measureRun, type MeasureInput } from '../../../src/measure/index.js';
import { NO_DIFF, pullAtStop, stopRecord } from '../../support/records.js';

function call(over: Partial<GhCall> = {}): GhCall {
  return {
    seq: 1,
    time: '2025-01-01T00:00:00Z',
    argv: ['pr', 'create', '--draft'],
    cwd: '/work',
    command: 'pr create',
    stdin: null,
    description: null,
    exit_code: 0,
    stdout: '',
    stderr: '',
    played: true,
    marks_ready: false,
    pr: 1,
    ...over,
  };
}

function input(over: Partial<MeasureInput> = {}): MeasureInput {
  return {
    stops: [],
    checks: [],
    diff: NO_DIFF,
    turnsCompleted: 0,
    durationMs: 0,
    stoppedAtHandOver: false,
    status: 'completed',
    allCalls: [],
    ...over,
  };
}

describe('measureRun', () => {
  describe('the nominal chain: planning drafts and hands over, the loop refreshes', () => {
    const stops = [stopRecord(), stopRecord({ turn: 2, phase: 'execution', kind: 'conformant' })];
    const m = measureRun(
      input({ stops, allCalls: [call()], turnsCompleted: 2, durationMs: 61_500 }),
    );

    it('gives every pull-request measure its good value', () => {
      expect(m).to.include({
        pr_draft_at_hand_over: true,
        pr_described: true,
        pr_refreshed: true,
        pr_marked_ready: false,
        gh_not_played: 0,
      });
    });

    it('counts turns and seconds', () => {
      expect(m.turns).to.equal(2);
      expect(m.duration_s).to.equal(61.5);
    });
  });

  describe('pr_draft_at_hand_over', () => {
    it('is null when no stop hands over', () => {
      const m = measureRun(input({ stops: [stopRecord({ hand_over: false, kind: 'question' })] }));
      expect(m.pr_draft_at_hand_over).to.equal(null);
    });

    it('is false when one hand over, even a later one, shows no pull request', () => {
      const stops = [stopRecord(), stopRecord({ turn: 2, phase: 'execution', pull: null })];
      expect(measureRun(input({ stops })).pr_draft_at_hand_over).to.equal(false);
    });

    it('is false when the pull request is no draft at a hand over', () => {
      const stops = [stopRecord({ pull: pullAtStop(false, true) })];
      expect(measureRun(input({ stops })).pr_draft_at_hand_over).to.equal(false);
    });

    it('ignores stops that do not hand over (a question before the pull request exists)', () => {
      const stops = [
        stopRecord({ hand_over: false, kind: 'question', pull: null }),
        stopRecord({ turn: 2 }),
      ];
      expect(measureRun(input({ stops })).pr_draft_at_hand_over).to.equal(true);
    });
  });

  describe('pr_described', () => {
    it('is false when a planning hand over holds a stale description', () => {
      const stops = [stopRecord(), stopRecord({ turn: 2, pull: pullAtStop(true, false) })];
      expect(measureRun(input({ stops })).pr_described).to.equal(false);
    });

    it('is false when a description was expected and there is no pull request', () => {
      expect(measureRun(input({ stops: [stopRecord({ pull: null })] })).pr_described).to.equal(
        false,
      );
    });

    it('is null with no description probe', () => {
      const stops = [
        stopRecord({ pull: pullAtStop(true, null), probes: {} }),
        stopRecord({ pull: null, probes: {} }),
      ];
      expect(measureRun(input({ stops })).pr_described).to.equal(null);
    });

    it('is null when planning never hands over', () => {
      const stops = [stopRecord({ hand_over: false }), stopRecord({ turn: 2, phase: 'execution' })];
      expect(measureRun(input({ stops })).pr_described).to.equal(null);
    });

    it('looks only at planning: a stale execution stop does not move it', () => {
      const stops = [
        stopRecord(),
        stopRecord({ turn: 2, phase: 'execution', pull: pullAtStop(true, false) }),
      ];
      const m = measureRun(input({ stops }));
      expect(m.pr_described).to.equal(true);
      expect(m.pr_refreshed).to.equal(false);
    });
  });

  describe('pr_refreshed', () => {
    it('uses the last execution stop when none hands over', () => {
      const stops = [
        stopRecord(),
        stopRecord({
          turn: 2,
          phase: 'execution',
          hand_over: false,
          pull: pullAtStop(true, false),
        }),
        stopRecord({ turn: 3, phase: 'execution', hand_over: false, pull: pullAtStop(true, true) }),
      ];
      expect(measureRun(input({ stops })).pr_refreshed).to.equal(true);
    });

    it('uses every execution hand over when some hand over', () => {
      const stops = [
        stopRecord(),
        stopRecord({ turn: 2, phase: 'execution', hand_over: true, pull: pullAtStop(true, false) }),
        stopRecord({ turn: 3, phase: 'execution', hand_over: false, pull: pullAtStop(true, true) }),
      ];
      expect(measureRun(input({ stops })).pr_refreshed).to.equal(false);
    });

    it('is null when no execution stop was reached', () => {
      expect(measureRun(input({ stops: [stopRecord()] })).pr_refreshed).to.equal(null);
    });

    it('follows the declared execution phases', () => {
      const stops = [
        stopRecord({ phase: 'draft' }),
        stopRecord({ turn: 2, phase: 'loop', pull: pullAtStop(true, false) }),
      ];
      const m = measureRun(input({ stops, executionPhases: ['loop'] }));
      expect(m.pr_described).to.equal(true);
      expect(m.pr_refreshed).to.equal(false);
    });
  });

  describe('a run stopped at the hand over', () => {
    const stops = [stopRecord()];
    const notPlayed = call({ argv: ['pr', 'merge'], played: false, exit_code: 1 });
    const m = measureRun(
      input({ stops, stoppedAtHandOver: true, allCalls: [call(), notPlayed], turnsCompleted: 1 }),
    );

    it('keeps what planning gives', () => {
      expect(m.pr_draft_at_hand_over).to.equal(true);
      expect(m.pr_described).to.equal(true);
      expect(m.gh_not_played).to.equal(1);
    });

    it('leaves the execution measures empty, never false', () => {
      expect(m.pr_refreshed).to.equal(null);
      expect(m.pr_marked_ready).to.equal(null);
    });

    it('still shows a planning that marked the pull request ready', () => {
      const ready = call({ argv: ['pr', 'ready'], marks_ready: true });
      const r = measureRun(input({ stops, stoppedAtHandOver: true, allCalls: [ready] }));
      expect(r.pr_marked_ready).to.equal(true);
    });

    it('leaves execution stops out even if some were given', () => {
      const more = [...stops, stopRecord({ turn: 2, phase: 'execution' })];
      expect(measureRun(input({ stops: more, stoppedAtHandOver: true })).pr_refreshed).to.equal(
        null,
      );
    });
  });

  describe('pr_marked_ready', () => {
    it('is true when any call asked to mark ready, even one that failed', () => {
      const allCalls = [call(), call({ argv: ['pr', 'ready'], marks_ready: true, exit_code: 1 })];
      expect(measureRun(input({ stops: [stopRecord()], allCalls })).pr_marked_ready).to.equal(true);
    });
  });

  describe('a timed-out run', () => {
    it('is measured from the stops it has: the cut turn adds nothing', () => {
      const m = measureRun(
        input({
          stops: [stopRecord()],
          status: 'timed_out',
          turnsCompleted: 1,
          durationMs: 900_000,
        }),
      );
      expect(m).to.include({
        pr_draft_at_hand_over: true,
        pr_described: true,
        pr_refreshed: null,
        pr_marked_ready: false,
        turns: 1,
        duration_s: 900,
      });
    });

    it('with no stop at all has nothing to show', () => {
      const m = measureRun(input({ status: 'timed_out' }));
      expect(m).to.include({
        pr_draft_at_hand_over: null,
        pr_described: null,
        pr_refreshed: null,
        turns: 0,
      });
    });
  });

  describe('counters', () => {
    it('counts the calls not played', () => {
      const allCalls = [call(), call({ played: false }), call({ played: false })];
      expect(measureRun(input({ allCalls })).gh_not_played).to.equal(2);
    });

    it('sums the changed files of the diff, untracked already among the added', () => {
      const diff = {
        ...NO_DIFF,
        files_added: 2,
        files_modified: 3,
        files_deleted: 1,
        untracked: 2,
      };
      const m = measureRun(input({ diff: { ...diff, lines_added: 10, lines_removed: 4 } }));
      expect(m).to.include({ files_changed: 6, lines_added: 10, lines_removed: 4 });
    });

    it('checks_passed: null with no checks, else all of them', () => {
      const check = {
        name: 'tests',
        command: 'npm test',
        passed: true,
        exit_code: 0,
        duration_ms: 10,
        output: '',
        truncated: false,
      };
      expect(measureRun(input()).checks_passed).to.equal(null);
      expect(measureRun(input({ checks: [check] })).checks_passed).to.equal(true);
      const failed = { ...check, passed: false, exit_code: 1 };
      expect(measureRun(input({ checks: [check, failed] })).checks_passed).to.equal(false);
    });

    it('checks_passed: false for a run that failed while the agent had control before its checks ran', () => {
      const ended = { checksDeclared: 2, status: 'failed' as const };
      expect(measureRun(input({ ...ended, failure: 'agent' })).checks_passed).to.equal(false);
      expect(measureRun(input({ ...ended, failure: 'model_api' })).checks_passed).to.equal(false);
      const timedOut = {
        checksDeclared: 1,
        status: 'timed_out' as const,
        failure: 'timeout' as const,
      };
      expect(measureRun(input(timedOut)).checks_passed).to.equal(false);
      // The harness's failure says nothing; an eval without checks neither.
      expect(measureRun(input({ ...ended, failure: 'harness' })).checks_passed).to.equal(null);
      expect(
        measureRun(input({ checksDeclared: 0, status: 'failed', failure: 'agent' })).checks_passed,
      ).to.equal(null);
    });
  });
});
