import { expect } from 'chai';
import type { RunRecord } from '../../../src/artifacts/index.js';
import { rowOf } from '../../../src/view/rows.js';

describe('view rows: what the runs behind a verdict line show', () => {
  it("gives each check's value as checks.<name>, beside the measures and message checks", () => {
    const record = {
      eval: 'fix-bug',
      condition: 'with_skill',
      run: 3,
      status: 'completed',
      duration_ms: 1000,
      turns_completed: 1,
      measures: { checks_passed: false, record_tampered: false, environment_broken: false },
      checks: [
        { name: 'tests', command: 'npm test', passed: false, exit_code: 1, duration_ms: 5 },
        { name: 'lint', command: 'npm run lint', passed: true, exit_code: 0, duration_ms: 5 },
      ],
      message_checks: [{ name: 'no_missing_gh', passed: true }],
    } as unknown as RunRecord;
    const row = rowOf(record, null, null);
    expect(row.measures).to.include({
      'checks.tests': false,
      'checks.lint': true,
      'message_checks.no_missing_gh': true,
      checks_passed: false,
    });
    expect(row.flags.failed_check).to.equal(true);
  });
});
