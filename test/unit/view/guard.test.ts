import { expect } from 'chai';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  MAX_REVIEW_BYTES,
  parseReviewInput,
  pathSegments,
  resolveInside,
} from '../../../src/view/index.js';

describe('view guard: only what is inside the campaign folder', () => {
  let root: string;
  before(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'evalrig-view-guard-'));
    await mkdir(path.join(root, 'runs', 'e'), { recursive: true });
    await writeFile(path.join(root, 'runs', 'e', 'run.json'), '{}');
    await symlink('/etc', path.join(root, 'runs', 'out'));
    await symlink(path.join(root, 'runs', 'e'), path.join(root, 'runs', 'in'));
  });
  after(() => rm(root, { recursive: true, force: true }));

  it('decodes each segment once and refuses a way up, encoded or not', () => {
    expect(pathSegments('/runs/e/run.json')).to.deep.equal(['runs', 'e', 'run.json']);
    expect(pathSegments('/a%20b')).to.deep.equal(['a b']);
    for (const p of [
      '/..',
      '/%2e%2e/x',
      '/runs/%2E%2E',
      '/a/./b',
      '/a//b',
      '/a%2fb',
      '/a%5cb',
      '/a%00',
    ])
      expect(pathSegments(p), p).to.equal('outside');
    expect(pathSegments('/%E0%A4%A')).to.equal('malformed');
    // Decoded once: %252e%252e names a file called "%2e%2e", not a way up.
    expect(pathSegments('/%252e%252e')).to.deep.equal(['%2e%2e']);
  });

  it('refuses a symbolic link out of the folder, hidden names and work trees; follows one inside', async () => {
    expect(await resolveInside(root, '/runs/out/passwd')).to.equal('outside');
    expect(await resolveInside(root, '/.evalrig.lock')).to.equal('hidden');
    expect(await resolveInside(root, '/work/e/x')).to.equal('hidden');
    const inside = await resolveInside(root, '/runs/in/run.json');
    expect(inside).to.match(/runs\/e\/run\.json$/u);
    expect(await resolveInside(root, '/runs/missing.json')).to.match(/runs\/missing\.json$/u);
  });
});

describe('view review: what a page may send', () => {
  it('takes exactly a verdict and a note, and names what is wrong otherwise', () => {
    expect(parseReviewInput('{"verdict":"agree","note":"ok"}')).to.deep.equal({
      verdict: 'agree',
      note: 'ok',
    });
    expect(parseReviewInput('{"note":"","verdict":null}')).to.deep.equal({
      verdict: null,
      note: '',
    });
    const bad: Array<[string, RegExp]> = [
      ['nope', /not JSON/u],
      ['[]', /not an object/u],
      ['{"verdict":"agree"}', /exactly verdict and note/u],
      ['{"verdict":"agree","note":"x","extra":1}', /exactly verdict and note/u],
      ['{"verdict":"maybe","note":""}', /verdict must be/u],
      ['{"verdict":null,"note":3}', /note must be a string/u],
      [`{"verdict":null,"note":"${'x'.repeat(4001)}"}`, /at most 4000 characters/u],
    ];
    for (const [body, message] of bad) expect(() => parseReviewInput(body), body).to.throw(message);
    expect(MAX_REVIEW_BYTES).to.equal(16 * 1024);
  });
});
