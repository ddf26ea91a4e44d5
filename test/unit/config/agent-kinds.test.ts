import { expect } from 'chai';
import {
  ADAPTER_KINDS,
  DEFAULT_MODELS,
  evalsSchema,
  MODEL_NAMED_KINDS,
  quotedKinds,
} from '../../../src/config/index.js';

describe('agent kinds: the one list', () => {
  it('quotes kinds as the messages list them: commas, or a last word of their own', () => {
    expect(quotedKinds(['a', 'b', 'c'])).to.equal('"a", "b", "c"');
    expect(quotedKinds(['a', 'b', 'c'], ' or ')).to.equal('"a", "b" or "c"');
    expect(quotedKinds(['a'], ' or ')).to.equal('"a"');
    expect(quotedKinds()).to.equal(ADAPTER_KINDS.map((k) => `"${k}"`).join(', '));
  });

  it("is what the schema's enums say (the build writes them from it)", () => {
    const agent = evalsSchema.properties.agent;
    expect(agent.properties.type.enum).to.deep.equal(['command', ...ADAPTER_KINDS]);
    expect(agent.if.properties.type.enum).to.deep.equal(ADAPTER_KINDS);
    expect(agent.then.if.properties.type.enum).to.deep.equal(MODEL_NAMED_KINDS);
    for (const [kind, model] of Object.entries(DEFAULT_MODELS)) {
      expect(agent.properties.model_name.description).to.include(`"${model}" (${kind})`);
    }
  });
});
