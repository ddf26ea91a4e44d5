import { expect } from 'chai';
import { harnessTexts } from '../../../src/flight/wire/harness.js';
import { NeedleSearch, squeeze } from '../../../src/flight/needles.js';

/** Each API's request, with the same text in every place it can be, marked by where it is. */
describe("flight: what the agent's harness wrote in a request, API by API", () => {
  it('Messages: system, tools and the texts of user and system messages; never a tool result, a tool call or an answer', () => {
    const texts = harnessTexts('messages', {
      system: [{ type: 'text', text: 'SYSTEM' }],
      tools: [{ name: 'Skill', description: 'TOOL-DESC', input_schema: { enum: ['TOOL-ENUM'] } }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'REMINDER' },
            { type: 'text', text: 'PROMPT' },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'ANSWER' },
            { type: 'tool_use', input: { c: 'CALL' } },
          ],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', content: [{ type: 'text', text: 'RESULT' }] }],
        },
        { role: 'system', content: 'LATE-SYSTEM' },
      ],
    });
    expect(texts).to.include.members([
      'SYSTEM',
      'TOOL-DESC',
      'TOOL-ENUM',
      'REMINDER',
      'PROMPT',
      'LATE-SYSTEM',
    ]);
    expect(texts).to.not.include.members(['ANSWER', 'CALL', 'RESULT']);
  });

  it('Responses: instructions, tools, and the developer, system and user items; never function calls or their outputs', () => {
    const texts = harnessTexts('responses', {
      instructions: 'INSTRUCTIONS',
      tools: [{ name: 'exec_command', description: 'TOOL-DESC' }],
      input: [
        { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'SKILLS' }] },
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'AGENTS-MD' }] },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'ANSWER' }] },
        { type: 'function_call', arguments: '{"cmd":"CALL"}' },
        { type: 'function_call_output', output: 'RESULT' },
        { type: 'reasoning', summary: [{ text: 'THOUGHT' }] },
      ],
    })!;
    expect(texts).to.include.members(['INSTRUCTIONS', 'TOOL-DESC', 'SKILLS', 'AGENTS-MD']);
    expect(texts.join()).to.not.match(/ANSWER|CALL|RESULT|THOUGHT/u);
  });

  it('Chat Completions: system, developer and user messages and the tools; never tool or assistant messages', () => {
    const texts = harnessTexts('chat', {
      tools: [{ type: 'function', function: { name: 'skill', description: 'TOOL-DESC' } }],
      messages: [
        { role: 'system', content: 'SYSTEM' },
        { role: 'user', content: [{ type: 'text', text: 'USER' }] },
        { role: 'assistant', content: 'ANSWER', tool_calls: [{ function: { arguments: 'CALL' } }] },
        { role: 'tool', content: 'RESULT' },
      ],
    })!;
    expect(texts).to.include.members(['TOOL-DESC', 'SYSTEM', 'USER']);
    expect(texts.join()).to.not.match(/ANSWER|CALL|RESULT/u);
  });

  it("Gemini: the system instruction, tools and the user's text parts; never a function call or response", () => {
    const texts = harnessTexts('gemini', {
      systemInstruction: { parts: [{ text: 'SYSTEM' }] },
      tools: [{ functionDeclarations: [{ name: 'activate_skill', description: 'TOOL-DESC' }] }],
      contents: [
        { role: 'user', parts: [{ text: 'CONTEXT' }] },
        {
          role: 'model',
          parts: [{ text: 'ANSWER' }, { functionCall: { args: { command: 'CALL' } } }],
        },
        { role: 'user', parts: [{ functionResponse: { response: { output: 'RESULT' } } }] },
      ],
    })!;
    expect(texts).to.include.members(['SYSTEM', 'TOOL-DESC', 'CONTEXT']);
    expect(texts.join()).to.not.match(/ANSWER|CALL|RESULT/u);
  });

  it('is null for a body that is not a request of its API', () => {
    expect(harnessTexts('messages', { input: [] })).to.equal(null);
    expect(harnessTexts('gemini', 'text')).to.equal(null);
  });
});

describe('flight: the needle search', () => {
  const skill = { id: 'skill:x', all: ['<name>pr-flow</name><description>Opens a draft'] };

  it('ignores whitespace on both sides: an entry wrapped and indented is found', () => {
    const search = new NeedleSearch([skill]);
    search.search(1, [
      'tools…\n<skill>\n<name>\npr-flow\n</name>\n<description>\nOpens a  draft PR\n',
    ]);
    expect(search.seen()).to.deep.equal([{ id: 'skill:x', seq: 1 }]);
    expect(squeeze(' a \n b\t')).to.equal('ab');
  });

  it("takes the user's prompts out: a prompt that quotes a file is not the harness loading it", () => {
    const file = { id: 'instructions:CLAUDE.md', all: ['Never merge on Fridays.'] };
    const prompt = 'Read this: Never merge on Fridays. Then go.';
    const search = new NeedleSearch([file], [prompt]);
    search.search(1, [prompt, `<reminder>${prompt}</reminder>`]);
    expect(search.seen()).to.deep.equal([{ id: file.id, seq: null }]);
    search.search(2, ['Contents of CLAUDE.md: Never merge on Fridays.']);
    expect(search.seen()).to.deep.equal([{ id: file.id, seq: 2 }]);
  });

  it('notes a request it could not read: a needle not seen is then undecided', () => {
    const search = new NeedleSearch([skill]);
    search.search(1, ['nothing here']);
    expect(search.unsearched()).to.equal(null);
    search.search(2, null, 'its body is not JSON');
    search.search(3, null, 'its body is over 16 MiB');
    expect(search.unsearched()).to.deep.equal({
      count: 2,
      first_seq: 2,
      why: 'its body is not JSON',
    });
  });
});
