import { expect } from 'chai';
import type { RunRecord } from '../../../src/artifacts/index.js';
import { rowOf } from '../../../src/view/rows.js';
import { selectRows } from '../../../src/view/client/data.js';

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

  it('names the agent that played each run, and a page of runs keeps one agent (?agent=)', () => {
    const base = {
      eval: 'e',
      condition: 'with_skill',
      status: 'completed',
      duration_ms: 1,
      turns_completed: 1,
      measures: { checks_passed: null, record_tampered: false, environment_broken: false },
      checks: [],
    };
    const agent = (pkg: string) => ({ agent: { package: pkg, version: '1.0.0' } });
    const rows = [
      rowOf({ ...base, run: 1, ...agent('@openai/codex') } as unknown as RunRecord, null, null),
      rowOf(
        { ...base, run: 2, ...agent('@anthropic-ai/claude-code') } as unknown as RunRecord,
        null,
        null,
      ),
      rowOf({ ...base, run: 3 } as unknown as RunRecord, null, null),
      rowOf({ ...base, run: 4, ...agent('some-agent') } as unknown as RunRecord, null, null),
    ];
    expect(rows.map((r) => r.agent)).to.deep.equal([
      'codex',
      'claude-code',
      'command',
      'some-agent',
    ]);
    const only = selectRows(rows, new URLSearchParams({ agent: 'codex' }));
    expect(only.map((r) => r.run)).to.deep.equal([1]);
    expect(selectRows(rows, new URLSearchParams())).to.have.length(4);
  });
});
