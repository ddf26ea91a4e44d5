import { expect } from 'chai';
import { join } from 'node:path';
import { measureDiff, prepareWorkspace, sealWorkspace } from '../../../src/workspace/index.js';
import { materializeCodebase, resolveCodebases } from '../../../src/source/index.js';
import { makeSourceRepo, tempDir, writeFiles } from '../source/fixtures.js';
import { countGitProcesses } from './git-processes.js';

/**
 * Every git process costs a fork and exec and git's start-up, which on a
 * small machine is most of a workspace's cost: these are the budgets.
 */
/** `git-upload-pack ...` -> upload-pack; `git --git-dir=x add ...` -> add. */
function subcommand(argv: readonly string[]): string {
  const program = argv[0]?.split('/').pop() ?? '';
  if (program.startsWith('git-')) return program.slice(4);
  return argv.slice(1).find((arg) => !arg.startsWith('-')) ?? '';
}

describe('workspace: git processes per run', () => {
  let tmp: ReturnType<typeof tempDir>;
  beforeEach(() => {
    tmp = tempDir('processes');
  });
  afterEach(() => tmp.cleanup());

  it('prepares with 8 git processes (no push, no gc) and measures a diff with 4', async () => {
    const repo = makeSourceRepo(join(tmp.dir, 'toy'));
    const [resolved] = await resolveCodebases([
      { source: { url: repo.dir, ref: 'main' }, baseDir: '/' },
    ]);
    const cachePath = await materializeCodebase(resolved!, { cacheDir: join(tmp.dir, 'cache') });
    const prepared = await countGitProcesses(() =>
      prepareWorkspace({
        root: join(tmp.dir, 'env'),
        codebase: { resolved: resolved!, cachePath },
        remote: { owner: 'acme', name: 'toy' },
        originUrl: '/remote/acme/toy.git',
        startBranch: 'agent/work',
      }),
    );
    const commands = prepared.processes.map((argv) => argv.slice(1).join(' '));
    expect(commands, commands.join('\n')).to.have.length.at.most(7);
    const names = prepared.processes.map(subcommand);
    for (const costly of ['push', 'receive-pack', 'gc', 'remote']) {
      expect(names).to.not.include(costly);
    }

    const seal = await sealWorkspace(prepared.value, join(tmp.dir, 'host'), [
      join(cachePath, 'objects'),
    ]);
    writeFiles(prepared.value.workTree, { 'src/lib.txt': 'changed\n', 'new.txt': 'n\n' });
    const measured = await countGitProcesses(() => measureDiff(seal));
    expect(measured.value).to.include({ files_added: 1, files_modified: 1, untracked: 1 });
    expect(measured.processes, measured.processes.join('\n')).to.have.length.at.most(4);
    const counts = await countGitProcesses(() => measureDiff(seal, { patch: false }));
    expect(counts.processes).to.have.length.at.most(4);
  });
});
