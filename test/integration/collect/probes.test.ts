import { expect } from 'chai';
import { LABELS, startContainer, type RunContainer } from '../../../src/runtime/index.js';
import { PROBE_OUTPUT_BYTES, runProbes } from '../../../src/collect/index.js';
import { BASE_IMAGE, TEST_CAMPAIGN, testDocker, requireDocker } from '../../support/docker.js';

describe('collect/runProbes: every probe of a stop in one exec', function () {
  before(requireDocker);
  this.timeout(60_000);
  const client = testDocker();
  let container: RunContainer;
  before(async () => {
    container = await startContainer(client, {
      image: BASE_IMAGE,
      user: '65534:65534',
      labels: { [LABELS.campaign]: TEST_CAMPAIGN },
    });
  });
  after(() => container.remove());

  const run = (probes: Record<string, string>, timeoutS?: number) =>
    runProbes({ sandbox: container, workingDir: '/tmp', env: { HOME: '/tmp' }, probes, timeoutS });

  it('keeps each probe apart: stdout, stderr and exit code, in the declared order', async () => {
    const out = await run({
      kind: 'echo awaiting-approval',
      description: 'printf "# Plan\\n\\n- one\\n"; echo warn >&2',
      failing: 'echo nope >&2; exit 3',
    });
    expect(Object.keys(out)).to.deep.equal(['kind', 'description', 'failing']);
    expect(out.kind).to.deep.equal({
      command: 'echo awaiting-approval',
      exit_code: 0,
      stdout: 'awaiting-approval\n',
      stderr: '',
    });
    expect(out.description).to.include({
      stdout: '# Plan\n\n- one\n',
      stderr: 'warn\n',
      exit_code: 0,
    });
    expect(out.failing).to.include({ stdout: '', stderr: 'nope\n', exit_code: 3 });
  });

  it('is not fooled by output that looks like its framing, nor by multi-byte text', async () => {
    const out = await run({ a: 'printf "0 5 0\\nabcde"', b: 'printf "é—✓"' });
    expect(out.a!.stdout).to.equal('0 5 0\nabcde');
    expect(out.b!.stdout).to.equal('é—✓');
  });

  it('runs probes one after the other, each seeing what the previous left', async () => {
    const out = await run({ first: 'echo one > /tmp/seen', second: 'cat /tmp/seen' });
    expect(out.second!.stdout).to.equal('one\n');
  });

  it('caps a probe that prints too much, saying so', async () => {
    const out = await run({ big: `head -c ${PROBE_OUTPUT_BYTES + 10} /dev/zero | tr '\\0' x` });
    expect(out.big!.stdout).to.match(/\[evalrig: output truncated at 262144 of 262154 bytes\]\n$/);
  });

  it('keeps the probes after a capped one in place', async () => {
    const out = await run({
      big: `head -c ${PROBE_OUTPUT_BYTES + 10} /dev/zero | tr '\\0' x; echo err >&2`,
      next: 'echo next; echo oops >&2; exit 4',
    });
    expect(out.big!.stderr).to.equal('err\n');
    expect(out.next).to.include({ stdout: 'next\n', stderr: 'oops\n', exit_code: 4 });
  });

  it('stops a probe at its timeout and records no exit code', async () => {
    const out = await run({ slow: 'sleep 10', after: 'echo still-run' }, 1);
    expect(out.slow!.exit_code).to.equal(null);
    expect(out.slow!.stderr).to.include('probe timed out after 1 s');
    expect(out.after!.stdout).to.equal('still-run\n');
  });

  it('runs nothing when there is no probe', async () => {
    expect(await run({})).to.deep.equal({});
  });
});
