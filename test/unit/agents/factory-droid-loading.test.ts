import { expect } from 'chai';
import { FACTORY_DROID_INSTRUCTIONS } from '../../../src/agents/index.js';

describe('agents: what Factory Droid loads (its rule, as its requests showed)', () => {
  const verdict = (path: string, staged: readonly string[] = [path]) => {
    const kind = path.toLowerCase().endsWith('skill.md') ? 'skill' : 'instructions';
    return FACTORY_DROID_INSTRUCTIONS({ path, kind, frontMatter: true, staged });
  };

  it('CLAUDE.md and AGENTS.md side by side, at the root and in .factory, .agents and .agent', () => {
    const all = ['AGENTS.md', 'CLAUDE.md', '.factory/AGENTS.md', '.agents/CLAUDE.md'];
    for (const p of [...all, '.agent/AGENTS.md', '.factory/CLAUDE.md'])
      expect(verdict(p, all), p).to.deep.equal({ loads: true, note: null });
  });

  it('its own spellings, the first of a folder read; not a letter off, nested, nor another agent’s file', () => {
    for (const p of ['Agents.md', 'agents.md', 'Claude.md', '.factory/agents.md'])
      expect(verdict(p).loads, p).to.equal(true);
    expect(verdict('agents.md', ['Agents.md', 'agents.md']).note).to.match(/reads Agents\.md/u);
    expect(verdict('Agents.md', ['AGENTS.md', 'Agents.md']).loads).to.equal(false);
    expect(verdict('Agents.md', ['Agents.md', 'agents.md']).loads).to.equal(true);
    expect(verdict('.factory/Claude.md', ['.factory/CLAUDE.md', 'Claude.md']).loads).to.equal(
      false,
    );
    expect(verdict('claude.md').note).to.match(/reads CLAUDE\.md, not claude\.md/u);
    expect(verdict('AGENT.md').loads).to.equal(false);
    expect(verdict('sub/AGENTS.md').loads).to.equal(false);
    expect(verdict('.claude/CLAUDE.md').loads).to.equal(false);
    expect(verdict('GEMINI.md').note).to.match(/reads no GEMINI\.md/u);
  });

  it('skills at any depth under its three roots, dot-folders too; none inside another skill, no other root', () => {
    for (const p of [
      '.factory/skills/a/SKILL.md',
      '.factory/skills/group/a/SKILL.md',
      '.factory/skills/.hidden/a/SKILL.md',
      '.agents/skills/a/SKILL.md',
      '.agent/skills/g/a/SKILL.md',
    ])
      expect(verdict(p).loads, p).to.equal(true);
    for (const p of [
      '.factory/skill/a/SKILL.md',
      '.claude/skills/a/SKILL.md',
      '.github/skills/a/SKILL.md',
      '.factory/skills/a/skill.md',
    ])
      expect(verdict(p).loads, p).to.equal(false);
    const outer = '.factory/skills/a/SKILL.md';
    const inner = '.factory/skills/a/b/SKILL.md';
    expect(verdict(inner, [outer, inner]).note).to.contain(`takes ${outer} as the skill`);
    expect(verdict(outer, [outer, inner]).loads).to.equal(true);
    const bare = { path: outer, kind: 'skill' as const, frontMatter: false };
    expect(FACTORY_DROID_INSTRUCTIONS(bare).loads).to.equal(false);
  });
});
