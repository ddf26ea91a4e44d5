import { readFileSync } from 'node:fs';
import { expect } from 'chai';

const read = (
  url: string,
): { $defs: Record<string, unknown>; properties: Record<string, unknown> } =>
  JSON.parse(readFileSync(new URL(url, import.meta.url), 'utf8'));

/**
 * A trajectory's stop step carries a stop's pull and probes and the run's diff: the trajectory
 * schema holds copies of their shapes (one schema does not load another), and here they are held
 * equal to the stop's and the run's, so the two cannot drift apart.
 */
describe('trajectory schema: what it shares with the stop and run schemas', () => {
  const trajectory = read('../../../src/trajectory/trajectory.schema.json');
  const stop = read('../../../src/artifacts/schemas/stop.schema.json');
  const run = read('../../../src/artifacts/schemas/run.schema.json');

  it("holds a stop's pull and probe, and the run's diff, as those schemas declare them", () => {
    expect(trajectory.$defs.pull).to.deep.equal(stop.$defs.pull);
    expect(trajectory.$defs.probe).to.deep.equal(stop.$defs.probe);
    expect(trajectory.$defs.diff).to.deep.equal(run.$defs.diff);
  });

  it("takes a run's status from run.json's list", () => {
    expect(trajectory.properties.status).to.deep.equal(run.properties.status);
  });
});
