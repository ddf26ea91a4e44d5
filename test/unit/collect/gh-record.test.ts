import { expect } from 'chai';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readPullRequests } from '../../../src/collect/gh-record.js';
import { stateProblem } from '../../../src/recorder/validate.js';

describe("collect: the gh record's pull requests with labels and assignees", function () {
  let gitDir: string;
  const pull = {
    number: 1,
    title: 'T',
    body: 'B',
    head: 'feature',
    base: 'main',
    draft: false,
    state: 'OPEN',
    created_at: '2026-11-29T19:00:00Z',
    updated_at: '2026-11-29T19:00:00Z',
    url: 'https://github.com/acme/toy/pull/1',
    author: 'evalrig',
  };
  const write = (state: unknown): Promise<void> =>
    writeFile(path.join(gitDir, 'gh-stand-in', 'state.json'), JSON.stringify(state));

  beforeEach(async () => {
    gitDir = await mkdtemp(path.join(tmpdir(), 'gh-record-'));
    await mkdir(path.join(gitDir, 'gh-stand-in'));
  });
  afterEach(async () => {
    await rm(gitDir, { recursive: true, force: true });
  });

  it('reads them, and the recorder accepts such a state (the stand-in schema)', async () => {
    const state = {
      version: 1,
      next_number: 2,
      labels: [{ name: 'needs-review', color: 'fbca04' }],
      pull_requests: [{ ...pull, labels: ['bug', 'needs-review'], assignees: ['evalrig'] }],
    };
    await write(state);
    const pulls = await readPullRequests(gitDir);
    expect(pulls[0]).to.deep.include({ labels: ['bug', 'needs-review'], assignees: ['evalrig'] });
    expect(stateProblem(state)).to.equal(undefined);
  });

  it('still reads a pull request without them, and refuses labels that are not names', async () => {
    await write({ version: 1, next_number: 2, pull_requests: [pull] });
    expect(await readPullRequests(gitDir)).to.have.length(1);
    await write({ version: 1, next_number: 2, pull_requests: [{ ...pull, labels: [7] }] });
    let refused: unknown;
    await readPullRequests(gitDir).catch((e: unknown) => (refused = e));
    expect(String(refused)).to.match(/does not hold valid pull requests/);
  });
});
