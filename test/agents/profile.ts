/**
 * What the agent conformance suite knows of one agent before it plays it: how its model runs
 * a shell and takes up a skill, where it loads instructions and skills, the near misses users
 * make for it (with whether the agent loads each: what its real binary was seen to do), the
 * upstream faults it goes through, and a tool call it refuses. The suite holds the adapter to
 * every line of it against what the binary really sent.
 */
import type { ScriptBlock, ScriptResponse } from '../../src/model-stand-in/index.js';
import type { AdapterType } from '../../src/agents/index.js';

/** A staged file of a case: where it lands, and whether the agent loads it there. */
export interface StagedCase {
  /** Relative to the work tree. */
  readonly path: string;
  /** A SKILL.md without front matter (its folder names it, its first line describes it). */
  readonly bare?: boolean;
  /** What the agent does with it there (seen with its real binary). */
  readonly loads: boolean;
}

export interface AgentProfile {
  readonly type: AdapterType;
  readonly version: string;
  readonly model?: string;
  /** A tool call of the model that runs `command` in a shell. */
  shell(command: string): ScriptBlock;
  /** A tool call of the model that takes up the skill `name` staged under `skillsDir`. */
  useSkill(name: string, skillsDir: string): ScriptBlock;
  /** Where it loads a skill's folder, e.g. `.claude/skills`. */
  readonly skillsDir: string;
  /** The instruction files it loads at the work tree's root, e.g. `CLAUDE.md`. */
  readonly instructions: readonly string[];
  /** Staged paths users get wrong for this agent (and right ones its rule must tell apart). */
  readonly nearMisses: readonly StagedCase[];
  /** A file it does not load, which its model then prints with a shell command. */
  readonly echoed: string;
  /**
   * The first turn of the faults case: errors, a cut answer, then answers; each whole answer
   * with its usage, the cut one with none (what the upstream reports of a cut differs by API).
   */
  readonly faults: readonly ScriptResponse[];
  /**
   * A fault that ends the agent's second turn (its run then fails in phase agent, its stops
   * kept), with the error the run must give: what the agent does not go through.
   */
  readonly fatal?: { readonly response: ScriptResponse; readonly error: RegExp };
  /**
   * For an agent that lists its skills by name alone (Cline): whether a request's raw body
   * lists skill `name`. Its descriptions never reach the model, so a skill's canary (in its
   * description) cannot say it loaded; the listing can.
   */
  readonly skillListed?: (body: string, name: string) => boolean;
  /** A command the agent refuses to run (its own policy), or undefined when it refuses none. */
  readonly refusedCommand?: string;
  /** The container's resources (the Node agents' heap is sized by the container's memory). */
  readonly resources?: Record<string, unknown>;
}

/** The faults most agents go through in one turn: 429, 529, a stream cut, then two answers. */
export function usualFaults(
  shell: (command: string) => ScriptBlock,
  command: string,
): ScriptResponse[] {
  return [
    { error: { status: 429, retry_after: 0 } },
    { error: { status: 529, retry_after: 0 } },
    {
      content: [{ text: 'Part of an answer.' }, shell('echo CUT-CALL-NEVER-RUN')],
      usage: { input_tokens: 0, output_tokens: 0 },
      stream_error: { type: 'overloaded_error' },
    },
    {
      content: [{ text: 'Running it.' }, shell(command)],
      usage: { input_tokens: 610, output_tokens: 21 },
    },
    {
      content: [{ text: 'The faults are behind us.' }],
      usage: { input_tokens: 720, output_tokens: 6 },
    },
  ];
}
