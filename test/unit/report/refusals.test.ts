import { expect } from 'chai';
import type { RunRecord, StopRecord } from '../../../src/artifacts/index.js';
import { RefusalAccumulator } from '../../../src/report/refusals.js';

/** A run whose agent refused `byName` calls (undefined: a record that did not count refusals). */
function run(
  condition: string,
  byName: Record<string, number> | undefined,
  status: RunRecord['status'] = 'completed',
): [Pick<RunRecord, 'condition' | 'status' | 'agent'>, StopRecord[]] {
  const refused = byName && Object.values(byName).reduce((a, b) => a + b, 0);
  const totals = {
    tool_calls: 5,
    tool_calls_failed: 0,
    ...(refused === undefined ? {} : { tool_calls_refused: refused }),
    model_requests: 1,
    tokens: { input: 1, output: 1, cache_read: 0, cache_write: 0 },
    cost_usd: null,
  };
  const agent = { package: 'p', version: '1', binary_sha256: 'a'.repeat(64), totals };
  const by_name = Object.fromEntries(
    Object.entries(byName ?? {}).map(([n, k]) => [n, { count: k, failed: 0, refused: k }]),
  );
  const stop = { agent: { tool_calls: { total: 5, failed: 0, refused, by_name } } } as StopRecord;
  return [
    { condition, status, agent } as Pick<RunRecord, 'condition' | 'status' | 'agent'>,
    [stop],
  ];
}

describe('report: the tool calls an agent refused, per condition', () => {
  it('counts runs that counted refusals, names the tools most refused first, as one short line each', () => {
    const acc = new RefusalAccumulator(['gemini', 'qwen']);
    acc.add(...run('qwen', { 'bad\nname': 1 }));
    acc.add(...run('gemini', { run_shell_command: 2 }));
    acc.add(...run('gemini', { write_file: 3, run_shell_command: 1 }));
    acc.add(...run('gemini', {}));
    acc.add(...run('gemini', undefined));
    acc.add(...run('gemini', { x: 9 }, 'failed'));
    const [gemini, qwen, ...rest] = acc.warnings();
    expect(rest).to.deep.equal([]);
    expect(gemini).to.deep.include({ refused: 6, runs_with_refusals: 2, runs: 3 });
    expect(gemini!.tools).to.deep.equal([
      { name: 'run_shell_command', refused: 3 },
      { name: 'write_file', refused: 3 },
    ]);
    expect(gemini!.text).to.equal(
      'gemini: the agent refused 6 tool call(s) in 2/3 runs (run_shell_command, write_file): its own policy blocked them, so what it was asked to do did not happen',
    );
    expect(qwen!.tools).to.deep.equal([{ name: 'bad name', refused: 1 }]);
  });

  it('no warning where no call was refused', () => {
    const acc = new RefusalAccumulator();
    acc.add(...run('claude', {}));
    expect(acc.warnings()).to.deep.equal([]);
  });
});
