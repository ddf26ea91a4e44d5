/**
 * The kinds of agent evalrig plays itself, each through an adapter of src/agents: the one
 * place they are written. The adapters' table is declared over them, the eval set's schema
 * takes its enums and default models from them (scripts/generate-types.mjs writes them), and
 * every message that lists them is built from them.
 *
 * Plain data with no imports: the build script reads this file as it is, and it stands below
 * both config and the adapters.
 *
 * @example
 * quotedKinds(); // '"claude-code", "codex", "copilot-cli", "factory-droid", "gemini-cli", …'
 */

/** What one kind is, before its adapter says how it runs. */
export interface AgentKindFacts {
  /** What people call it. */
  readonly name: string;
  /** The npm package evalrig installs for it. */
  readonly package: string;
  /** The model it asks for when the eval set names none; null: it takes no `model_name`. */
  readonly defaultModel: string | null;
}

/** Every adapter kind, in the order the schema and the messages list them. */
export const AGENT_KINDS = {
  'claude-code': { name: 'Claude Code', package: '@anthropic-ai/claude-code', defaultModel: null },
  // Its linux-x64 platform package is the agent (one binary); Claude Sonnet 4.6, its own default, in the price table's spelling.
  cline: { name: 'Cline', package: '@cline/cli-linux-x64', defaultModel: 'claude-sonnet-4-6' },
  codex: { name: 'Codex', package: '@openai/codex', defaultModel: 'gpt-5.1-codex' },
  // A model its own catalog knows (token limits, prompts); it asks for none of its own offline.
  'copilot-cli': { name: 'Copilot CLI', package: '@github/copilot', defaultModel: 'gpt-5.4' },
  // Its linux-x64 platform package is the agent (one binary); a Chat Completions model by name.
  'factory-droid': {
    name: 'Factory Droid',
    package: '@factory/cli-linux-x64',
    defaultModel: 'kimi-k2.6',
  },
  'gemini-cli': {
    name: 'Gemini CLI',
    package: '@google/gemini-cli',
    // A named model: "auto" would ask a router first, a model call of its own.
    defaultModel: 'gemini-2.5-pro',
  },
  // An OpenCode fork. A model its own catalogue prices (its default is its vendor's router).
  'kilo-code': { name: 'Kilo Code', package: '@kilocode/cli', defaultModel: 'grok-code-fast-1' },
  opencode: { name: 'OpenCode', package: 'opencode-ai', defaultModel: 'gpt-5.1' },
  'qwen-code': {
    name: 'Qwen Code',
    package: '@qwen-code/qwen-code',
    defaultModel: 'qwen3-coder-plus',
  },
} as const satisfies Readonly<Record<string, AgentKindFacts>>;

/** An agent kind with an adapter (every `agent.type` but `command`). */
export type AdapterKind = keyof typeof AGENT_KINDS;

export const ADAPTER_KINDS = Object.keys(AGENT_KINDS) as readonly AdapterKind[];

/** The kinds that take `agent.model_name`: those with a default model. */
export const MODEL_NAMED_KINDS: readonly AdapterKind[] = ADAPTER_KINDS.filter(
  (k) => AGENT_KINDS[k].defaultModel !== null,
);

/** The default model of each kind in MODEL_NAMED_KINDS. */
export const DEFAULT_MODELS: Readonly<Record<string, string>> = Object.fromEntries(
  MODEL_NAMED_KINDS.map((k) => [k, AGENT_KINDS[k].defaultModel!]),
);

/** `kinds` in a sentence: each marked, joined by commas, `last` before the last one. */
export function listKinds(
  kinds: readonly string[],
  mark: (kind: string) => string,
  last = ', ',
): string {
  const marked = kinds.map(mark);
  if (marked.length < 2) return marked.join('');
  return `${marked.slice(0, -1).join(', ')}${last}${marked.at(-1)!}`;
}

/** `"claude-code", "codex", …`: the kinds as messages quote them. */
export function quotedKinds(kinds: readonly string[] = ADAPTER_KINDS, last = ', '): string {
  return listKinds(kinds, (k) => JSON.stringify(k), last);
}
