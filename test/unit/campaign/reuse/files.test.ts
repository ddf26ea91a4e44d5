import { expect } from 'chai';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { FOLDER_CAPS, folderHashes, placedHashes } from '../../../../src/campaign/reuse/index.js';

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The file inputs of a campaign: staged and placed files one by one, the eval set folder's others. */
describe('reuse: the file inputs, each by its content', () => {
  let work: string;
  const at = (rel: string) => path.join(work, rel);
  const put = async (rel: string, text: string) => {
    await mkdir(path.dirname(at(rel)), { recursive: true });
    await writeFile(at(rel), text);
  };

  beforeEach(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'evalrig-files-'));
  });
  afterEach(() => rm(work, { recursive: true, force: true }));

  it('hashes a staged folder file by file, by its path in the work tree, as placing follows links', async () => {
    await put('set/skills/tdd/SKILL.md', '# tdd\n');
    await put('elsewhere/notes.md', 'notes\n');
    await symlink(at('elsewhere/notes.md'), at('set/skills/tdd/notes.md'));
    await put('set/AGENTS.md', 'be brief\n');
    const hashes = await placedHashes(
      [
        { from: at('set/skills/tdd'), to: '.claude/skills/tdd' },
        { from: at('set/AGENTS.md'), to: 'AGENTS.md' },
      ],
      'stage:',
    );
    expect(hashes).to.deep.equal({
      'stage:.claude/skills/tdd/SKILL.md': sha('# tdd\n'),
      'stage:.claude/skills/tdd/notes.md': sha('notes\n'),
      'stage:AGENTS.md': sha('be brief\n'),
    });
  });

  it("takes the eval set folder's other files, leaving out git, campaign folders and inputs of their own", async () => {
    await put('set/evals.json', '{}');
    await put('set/scripts/add.json', '{"turns": []}');
    await put('set/skills/tdd/SKILL.md', '# tdd\n');
    await put('set/judge.json', '{}');
    await put('set/.git/HEAD', 'ref: refs/heads/main\n');
    await put('set/out/conditions.json', '{}');
    await put('set/out/runs/a/b/run-01/run.json', '{}');
    await put('secret.txt', 'the host secret\n');
    await symlink(at('secret.txt'), at('set/link.txt'));
    const found = await folderHashes(at('set'), {
      files: [at('set/evals.json'), at('set/judge.json')],
      folders: [at('set/skills/tdd')],
    });
    expect(found).to.deep.equal({
      ok: true,
      files: {
        'link.txt': sha(`link:${at('secret.txt')}`),
        'scripts/add.json': sha('{"turns": []}'),
      },
    });
  });

  it('does not read what a link in the folder names: only where it points', async () => {
    await put('secret.txt', 'one\n');
    await mkdir(at('set'));
    await symlink(at('secret.txt'), at('set/link.txt'));
    const before = await folderHashes(at('set'), { files: [], folders: [] });
    await put('secret.txt', 'two\n');
    expect(await folderHashes(at('set'), { files: [], folders: [] })).to.deep.equal(before);
  });

  it('refuses a folder with more files than it fingerprints, saying so', async () => {
    await mkdir(at('set'));
    await Promise.all(
      Array.from({ length: FOLDER_CAPS.files + 1 }, (_, i) => writeFile(at(`set/f${i}`), '')),
    );
    expect(await folderHashes(at('set'), { files: [], folders: [] })).to.deep.equal({
      ok: false,
      why: `the eval set folder holds more than ${FOLDER_CAPS.files} files besides the staged ones`,
    });
  });
});
