import { expect } from 'chai';
import {
  canonicalJson,
  changedInputs,
  describeInput,
  fingerprintOf,
  hashValue,
  NAMED_INPUTS,
} from '../../../../src/campaign/reuse/index.js';

/** One text per value, one hash per set of inputs, and words for every input. */
describe('reuse: the fingerprint of a run', () => {
  it('writes one canonical JSON per value, whatever order its keys were built in', () => {
    expect(canonicalJson({ b: 1, a: [true, null, { d: 'x', c: undefined }] })).to.equal(
      '{"a":[true,null,{"d":"x"}],"b":1}',
    );
    expect(hashValue({ x: 1, y: 2 })).to.equal(hashValue({ y: 2, x: 1 }));
    expect(hashValue([1, 2])).to.not.equal(hashValue([2, 1]));
  });

  it('hashes the inputs as a whole, and tells the changed, added and removed ones apart', () => {
    const a = fingerprintOf({ run: hashValue(1), 'folder:s.json': hashValue('a') });
    const b = fingerprintOf({ run: hashValue(1), 'stage:SKILL.md': hashValue('b') });
    expect(a.sha256).to.match(/^[0-9a-f]{64}$/);
    expect(a.sha256).to.not.equal(b.sha256);
    expect(changedInputs(a.inputs, b.inputs)).to.deep.equal({
      changed: [],
      added: ['stage:SKILL.md'],
      removed: ['folder:s.json'],
    });
  });

  it('has words for every input that is not a file', () => {
    for (const key of NAMED_INPUTS) expect(describeInput(key), key).to.match(/^the /);
    expect(describeInput('evalrig.version')).to.equal('the evalrig version');
  });
});
