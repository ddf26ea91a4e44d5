import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { loadEvalSet } from '../../../src/config/index.js';
import { InputError } from '../../../src/errors/index.js';
import { CampaignGrader } from '../../../src/judge/index.js';

describe('judge: a campaign’s grader', () => {
  let dir: string;
  const said: string[] = [];
  const log = { write: (s: string) => said.push(s) } as unknown as NodeJS.WritableStream;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-grader-'));
    said.length = 0;
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const load = async (extra: Record<string, unknown>, expectations?: string[]) => {
    const file = path.join(dir, 'evals.json');
    await writeFile(
      file,
      JSON.stringify({
        name: 'case',
        agent: { command: ['agent'] },
        evals: [{ id: 'one', prompt: 'Do it.', ...(expectations ? { expectations } : {}) }],
        ...extra,
      }),
    );
    return loadEvalSet(file);
  };
  const prepare = async (extra: Record<string, unknown>, expectations?: string[]) =>
    CampaignGrader.prepare(await load(extra, expectations), { campaign: 'c', outDir: dir, log });

  it('says that expectations are not graded when the eval set has no judge, and plays on', async () => {
    expect(await prepare({}, ['It works.'])).to.equal(undefined);
    expect(said).to.deep.equal([
      'evalrig: warning: 1 eval(s) have expectations but the eval set has no "judge": expectations are not graded\n',
    ]);
  });

  it('has nothing to do, and says nothing, when no eval has expectations', async () => {
    await writeFile(path.join(dir, 'judge.json'), '{"responses":[{"content":[{"text":"{}"}]}]}');
    expect(await prepare({ judge: { model: { script: 'judge.json' } } })).to.equal(undefined);
    expect(said).to.deep.equal([]);
  });

  it('refuses before anything runs when the real judge’s key variable is not set', async () => {
    delete process.env.EVALRIG_TEST_UNSET_JUDGE_KEY;
    const error = await prepare(
      {
        judge: {
          model: { url: 'https://api.example.com', key_env: 'EVALRIG_TEST_UNSET_JUDGE_KEY' },
          model_name: 'm',
        },
      },
      ['It works.'],
    ).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(InputError);
    expect((error as Error).message).to.equal(
      `${path.join(dir, 'evals.json')}: /judge/model/key_env: the host variable EVALRIG_TEST_UNSET_JUDGE_KEY is not set (the judge's API key, added on the host side)`,
    );
  });
});
