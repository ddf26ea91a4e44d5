import { MODEL_ROUTE, PLACEHOLDER_API_KEY, relayed } from '../model-route.js';
import type { TurnSummary } from '../stream.js';

/**
 * What OpenCode and its forks (Kilo Code) share in how they are launched: their whole config in
 * one environment variable (one OpenAI-compatible provider at the relay, the placeholder key),
 * `run --format json --auto -m provider/MODEL`, a first turn titled (else it asks the model for a
 * title, a second call racing the turn's) and later ones continuing the `ses_…` id the first
 * turn's stream named. What differs is said by each agent's {@link OpenCodeFamily}.
 */
export interface OpenCodeFamily {
  /** Where the container sees the agent's native binary. */
  readonly binary: string;
  /** The variable its config content is read from (OPENCODE_CONFIG_CONTENT, KILO_CONFIG_CONTENT). */
  readonly configVar: string;
  /** Its own switches for side traffic (catalogue fetches, updates, default plugins, …). */
  readonly env: Readonly<Record<string, string>>;
  /** Config keys beside the provider and the model (the fork's own). */
  readonly config?: Readonly<Record<string, unknown>>;
}

/** The provider evalrig declares to the agent: an OpenAI-compatible one at the relay. */
export const FAMILY_PROVIDER = 'evalrig';

/** The agent's environment for a turn: HOME keeps its sessions (~/.local/share/<agent>). */
export function familyEnv(
  family: OpenCodeFamily,
  home: string,
  model: string,
): Record<string, string> {
  const config = {
    autoupdate: false,
    share: 'disabled',
    ...family.config,
    provider: {
      [FAMILY_PROVIDER]: {
        npm: '@ai-sdk/openai-compatible',
        name: FAMILY_PROVIDER,
        options: {
          baseURL: `http://127.0.0.1:${MODEL_ROUTE.relayPort}/v1`,
          apiKey: PLACEHOLDER_API_KEY,
        },
        models: { [model]: { name: model, tool_call: true } },
      },
    },
    model: `${FAMILY_PROVIDER}/${model}`,
  };
  return { HOME: home, [family.configVar]: JSON.stringify(config), ...family.env };
}

/** One turn of the agent, wrapped in the relay: `run --auto` approves what its rules do not deny. */
export interface FamilyTurn {
  readonly prompt: string;
  readonly model: string;
  readonly sessionId: string | null;
  readonly extraArgs?: readonly string[];
}

export function familyArgv(family: OpenCodeFamily, turn: FamilyTurn): string[] {
  return relayed([
    family.binary,
    ...['run', '--format', 'json', '--auto', '-m', `${FAMILY_PROVIDER}/${turn.model}`],
    ...(turn.sessionId === null ? ['--title', 'evalrig'] : ['--session', turn.sessionId]),
    ...(turn.extraArgs ?? []),
    '--',
    turn.prompt,
  ]);
}

/** One run's session: the agent names it on the first turn, later turns continue it. */
export class FamilySession {
  private session: string | null = null;

  constructor(
    private readonly family: OpenCodeFamily,
    private readonly parse: (stdout: string) => TurnSummary,
    readonly model: string,
    private readonly extraArgs: readonly string[] = [],
  ) {}

  get sessionId(): string | null {
    return this.session;
  }

  argv(prompt: string): string[] {
    return familyArgv(this.family, {
      prompt,
      model: this.model,
      sessionId: this.session,
      extraArgs: this.extraArgs,
    });
  }

  take(stdout: string): TurnSummary {
    const summary = this.parse(stdout);
    // Only an id shaped like one is kept: it goes back into the next turn's argv.
    const id = summary.sessionId;
    if (this.session === null && id !== null && /^ses_[0-9A-Za-z]{1,80}$/u.test(id))
      this.session = id;
    return summary;
  }
}
