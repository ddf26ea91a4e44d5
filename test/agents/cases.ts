/**
 * The cases of the agent conformance suite, as the conditions of one campaign: what each
 * stages (every file carrying a canary of its own, so that the logging upstream can tell
 * whether it reached the model) and the model script its route plays over two turns.
 */
import path from 'node:path';
import type { ModelScript, ScriptResponse } from '../../src/model-stand-in/index.js';
import type { AgentProfile, StagedCase } from './profile.js';

export const PROMPT = 'Look at the project and say what you did.';
export const SECOND = 'Now say that you are done.';

/** One staged file: its eval-set path, where it lands, its canary and what the agent does with it. */
export interface StagedFile extends StagedCase {
  readonly from: string;
  readonly canary: string;
  readonly text: string;
}

export interface ConformanceCase {
  readonly name: 'loaded' | 'nothing' | 'near_miss' | 'echo' | 'faults';
  readonly staged: readonly StagedFile[];
  readonly script: ModelScript;
}

/** A canary per file, its case kept: `claude.md` and `CLAUDE.md` must not share one. */
const canaryOf = (condition: string, file: string) =>
  `CANARY-${condition}-${file.replace(/[^A-Za-z0-9]+/gu, '-')}`;

/** A skill whose description holds YAML escapes, quoting, angle brackets, unicode and markdown. */
function skillText(name: string, canary: string, bare: boolean, body = ''): string {
  if (bare) return `${canary} is what this skill is for.\n\nSteps in **bold**.\n${body}`;
  return [
    '---',
    `name: ${name}`,
    `description: "Use when ${canary} is \\"quoted\\" <in angles> & \\u2713 done."`,
    '---',
    '',
    `# ${name}`,
    '',
    '- a *markdown* list',
    body,
  ].join('\n');
}

/** A file of instructions: markdown, its canary in its first lines. */
const instructionsText = (canary: string) =>
  `# Project rules\n\n${canary}: keep every change small.\n- one list item\n`;

function staged(condition: string, c: StagedCase, body = ''): StagedFile {
  const canary = canaryOf(condition, c.path);
  const from = `stage/${condition}/${c.path.replace(/\//gu, '_')}`;
  const isSkill = path.posix.basename(c.path).toLowerCase().startsWith('skill');
  const name = path.posix.basename(path.posix.dirname(c.path));
  const text = isSkill ? skillText(name, canary, c.bare ?? false, body) : instructionsText(canary);
  return { ...c, from, canary, text };
}

const usage = (input: number, output: number) => ({ input_tokens: input, output_tokens: output });
const say = (text: string, input: number, output: number): ScriptResponse => ({
  content: [{ text }],
  usage: usage(input, output),
});

/** Every case for `p`, in the order the campaign plays them. */
export function conformanceCases(p: AgentProfile): ConformanceCase[] {
  const skill = `${p.skillsDir}/conform-skill/SKILL.md`;
  // A skill of about 200 KB: agents list its front matter, not its body.
  const big = staged(
    'loaded',
    { path: `${p.skillsDir}/conform-big/SKILL.md`, loads: true },
    'x '.repeat(100_000),
  );
  const loaded = [
    ...p.instructions.map((f) => staged('loaded', { path: f, loads: true })),
    staged('loaded', { path: skill, loads: true }),
    big,
  ];
  const turn2 = say('Done, as asked.', 900, 5);
  return [
    {
      name: 'loaded',
      staged: loaded,
      script: {
        responses: [
          {
            content: [{ text: 'I will use the skill.' }, p.useSkill('conform-skill', p.skillsDir)],
            usage: usage(1000, 30),
          },
          // What the container holds: the key must not be anywhere in it.
          {
            content: [
              p.shell('env | sort; cat "$HOME"/.*.json "$HOME"/.*/*.json 2>/dev/null; true'),
            ],
            usage: usage(1100, 20),
          },
          say('I used the skill and looked around.', 1200, 10),
          turn2,
        ],
      },
    },
    {
      name: 'nothing',
      staged: [],
      script: {
        responses: [
          { content: [p.shell('echo failing >&2; exit 3')], usage: usage(500, 10) },
          say('The command failed.', 600, 5),
          turn2,
        ],
      },
    },
    {
      name: 'near_miss',
      staged: p.nearMisses.map((c) => staged('near_miss', c)),
      script: { responses: [say('Nothing to do.', 400, 5), turn2] },
    },
    {
      name: 'echo',
      staged: [staged('echo', { path: p.echoed, loads: false })],
      script: {
        responses: [
          // And a look for the eval set's folder, which an adapter agent is not given.
          { content: [p.shell(`cat ${p.echoed}; ls /evalset 2>&1`)], usage: usage(450, 10) },
          say('I printed the file.', 550, 5),
          turn2,
        ],
      },
    },
    {
      name: 'faults',
      staged: [],
      script: { responses: [...p.faults, p.fatal?.response ?? turn2] },
    },
  ];
}

/** The eval-set files of the cases' staged files. */
export function stagedFiles(cases: readonly ConformanceCase[]): Record<string, string> {
  return Object.fromEntries(cases.flatMap((c) => c.staged.map((s) => [s.from, s.text])));
}
