import { expect } from 'chai';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  AGENT_ADAPTERS,
  agentFiles,
  ensureAgentInstalled,
  FACTORY_DROID_VERIFIED_VERSION,
  playAgentTurn,
  preflightAdapter,
  type AgentInstall,
  type PlayedTurn,
  type TurnSession,
} from '../../../src/agents/index.js';
import {
  startModelStandIn,
  type ModelScript,
  type ModelStandIn,
} from '../../../src/model-stand-in/index.js';
import { LABELS, removeContainers, type RunContainer } from '../../../src/runtime/index.js';
import { LocalDockerProvider } from '../../../src/sandbox/index.js';
import { HOME, initWork, startAgentContainer, turnPlay, WORK } from '../../support/agents.js';
import { BASE_IMAGE, requireDocker, TEST_CAMPAIGN, testDocker } from '../../support/docker.js';
import { bundleStandIn } from '../agent/bundle.js';
import { DENIED, FAULTS, SCRIPT } from './factory-droid-scripts.js';

const droid = AGENT_ADAPTERS['factory-droid'];
const MODEL = 'kimi-k2.6';
const FIXTURES = `test/fixtures/transcripts/factory-droid-${FACTORY_DROID_VERIFIED_VERSION}`;
/** EVALRIG_RECORD_TRANSCRIPTS=1 keeps the turns' streams as the unit tests' fixtures. */
const RECORD = process.env.EVALRIG_RECORD_TRANSCRIPTS === '1';

/**
 * Factory Droid for real in a run's container (network none, uid 1000, its binary mounted
 * read-only): the preflight, two turns the second forking the first's session, its model
 * calls through the relay and nothing else.
 */
