/**
 * The errors a newcomer meets first, each saying the fix: a misspelt agent type once with the
 * kind it meant, a JSON syntax error with its line and a caret, and a misspelt top-level field
 * without a cascade of errors about what it would have declared.
 */
import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EvalSetError, loadEvalSet, quotedKinds } from '../../../src/config/index.js';
import { UNPLAYABLE_AGENTS } from '../../../src/config/unplayable-agents.js';
import { snippetAt } from '../../../src/config/load.js';
import { closestKind } from '../../../src/config/spelling.js';

describe('config: the newcomer’s errors', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-newcomer-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** Every problem of `text` (written as evals.json) as `pointer: message`, and the whole message. */
  async function problemsOf(text: string): Promise<{ lines: string[]; message: string }> {
    const file = path.join(dir, 'evals.json');
    await writeFile(file, text);
    try {
      await loadEvalSet(file);
    } catch (error) {
      expect(error).to.be.instanceOf(EvalSetError);
      const e = error as EvalSetError;
      return { lines: e.problems.map((p) => `${p.pointer}: ${p.message}`), message: e.message };
    }
    return expect.fail('the eval set was accepted');
  }
  const json = (doc: unknown) => JSON.stringify(doc, null, 2);
  const EVALS = [{ id: 'e', prompt: 'p' }];

  it('says a misspelt agent type once, with the kind it meant, and nothing else about that agent', async () => {
    const { lines } = await problemsOf(
      json({ name: 'x', agent: { type: 'claude', version: '2.1.0' }, evals: EVALS }),
    );
    expect(lines).to.deep.equal([
      '/agent/type: unknown agent type "claude" (did you mean "claude-code"?): the types are "command", "claude-code", "cline", "codex", "copilot-cli", "factory-droid", "gemini-cli", "kilo-code", "opencode", "qwen-code"',
    ]);
  });

  it("says a condition's misspelt agent type at its own pointer", async () => {
    const { lines } = await problemsOf(
      json({
        name: 'x',
        agent: { type: 'codex', version: '0.50.0', model: { script: 'm.json' } },
        conditions: { a: {}, b: { agent: { type: 'gemini', version: '1.0.0' } } },
        evals: EVALS,
      }),
    );
    const typeLines = lines.filter((l) => l.startsWith('/conditions/b/agent'));
    expect(typeLines).to.have.length(1);
    expect(typeLines[0]).to.match(
      /^\/conditions\/b\/agent\/type: unknown agent type "gemini" \(did you mean "gemini-cli"\?\)/u,
    );
  });

  it('refuses an agent evalrig cannot play with the reason, once, at its type', async () => {
    const { lines } = await problemsOf(
      json({ name: 'x', agent: { type: 'amp', version: '1.0.0' }, evals: EVALS }),
    );
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(
      /^\/agent\/type: agent type "amp": Amp \(@sourcegraph\/amp\) cannot be played: /u,
    );
    expect(lines[0]).to.include('no setting for a model endpoint');
    expect(lines[0]).to.include('docs/agents.md');
    for (const type of Object.keys(UNPLAYABLE_AGENTS)) {
      const { lines: said } = await problemsOf(
        json({
          name: 'x',
          conditions: { a: { agent: { type } } },
          agent: { command: ['true'] },
          evals: EVALS,
        }),
      );
      expect(said, type).to.deep.equal([
        `/conditions/a/agent/type: agent type "${type}": ${UNPLAYABLE_AGENTS[type]!.name} (${UNPLAYABLE_AGENTS[type]!.package}) cannot be played: ${UNPLAYABLE_AGENTS[type]!.reason} (see docs/agents.md); the types are "command", ${quotedKinds()}`,
      ]);
    }
  });

  it("says a matrix's unplayable or misspelt agent once, at its item's type", async () => {
    const { lines } = await problemsOf(
      json({
        name: 'x',
        agents: [
          { type: 'claude-code', version: '2.1.332', model: { script: 'm.json' } },
          { type: 'auggie' },
          { type: 'codx', version: '0.171.0' },
        ],
        evals: EVALS,
      }),
    );
    const typed = lines.filter((l) => /^\/agents\/[12]/u.test(l));
    expect(typed).to.have.length(2);
    expect(typed[0]).to.match(
      /^\/agents\/1\/type: agent type "auggie": Auggie .* cannot be played: /u,
    );
    expect(typed[1]).to.match(
      /^\/agents\/2\/type: unknown agent type "codx" \(did you mean "codex"\?\)/u,
    );
  });

  it('names the kind a near miss meant, and none for a word no kind is near', () => {
    const kinds = ['command', 'claude-code', 'codex', 'copilot-cli', 'gemini-cli', 'qwen-code'];
    expect(closestKind('claude', kinds)).to.equal('claude-code');
    expect(closestKind('claude-cod', kinds)).to.equal('claude-code');
    expect(closestKind('codex-cli', kinds)).to.equal('codex');
    expect(closestKind('qwen', kinds)).to.equal('qwen-code');
    expect(closestKind('c', kinds)).to.equal(undefined);
    expect(closestKind('aider', kinds)).to.equal(undefined);
  });

  it('says a misspelt top-level field once, with no error about a condition "default" nobody wrote', async () => {
    const { lines } = await problemsOf(
      json({
        name: 'x',
        agent: { command: ['true'] },
        condtions: { with_skill: {}, without_skill: {} },
        baseline_condition: 'without_skill',
        judge: { model: { script: 'judge.json' }, compare: ['without_skill', 'with_skill'] },
        evals: EVALS,
      }),
    );
    expect(lines.filter((l) => !l.startsWith('/judge/model'))).to.deep.equal([
      ': unknown field "condtions" (did you mean "conditions"?) at the top level',
    ]);
    expect(lines.join('\n')).to.not.contain('default');
  });

  it('still checks a baseline_condition against the conditions when none is misspelt', async () => {
    const { lines } = await problemsOf(
      json({ name: 'x', agent: { command: ['true'] }, baseline_condition: 'nope', evals: EVALS }),
    );
    expect(lines).to.deep.equal([
      '/baseline_condition: no condition named "nope" (conditions: default)',
    ]);
  });

  it('shows the line of a JSON syntax error with a caret under its column', async () => {
    const file = path.join(dir, 'evals.json');
    const { message } = await problemsOf('{\n  "name": "x",\n  "agent": {}\n  "evals": []\n}\n');
    expect(message.split('\n')).to.deep.equal([
      `${file}:4:3: not valid JSON: Expected ',' or '}' after property value`,
      '  4 |   "evals": []',
      '    |   ^',
    ]);
  });

  it('keeps a tab under a tab and cuts a long line around the column', () => {
    expect(snippetAt('{\n\t"a" 1\n}', 2, 6)).to.equal('  2 | \t"a" 1\n    | \t    ^');
    const long = `{"a": "${'x'.repeat(300)}" oops}`;
    const at = long.indexOf('oops') + 1;
    const [shown, caret] = snippetAt(long, 1, at).split('\n');
    expect(shown!.length).to.be.at.most(110);
    expect(shown).to.contain('oops');
    expect(caret!.indexOf('^')).to.equal(shown!.indexOf('oops'));
  });
});
