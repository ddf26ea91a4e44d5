import { expect } from 'chai';
import type { GradingFile } from '../../../../src/artifacts/index.js';
import { gradingChanges, type JudgeNow } from '../../../../src/campaign/reuse/index.js';

const NOW: JudgeNow = {
  judge: { model: 'judge', source: 'script', script_sha256: '1'.repeat(64) },
  rubric: { version: 'grading-rubric@1', sha256: '2'.repeat(64) },
};

const GRADING = {
  judge: NOW.judge,
  rubric: NOW.rubric,
  expectations: [{ expectation: 'math.js exports multiply.', passed: true, evidence: 'x' }],
} as unknown as GradingFile;

/** A reused run keeps its grading only when the same judge graded it against the same text. */
describe('reuse: whether a reused run keeps its grading', () => {
  it('keeps it when the judge, its script, the rubric and the expectations are the same', () => {
    expect(gradingChanges(GRADING, NOW, ['math.js exports multiply.'])).to.deep.equal([]);
  });

  it('names each thing that changed: it is graded again', () => {
    const other: JudgeNow = {
      judge: { model: 'judge-2', source: 'script', script_sha256: '3'.repeat(64) },
      rubric: { version: 'grading-rubric@2', sha256: '4'.repeat(64) },
    };
    expect(gradingChanges(GRADING, other, ['math.js exports divide.'])).to.deep.equal([
      "the judge's model",
      "the judge's script",
      'the grading rubric',
      'the expectations',
    ]);
    const api: JudgeNow = { ...NOW, judge: { model: 'judge', source: 'api', url: 'https://x' } };
    expect(gradingChanges(GRADING, api, ['math.js exports multiply.'])).to.deep.equal([
      "the judge's API",
    ]);
  });
});
