import { expect } from 'chai';
import path from 'node:path';
import { git } from '../../src/git/index.js';
import { requireDocker } from '../support/docker.js';
import { playAttacks, sh, type PlayedCampaign } from './support.js';

/**
 * Only the past: an environment sourced at a commit holds what that commit
 * reaches and nothing later. (On SWE-bench, agents found the real fixes one
 * `git cat-file --batch-all-objects` away.)
 */
describe('security: an environment holds only the past of its commit', function () {
  before(requireDocker);
  this.timeout(300_000);

  let played: PlayedCampaign;
  let later: string[];

  before(async () => {
    played = await playAttacks([{ id: 'look-ahead', turns: [[sh('true')]] }], {
      // The toy's first commit as the ref; its second commit, a tag and a branch on it are the future.
      setFrom: async (ws) => {
        const toy = path.join(ws.root, 'toy');
        const first = await git(['rev-list', '--max-parents=0', 'HEAD'], { cwd: toy });
        later = [
          await git(['rev-parse', 'HEAD'], { cwd: toy }),
          await git(['rev-parse', 'HEAD:test.js'], { cwd: toy }),
        ];
        await git(['tag', 'v2', 'HEAD'], { cwd: toy });
        await git(['branch', 'future', 'HEAD'], { cwd: toy });
        return {
          codebase: { url: `file://${toy}`, ref: first },
          probes: {
            future: later
              .map(
                (o) =>
                  `git cat-file -e ${o} 2>/dev/null && echo "present ${o}" || echo "absent ${o}"`,
              )
              .join('; '),
            refs: 'git for-each-ref --format="%(refname)" | sort',
          },
        };
      },
    });
  });

  after(() => played?.ws.cleanup());

  it('holds no later commit and no object only a later commit reaches', async () => {
    const [stop] = await played.stops('look-ahead');
    expect(stop?.probes.future?.stdout).to.equal(later.map((o) => `absent ${o}\n`).join(''));
  });

  it('holds no other branch or tag of the source', async () => {
    const [stop] = await played.stops('look-ahead');
    expect(stop?.probes.refs?.stdout).to.not.match(/future|v2/);
  });
});
