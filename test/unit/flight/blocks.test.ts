import { expect } from 'chai';
import { joinBlocks, splitJson, type Block } from '../../../src/flight/index.js';

/**
 * A Claude Code-like request: a system prompt, tools, and a history that grows by a tool
 * result and an answer each time (1.5 KB each, as a short command's output).
 */
function request(turns: number, size = 1500): unknown {
  const messages: unknown[] = [];
  for (let i = 0; i < turns; i++) {
    const result = {
      type: 'tool_result',
      tool_use_id: `t${i}`,
      content: `${i} ${'q'.repeat(size)}`,
    };
    messages.push({ role: 'user', content: [result] });
    messages.push({
      role: 'assistant',
      content: [{ type: 'text', text: `${i} ${'a'.repeat(size)}` }],
    });
  }
  return {
    model: 'claude-x',
    system: [{ type: 'text', text: 'You are an agent. '.repeat(200) }],
    tools: Array.from({ length: 20 }, (_, i) => ({
      name: `T${i}`,
      description: `tool ${i} `.repeat(40),
    })),
    messages,
    max_tokens: 1000,
  };
}

describe('flight: bodies cut into content-addressed blocks', () => {
  it('rebuilds the value exactly from its blocks', () => {
    const value = request(3);
    const split = splitJson(value, 256);
    const blocks = new Map(split.blocks.map((b) => [b.id, b]));
    expect(joinBlocks(split.root, (id) => blocks.get(id))).to.deep.equal(value);
  });

  it('a request that repeats the history adds only its new messages and the lists that name them', () => {
    const seen = new Set<string>();
    let fresh = 0;
    let raw = 0;
    for (let n = 1; n <= 50; n++) {
      const value = request(n);
      raw += JSON.stringify(value).length;
      for (const b of splitJson(value, 256).blocks) {
        if (seen.has(b.id)) continue;
        seen.add(b.id);
        fresh += JSON.stringify(b).length;
      }
    }
    // The history is sent 50 times; what is new is about one turn per request (before compression).
    expect(fresh / raw).to.be.below(0.1);
  });

  it('never takes a string for a reference unless its block names that key', () => {
    const child = splitJson({ text: 'x'.repeat(300) }, 256);
    const forged = { a: child.root, b: 'y'.repeat(300) };
    const split = splitJson(forged, 256);
    const blocks = new Map(split.blocks.map((b) => [b.id, b]));
    for (const b of child.blocks) blocks.set(b.id, b);
    expect(joinBlocks(split.root, (id) => blocks.get(id))).to.deep.equal(forged);
  });

  it('survives a body deeper than it cuts (a deep value stays whole in its parent)', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 500; i++) deep = [deep];
    const split = splitJson(deep, 256);
    const blocks = new Map<string, Block>(split.blocks.map((b) => [b.id, b]));
    expect(joinBlocks(split.root, (id) => blocks.get(id))).to.deep.equal(deep);
  });

  it('says which block a record lacks', () => {
    expect(() => joinBlocks('ab'.repeat(32), () => undefined)).to.throw(
      /lacks block abababababab/u,
    );
  });
});
