import { expect } from 'chai';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  ClaudeCodeSession,
  claudeCodeBinds,
  playClaudeCodeTurn,
} from '../../../src/agents/index.js';
import { openRunGateway, type RunGateway } from '../../../src/gateway/index.js';
import { ensureTestImage } from '../../../src/image/index.js';
import type { ModelScript } from '../../../src/model-stand-in/index.js';
import { LABELS, removeContainers, type RunContainer } from '../../../src/runtime/index.js';
import {
  HOME,
  IDENTITY,
  installClaudeCode,
  startAgentContainer,
  turnPlay,
  WORK,
} from '../../support/agents.js';
import { requireDocker, TEST_CAMPAIGN, testDocker } from '../../support/docker.js';

/** The nominal pull-request workflow, as the model stand-in asks the real binary to play it. */
const SCRIPT: ModelScript = {
  responses: [
    {
      content: [
        { text: 'I will open a draft pull request with the plan.' },
        {
          tool_use: {
            name: 'Bash',
            input: {
              command:
                'git checkout -q -b add-f && echo x > f && git add f && git commit -qm "Add f" && git push -q -u origin add-f && gh pr create --draft --title "Add f" --body "Plan: add f"',
            },
          },
        },
      ],
      usage: { input_tokens: 3000, output_tokens: 90 },
    },
    {
      content: [{ text: 'Opened a draft pull request.' }],
      usage: { input_tokens: 3200, output_tokens: 8 },
    },
    {
      content: [
        {
          tool_use: {
            name: 'Bash',
            input: {
              command:
                'gh pr edit --body "Plan: add f (refreshed)" && gh pr view --json number,isDraft,body',
            },
          },
        },
      ],
      usage: { input_tokens: 3500, output_tokens: 40 },
    },
    {
      content: [{ text: 'The description is refreshed.' }],
      usage: { input_tokens: 3700, output_tokens: 7 },
    },
  ],
};

describe('claude-code for real: the pull-request workflow through the gh stand-in, over a resumed session', function () {
  this.timeout(300_000);
  const client = testDocker();
  const labels = { [LABELS.campaign]: `${TEST_CAMPAIGN}-claude-code-pr` };
  let dir: string;
  let gw: RunGateway | undefined;
  let container: RunContainer | undefined;

  before(async () => {
    await requireDocker();
  });
  after(async () => {
    await container?.remove();
    await gw?.close();
    await removeContainers(client, labels);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('opens a draft on the first turn and edits it after --resume; the stand-in records both', async () => {
    const install = await installClaudeCode();
    const image = await ensureTestImage(client, {});
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-claude-pr-'));
    gw = await openRunGateway({
      source: { script: SCRIPT },
      logPath: path.join(dir, 'model-calls.jsonl'),
    });
    container = await startAgentContainer(client, {
      image: image.tag,
      labels,
      binds: claudeCodeBinds(install.binary, gw.hostDir),
    });
    const setup = await container.exec(
      [
        'sh',
        '-c',
        `set -e; mkdir -p ${HOME} /tmp/acme; git init -q --bare -b main /tmp/acme/toy.git
         git clone -q /tmp/acme/toy.git ${WORK} 2>/dev/null; cd ${WORK}
         echo toy > README.md; git add README.md; git commit -qm init; git push -q origin main`,
      ],
      { env: IDENTITY },
    );
    expect(setup.exitCode, setup.stderr).to.equal(0);

    const session = new ClaudeCodeSession();
    const play = (prompt: string) => playClaudeCodeTurn(container!, session, turnPlay(prompt));
    const first = await play('Plan the change and open a draft pull request with the plan.');
    expect(first.exec.exitCode, first.exec.stderr).to.equal(0);
    expect(first.summary).to.deep.include({
      finalMessage: 'Opened a draft pull request.',
      error: null,
    });
    expect(first.summary.toolCalls).to.deep.include({ total: 1, failed: 0 });
    const created = gw.standIn!.requests()[1]!.toolResults[0]!;
    expect(created.isError).to.equal(false);
    expect(created.text).to.match(/\/acme\/toy\/pull\/1$/);

    const second = await play('Go ahead, and refresh the description.');
    expect(second.exec.exitCode, second.exec.stderr).to.equal(0);
    expect(second.summary).to.deep.include({
      finalMessage: 'The description is refreshed.',
      sessionId: session.id,
    });
    const viewed = JSON.parse(
      gw.standIn!.requests()[3]!.toolResults[0]!.text.split('\n').pop()!,
    ) as unknown;
    expect(viewed).to.deep.equal({ body: 'Plan: add f (refreshed)', isDraft: true, number: 1 });

    // What the gh stand-in recorded in the repository, and what reached the origin.
    const calls = await container.exec(['cat', `${WORK}/.git/gh-stand-in/calls.jsonl`]);
    const argvs = calls.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { argv: string[] }).argv.slice(0, 2).join(' '));
    expect(argvs).to.deep.equal(['pr create', 'pr edit', 'pr view']);
    const pushed = await container.exec([
      'git',
      '--git-dir',
      '/tmp/acme/toy.git',
      'log',
      '--format=%s',
      'add-f',
    ]);
    expect(pushed.stdout).to.equal('Add f\ninit\n');
    expect(gw.gateway.calls().map((c) => c.status)).to.deep.equal([200, 200, 200, 200]);
  });
});
