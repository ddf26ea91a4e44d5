import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { EvalSetError, loadEvalSet } from '../../../src/config/index.js';

const SCRIPT = { responses: [{ content: [{ text: '{"expectations": []}' }] }] };

describe('eval set: expectations and the judge', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-judge-config-'));
    await writeFile(path.join(dir, 'judge.json'), JSON.stringify(SCRIPT));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const write = async (extra: Record<string, unknown>, evalExtra: Record<string, unknown> = {}) => {
    const file = path.join(dir, 'evals.json');
    const doc = {
      name: 'case',
      agent: { command: ['agent', '{prompt}'] },
      conditions: { with_skill: {}, without_skill: {} },
      evals: [{ id: 'one', prompt: 'Do it.', ...evalExtra }],
      ...extra,
    };
    await writeFile(file, JSON.stringify(doc));
    return file;
  };
  const problems = async (file: string): Promise<string[]> => {
    try {
      await loadEvalSet(file);
    } catch (error) {
      expect(error).to.be.instanceOf(EvalSetError);
      return (error as EvalSetError).problems.map((p) => `${p.pointer}: ${p.message}`);
    }
    return expect.fail('accepted');
  };

  it('normalizes a judge with its defaults, its script made absolute, and each eval’s expectations', async () => {
    const set = await loadEvalSet(
      await write(
        { judge: { model: { script: 'judge.json' }, compare: ['without_skill', 'with_skill'] } },
        { expectations: ['It adds multiply.'] },
      ),
    );
    expect(set.judge).to.deep.equal({
      model: { script: path.join(dir, 'judge.json') },
      api: 'messages',
      model_name: 'stand-in-judge',
      max_diff_bytes: 65536,
      max_transcript_bytes: 32768,
      max_tokens: 4096,
      compare: ['without_skill', 'with_skill'],
    });
    expect(set.evals[0]!.expectations).to.deep.equal(['It adds multiply.']);
  });

  it('takes a real API with its key variable and model name', async () => {
    const set = await loadEvalSet(
      await write({
        judge: {
          model: { url: 'https://api.example.com', key_env: 'JUDGE_KEY' },
          model_name: 'judge-model-1',
          max_diff_bytes: 2048,
        },
      }),
    );
    expect(set.judge).to.deep.include({
      model: { url: 'https://api.example.com', key_env: 'JUDGE_KEY' },
      model_name: 'judge-model-1',
      max_diff_bytes: 2048,
    });
  });

  it('names each mistake at its JSON pointer', async () => {
    const found = await problems(
      await write(
        {
          judge: {
            model: { url: 'https://api.example.com/v1', key_env: 'JUDGE_KEY' },
            compare: ['without_skill', 'nope'],
            max_tokens: 10,
          },
        },
        { expectations: ['same', 'same'] },
      ),
    );
    expect(found).to.include.members([
      '/judge/model/url: must be an http(s) origin like https://api.anthropic.com (no path), got "https://api.example.com/v1"',
      '/judge/max_tokens: must be at least 256, got 10',
      '/judge: a judge with a "url" needs "model_name" (the model its requests name, e.g. the one your API serves)',
      '/judge/compare/1: no condition named "nope" (conditions: with_skill, without_skill)',
      '/evals/0/expectations/1: repeats item 0 ("same")',
    ]);
  });

  it('refuses a judge script that is missing, outside the folder, or not a model script', async () => {
    expect(await problems(await write({ judge: { model: { script: 'gone.json' } } }))).to.satisfy(
      (list: string[]) => list.some((p) => p.startsWith('/judge/model/script: ')),
    );
    await writeFile(path.join(dir, 'bad.json'), '{"responses": []}');
    expect(await problems(await write({ judge: { model: { script: 'bad.json' } } }))).to.deep.equal(
      [
        `/judge/model/script: model script ${path.join(dir, 'bad.json')}: /responses: must hold at least one response`,
      ],
    );
  });
});
