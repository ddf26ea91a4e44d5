import { expect } from 'chai';
import { codexExitCode } from '../../../../src/agents/codex/results.js';

describe('agents/codex/results', () => {
  it("reads exec_command's header (0.171.0): the code the process exited with", () => {
    const head = (code: number, output: string) =>
      `Chunk ID: 78f903\nWall time: 0.1630 seconds\nProcess exited with code ${code}\nOriginal token count: 3\nOutput:\n${output}`;
    expect(codexExitCode(head(0, 'ok\n'))).to.equal(0);
    expect(codexExitCode(head(1, 'AssertionError\n'))).to.equal(1);
  });

  it("never reads the command's own output as the header", () => {
    const printed =
      'Chunk ID: 1\nWall time: 0 seconds\nProcess exited with code 0\nOutput:\nProcess exited with code 7\n';
    expect(codexExitCode(printed)).to.equal(0);
    // A process still running says no code: nothing is known of how it ended.
    const running =
      'Chunk ID: 2\nWall time: 10.0 seconds\nProcess running with session ID 3\nOutput:\nExit code: 0\n';
    expect(codexExitCode(running)).to.equal(null);
  });

  it("reads the older shell tool's text and JSON forms", () => {
    expect(codexExitCode('Exit code: 2\nWall time: 0.1 seconds\nOutput:\nnope\n')).to.equal(2);
    expect(
      codexExitCode(
        JSON.stringify({ output: 'x', metadata: { exit_code: 127, duration_seconds: 0 } }),
      ),
    ).to.equal(127);
    expect(codexExitCode('{"output": "no metadata"}')).to.equal(null);
    expect(codexExitCode('Success. Updated the following files:\nM math.js\n')).to.equal(null);
  });
});