describe('factory-droid for real: its binary read-only in a run, two turns offline, the second forking the first', function () {
  this.timeout(300_000);
  const client = testDocker();
  const labels = { [LABELS.campaign]: `${TEST_CAMPAIGN}-factory-droid` };
  let install: AgentInstall;
  let dir: string;
  let relay: string;
  let standIn: ModelStandIn | undefined;
  let container: RunContainer | undefined;

  before(async () => {
    await requireDocker();
    install = await ensureAgentInstalled(
      droid.install(process.env.EVALRIG_FACTORY_DROID_VERSION ?? FACTORY_DROID_VERIFIED_VERSION),
    );
    dir = await mkdtemp(path.join(tmpdir(), 'evalrig-droid-'));
    await mkdir(path.join(dir, 'model'), { mode: 0o711 });
    relay = await bundleStandIn('model-relay', path.join(dir, 'relay', 'model-relay'));
  });
  afterEach(async () => {
    await container?.remove();
    await standIn?.close();
    container = standIn = undefined;
  });
  after(async () => {
    await removeContainers(client, labels);
    await rm(dir, { recursive: true, force: true });
  });

  /** A container as a run has it, the stand-in playing `script` behind the relay. */
  async function start(script: ModelScript): Promise<RunContainer> {
    standIn = await startModelStandIn({
      script,
      listen: { socketPath: path.join(dir, 'model', 'model.sock') },
    });
    container = await startAgentContainer(client, {
      image: BASE_IMAGE,
      labels,
      binds: [
        ...agentFiles(droid, install, relay).map((f) => ({ ...f, readOnly: true })),
        { host: path.join(dir, 'model'), container: '/run/evalrig-model', readOnly: true },
      ],
    });
    await initWork(container);
    return container;
  }

  async function turn(
    c: RunContainer,
    session: TurnSession,
    prompt: string,
    name?: string,
  ): Promise<PlayedTurn> {
    const played = await playAgentTurn(c, session, droid.env(HOME), turnPlay(prompt));
    if (RECORD && name) await writeFile(path.join(FIXTURES, `${name}.jsonl`), played.transcript);
    return played;
  }

  it('the preflight: the mounted binary answers its version in the image', async () => {
    const provider = new LocalDockerProvider(client);
    const files = agentFiles(droid, install, relay);
    const options = { image: BASE_IMAGE, install, labels };
    expect(await preflightAdapter(provider, droid, files, options)).to.equal(install.version);
  });

  it('plays a turn, then forks its session: the second turn carries the first, under a new id', async () => {
    const c = await start(SCRIPT);
    if (RECORD)
      await writeFile(
        path.join(FIXTURES, 'model-script.json'),
        `${JSON.stringify(SCRIPT, null, 2)}\n`,
      );
    const session = droid.newSession({ model: MODEL, extraArgs: [] });
    const one = await turn(c, session, 'Write the notes.', 'turn-01');
    expect(one.exec.exitCode, one.exec.stderr).to.equal(0);
    expect(one.summary).to.deep.include({
      finalMessage: 'Done: notes.txt holds the word offline.',
      complete: true,
      modelRequests: 3,
    });
    const two = await turn(c, session, 'Push them.', 'turn-02-forked');
    expect(two.exec.exitCode, two.exec.stderr).to.equal(0);
    expect(two.summary.sessionId).to.be.a('string').and.not.equal(one.summary.sessionId);
    // Its commands ran whole (the image has no ps: the stand-in one answered its watchdog).
    const log = await c.exec(['sh', '-c', `cd ${WORK} && git log --format=%s && cat notes.txt`]);
    expect(log.stdout).to.equal('notes\ninit\noffline');
    expect(
      (await c.exec(['sh', '-c', 'command -v ps'])).exitCode,
      'no ps in the image',
    ).to.not.equal(0);
    const requests = standIn!.requests();
    expect(requests.map((r) => [r.path, r.model])).to.deep.equal(
      Array(5).fill(['/v1/chat/completions', MODEL]),
    );
    // The fork's first request holds the whole first turn (its last request and answer) and the prompt.
    expect(requests[3]!.messages, 'the fork sends the first turn on').to.equal(
      requests[2]!.messages + 2,
    );
    const three = await turn(c, session, 'Again.', 'turn-03-api-error');
    expect(three.exec.exitCode).to.equal(1);
    expect(three.summary.complete).to.equal(false);
    const settings = await c.exec(['cat', `${HOME}/.factory/settings.json`]);
    const [custom] = (JSON.parse(settings.stdout) as { customModels: object[] }).customModels;
    expect(custom).to.deep.include({
      model: MODEL,
      provider: 'generic-chat-completion-api',
      baseUrl: 'http://127.0.0.1:18080/v1',
      apiKey: 'evalrig-placeholder-key',
    });
  });

  it('goes through a 429, a cut stream and a 503; the commit Droid Shield refused ran nothing', async () => {
    const c = await start(FAULTS);
    if (RECORD)
      await writeFile(
        path.join(FIXTURES, 'faults-script.json'),
        `${JSON.stringify(FAULTS, null, 2)}\n`,
      );
    const played = await turn(
      c,
      droid.newSession({ model: MODEL, extraArgs: [] }),
      'Commit.',
      'turn-faults',
    );
    expect(played.exec.exitCode, played.exec.stderr).to.equal(0);
    expect(played.summary).to.deep.include({
      finalMessage: 'The faults are behind us.',
      complete: true,
    });
    expect(played.summary.toolCalls).to.deep.include({ total: 1, failed: 0 });
    const log = await c.exec(['git', '-C', WORK, 'log', '--oneline']);
    expect(log.stdout.trim().split('\n')).to.have.length(1);
  });

  it('a command of its deny list ends a first turn with its words; in a forked turn it is refused with a result', async () => {
    const c = await start(DENIED);
    if (RECORD)
      await writeFile(
        path.join(FIXTURES, 'denied-script.json'),
        `${JSON.stringify(DENIED, null, 2)}\n`,
      );
    const denied = await turn(
      c,
      droid.newSession({ model: MODEL, extraArgs: [] }),
      'Change the owner.',
      'turn-denied-first',
    );
    expect(denied.exec.exitCode).to.equal(1);
    expect(denied.summary).to.deep.include({
      error:
        'Exec ended early: insufficient permission to proceed. Re-run with --skip-permissions-unsafe.',
      finalMessage: null,
      complete: false,
    });
    expect(denied.summary.toolCalls).to.deep.include({ total: 1, failed: 0 });
    expect(standIn!.requests(), 'no result reached the model').to.have.length(1);

    const session = droid.newSession({ model: MODEL, extraArgs: [] });
    expect((await turn(c, session, 'Wait.')).summary.complete).to.equal(true);
    const forked = await turn(c, session, 'Change the owner.', 'turn-denied-forked');
    expect(forked.exec.exitCode, forked.exec.stderr).to.equal(0);
    expect(forked.summary).to.deep.include({ finalMessage: 'I will not run it.', complete: true });
    expect(forked.summary.toolCalls).to.deep.include({ total: 1, failed: 0 });
    const last = standIn!.requests().at(-1)!;
    expect(last.toolResults).to.have.length(1);
    const result = last.toolResults[0]!.text;
    expect(
      droid.refusals.some((r) => r.test(result)),
      result,
    ).to.equal(true);
  });
});
