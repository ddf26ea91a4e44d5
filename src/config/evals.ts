// Generated from evals.schema.json by scripts/generate-types.mjs: do not edit.
// Change the schema, then run `npm run build` (or node scripts/generate-types.mjs).

/**
 * The codebase every eval runs against unless it names its own: { "url", "ref" } or { "path" } (relative to this file's folder). Absent: each eval gets a fresh repository holding only its files.
 */
export type CodebaseSource = GitSource | LocalPath;
/**
 * argv of the first turn, e.g. ["claude", "-p", "{prompt}"].
 *
 * @minItems 1
 */
export type Argv = [string, ...string[]];
/**
 * argv of each later turn ({prompt} is then the turn's message). Default: `command`.
 *
 * @minItems 1
 */
export type Argv1 = [string, ...string[]];
/**
 * Appended to the agent command at every turn.
 */
export type Argv2 = string[];
/**
 * Checks run after the last turn of every eval that declares none of its own.
 *
 * Items: A named shell command run with `sh -c` in the work tree after the last turn; its exit code is recorded.
 */
export type Checks = {
  /**
   * The check's name in reports, e.g. "tests".
   */
  name: string;
  /**
   * Shell command, e.g. "npm test".
   */
  run: string;
}[];
/**
 * Message checks of every eval (an eval's own are added to these).
 */
export type MessageChecks = {
  /**
   * The check's name in reports, e.g. "says_draft".
   */
  name: string;
  /**
   * The stops whose final message is read: every stop, the stops that hand over, or the run's last stop. Default "every".
   */
  stops?: 'every' | 'hand_over' | 'last';
  /**
   * What each message looked at must hold; the check passes when every one does.
   */
  rule:
    | {
        /**
         * The message contains this text (case-sensitive).
         */
        contains: string;
      }
    | {
        /**
         * The message does not contain this text (case-sensitive).
         */
        not_contains: string;
      }
    | {
        /**
         * A regular expression (JavaScript syntax) the message matches somewhere.
         */
        matches: string;
        /**
         * Regular expression flags among i, m, s and u, each at most once (g and y are refused: they make a match depend on the one before).
         */
        flags?: string;
      }
    | {
        /**
         * A regular expression (JavaScript syntax) the message matches nowhere.
         */
        not_matches: string;
        /**
         * Regular expression flags among i, m, s and u, each at most once (g and y are refused: they make a match depend on the one before).
         */
        flags?: string;
      };
}[];
/**
 * This eval's codebase, overriding the top-level one: { "url", "ref" } or { "path" }.
 */
export type CodebaseSource1 = GitSource | LocalPath;
/**
 * A later user message: a plain string, or { "message", "phase" }.
 */
export type Turn =
  | string
  | {
      /**
       * What the user says at this turn.
       */
      message: string;
      /**
       * Phase of this turn. Default: the previous turn's phase.
       */
      phase?: string;
    };
/**
 * Checks of this eval, replacing the top-level ones.
 *
 * Items: A named shell command run with `sh -c` in the work tree after the last turn; its exit code is recorded.
 */
export type Checks1 = {
  /**
   * The check's name in reports, e.g. "tests".
   */
  name: string;
  /**
   * Shell command, e.g. "npm test".
   */
  run: string;
}[];
/**
 * Message checks of this eval, added to the top-level ones.
 */
export type MessageChecks1 = {
  /**
   * The check's name in reports, e.g. "says_draft".
   */
  name: string;
  /**
   * The stops whose final message is read: every stop, the stops that hand over, or the run's last stop. Default "every".
   */
  stops?: 'every' | 'hand_over' | 'last';
  /**
   * What each message looked at must hold; the check passes when every one does.
   */
  rule:
    | {
        /**
         * The message contains this text (case-sensitive).
         */
        contains: string;
      }
    | {
        /**
         * The message does not contain this text (case-sensitive).
         */
        not_contains: string;
      }
    | {
        /**
         * A regular expression (JavaScript syntax) the message matches somewhere.
         */
        matches: string;
        /**
         * Regular expression flags among i, m, s and u, each at most once (g and y are refused: they make a match depend on the one before).
         */
        flags?: string;
      }
    | {
        /**
         * A regular expression (JavaScript syntax) the message matches nowhere.
         */
        not_matches: string;
        /**
         * Regular expression flags among i, m, s and u, each at most once (g and y are refused: they make a match depend on the one before).
         */
        flags?: string;
      };
}[];
/**
 * Checks over the steps of every run: what the agent ran and read, in order.
 */
export type StepChecks = {
  /**
   * The check's name in reports.
   */
  name: string;
  /**
   * What the check asks, in words, for the report (default: the rule).
   */
  description?: string;
  /**
   * A regular expression one shell command (a simple command: `a && b` is two) must match for the check to pass.
   */
  ran?: string;
  /**
   * With `ran`: the tool call that ran it did not end in an error (a non-zero exit, as the tool's result says).
   */
  succeeded?: boolean;
  /**
   * With `ran`: the command must come before the last shell command matching this regular expression (e.g. ^git commit); a run with no such command is null.
   */
  before_last?: string;
  /**
   * A regular expression no shell command may match.
   */
  never?: string;
  /**
   * A regular expression a file the agent's tools read (or `cat`, `head`, `sed` ... named) must match.
   */
  read?: string;
}[];

/**
 * An evalrig eval set (evals.json): the tasks an agent is evaluated on, the conditions it runs under, and how each run is set up. Validate it with `evalrig validate evals.json`.
 */
export interface RawEvalSet {
  /**
   * The JSON Schema of this file, so that an editor completes and explains it. Ignored by evalrig.
   */
  $schema?: string;
  /**
   * The eval set's name, shown in reports.
   */
  name: string;
  /**
   * What this eval set measures, in a sentence or two.
   */
  description?: string;
  codebase?: CodebaseSource;
  /**
   * How many times each eval runs under each condition (an eval's own `runs` overrides it). Default 1.
   */
  runs?: number;
  /**
   * Seconds one run may take, all turns included, before its container is killed and the run recorded as timed out. Default 1800.
   */
  timeout?: number;
  /**
   * Seconds one turn may take before the run is cut and recorded as timed out. Default 600.
   */
  turn_timeout?: number;
  agent?: Agent;
  /**
   * A matrix: every condition runs under each of these agents, e.g. with_skill and without_skill under claude-code and codex. Each entry is an adapter agent, the same fields as `agent` (which a set with `agents` must not have); each condition becomes one per agent, named `CONDITION@TYPE` (e.g. `with_skill@codex`), and each agent's conditions are compared with that agent's baseline condition. Two entries may not have the same type.
   *
   * @minItems 2
   * @maxItems 8
   */
  agents?:
    | [Agent, Agent]
    | [Agent, Agent, Agent]
    | [Agent, Agent, Agent, Agent]
    | [Agent, Agent, Agent, Agent, Agent]
    | [Agent, Agent, Agent, Agent, Agent, Agent]
    | [Agent, Agent, Agent, Agent, Agent, Agent, Agent]
    | [Agent, Agent, Agent, Agent, Agent, Agent, Agent, Agent];
  /**
   * Named variants every eval runs under, e.g. with_skill and without_skill. Absent or empty: one condition named `default`.
   */
  conditions?: {
    [k: string]: Condition;
  };
  /**
   * The condition the others are compared to. Default: the first one. In a matrix (`agents`), a condition as declared (e.g. without_skill): each agent's conditions are compared with that agent's run of it.
   */
  baseline_condition?: string;
  /**
   * Shell commands run in the work tree at each stop, their output recorded. `kind` prints the stop's kind; `description` the pull-request description the workflow expects at that moment.
   */
  probes?: {
    /**
     * A shell command run with `sh -c` in the work tree.
     */
    [k: string]: string;
  };
  /**
   * Stop kinds (as the `kind` probe prints them) that hand the work back to the human; `--stop-at-hand-over` ends a run at the first one.
   */
  hand_over?: string[];
  /**
   * Limits of each run's container.
   */
  resources?: {
    /**
     * Memory limit: a size such as "512m" or "2g", or a number of bytes; at least 6m (Docker's smallest), at most the engine's memory (checked when a campaign starts). Default "2g".
     */
    memory?: string | number;
    /**
     * CPUs the container may use, e.g. 1.5: from 0.01 (Docker's smallest) to the engine's CPU count (checked when a campaign starts). Default 2.
     */
    cpus?: number;
    /**
     * Most processes the container may hold at once, from 16 to 4194304 (the kernel's largest process limit). Default 512.
     */
    pids?: number;
    /**
     * What a run may write into its environment: a size such as "512m" or "2g", or a number of bytes; at least 16m. Enforced when evalrig runs as root (a size-limited filesystem under the run's work tree; its pages also count toward the run's memory). Default "2g".
     */
    disk?: string | number;
  };
  /**
   * Per run: a run that reaches one ends as limit_reached (which limit is recorded), counted apart in the report. Counted from what the model gateway witnessed (adapter agents): checked between turns, and the gateway refuses the calls past it.
   */
  limits?: {
    /**
     * Tokens billed (input, output, cache reads and writes) over the run's turns.
     */
    tokens?: number;
    /**
     * The run's cost at the price table's list prices, in USD.
     */
    cost?: number;
    /**
     * Calls the run's agent sends to the model.
     */
    model_requests?: number;
  };
  /**
   * No new run or turn starts once what the campaign spent (agents and judge, at list prices) plus what its turns in flight are expected to spend would pass it; runs cut by it are played by a later resume with a larger budget. --max-cost overrides it.
   */
  max_cost_usd?: number;
  /**
   * The rate evalrig run --until-decided tests after each round: a measure's name (checks_passed, pr_draft_at_hand_over, ...), checks.<name> (one check) or message_checks.<name>. A judged one (grading.*) is refused: rounds decide on what the host witnessed. Default: the first of the verdicts' measures the eval set measures (pr_draft_at_hand_over with hand_over stops, else checks_passed with checks, else its first message check).
   */
  primary_measure?: string;
  /**
   * The smallest difference in the primary measure's rate that matters, from 0 to 1 (0.2: 20 points). evalrig run --until-decided stops as futile when the runs say a difference that large is unlikely; evalrig plan --until-decided sizes the design by it.
   */
  min_effect?: number;
  /**
   * What every run's gateway (and the judge's) share per upstream API: calls in flight, calls and tokens per minute. A lower limit the upstream states in its rate-limit headers is learnt. --max-in-flight, --rpm and --tpm override them.
   */
  rate_limits?: {
    /**
     * Calls forwarded at once.
     */
    max_in_flight?: number;
    /**
     * Calls started in any 60 s window.
     */
    requests_per_minute?: number;
    /**
     * Tokens billed in any 60 s window.
     */
    tokens_per_minute?: number;
  };
  /**
   * The commit evalrig makes on top of the codebase to hold what it placed (the eval's files, the condition's staged paths): its message and author, as the agent sees them in git log. Default: message "Add project files", author "Alex Morgan <alex@example.com>", neither naming evalrig. No commit is made when nothing was placed.
   */
  baseline_commit?: {
    /**
     * The commit message. Default "Add project files".
     */
    message?: string;
    /**
     * The commit's author and committer. Default Alex Morgan <alex@example.com>.
     */
    author?: {
      name: string;
      email: string;
    };
  };
  /**
   * Owner login of the repository as the gh stand-in shows it (owner/name). Default "evalrig".
   */
  repo_owner?: string;
  checks?: Checks;
  message_checks?: MessageChecks;
  /**
   * The built-in message checks kept on. Default: all of them (["no_missing_gh"]); [] switches them off.
   */
  builtin_message_checks?: 'no_missing_gh'[];
  environment?: Environment;
  services?: Services;
  /**
   * The model that grades each run's `expectations` after its last turn (one call per run through a model gateway on the host, never from a container), and optionally compares two conditions blind. Without it, expectations are not graded (the campaign says so).
   */
  judge?: {
    /**
     * { "script": "<file in this folder>" }: the offline model stand-in plays the judge from that model script (see model-script.schema.json). { "url": "https://api.anthropic.com", "key_env": "ANTHROPIC_API_KEY" }: a Messages API, the key read from that host variable and added on the host side.
     */
    model:
      | {
          /**
           * Path of a model script, relative to this file's folder and inside it.
           */
          script: string;
        }
      | {
          /**
           * The API's origin, e.g. https://api.anthropic.com; only POST /v1/messages is sent to it.
           */
          url: string;
          /**
           * The host environment variable holding the API key.
           */
          key_env: string;
        };
    /**
     * "messages" (default): the Anthropic Messages API, POST /v1/messages, the key sent as x-api-key. "responses": the OpenAI Responses API, POST /v1/responses, the key sent as a bearer token. The model stand-in plays either from the same script.
     */
    api?: 'messages' | 'responses';
    /**
     * The model the judge's requests name (recorded in grading.json and part of the cache key). Required with a `url`; default "stand-in-judge" with a script.
     */
    model_name?: string;
    /**
     * The most bytes of the run's diff.patch the judge sees (its head, marked when cut). Default 65536.
     */
    max_diff_bytes?: number;
    /**
     * The most bytes of the agent's transcripts (or stdout) the judge sees, shared by the turns (the end of each, marked when cut). Default 32768.
     */
    max_transcript_bytes?: number;
    /**
     * The judge's `max_tokens`. Default 4096.
     */
    max_tokens?: number;
    /**
     * Two condition names: for each eval and run number, the judge sees both runs' final states unlabeled, in a seeded random order that is recorded, and says which better meets the expectations.
     *
     * @minItems 2
     * @maxItems 2
     */
    compare?: [string, string];
  };
  /**
   * The tasks. Each runs `runs` times under every condition.
   *
   * @minItems 1
   */
  evals: [Eval, ...Eval[]];
  step_checks?: StepChecks;
}
export interface GitSource {
  /**
   * Anything `git clone` accepts: https://, ssh://, git@host:owner/repo.git, file://, or a local path (relative to the eval set file).
   */
  url: string;
  /**
   * A branch, a tag, or a full 40-hex commit. A short commit hash (7 to 39 hex digits) is refused: write the full commit.
   */
  ref: string;
}
export interface LocalPath {
  /**
   * A folder on this host, absolute or relative to the eval set file. A repository is taken at its committed state (HEAD); any other folder is taken as a snapshot of its files. Host-local: recorded as such in every report.
   */
  path: string;
}
/**
 * How the agent is run in the container. Placeholders in the arguments: {prompt}, {turn}, {phase}, {eval}, {condition}, {run}, {eval_set_dir}.
 */
export interface Agent {
  /**
   * `command` (default): `command` is run as given each turn (its program must exist in every image: checked before any run). `claude-code`: evalrig installs the npm package @anthropic-ai/claude-code at `version` on the host once, mounts its binary read-only, chooses the session id, resumes it on later turns and reads its stream (tokens, cost, tool calls). `codex`: the same with the npm package @openai/codex (its static binary, and a relay that carries its model calls to the run's gateway); Codex names its thread, later turns resume it. `gemini-cli` (@google/gemini-cli, the Gemini API), `qwen-code` (@qwen-code/qwen-code, Chat Completions): Node bundles, their package folder mounted with a Node 20 runtime evalrig installs the same way; `opencode` (opencode-ai, its native binary, Chat Completions); `copilot-cli` (@github/copilot, its native binary and the package cache unpacked from it once on the host, both mounted read-only; its own provider, Chat Completions); `factory-droid` (@factory/cli-linux-x64, its native binary, a custom model of its own speaking Chat Completions); `kilo-code` (@kilocode/cli, an OpenCode fork: its native binary, Chat Completions); `cline` (@cline/cli-linux-x64, its native binary played through its ACP mode by a driver of evalrig's, Chat Completions). For all of them, `command` and `resume_command` are not given.
   */
  type?:
    | 'command'
    | 'claude-code'
    | 'cline'
    | 'codex'
    | 'copilot-cli'
    | 'factory-droid'
    | 'gemini-cli'
    | 'kilo-code'
    | 'opencode'
    | 'qwen-code';
  /**
   * The exact package version of the agent (type `claude-code`, e.g. "2.1.332", or `codex`, e.g. "0.171.0"); recorded with the sha256 of its binary.
   */
  version?: string;
  /**
   * Where a `claude-code` or `codex` agent's model calls go (through the run's model gateway; the container never has the network). { "script": "<file in this folder>" }: the offline model stand-in plays that model script (see model-script.schema.json); an eval's or a condition's `model_script` overrides it. { "url": "https://api.anthropic.com", "key_env": "ANTHROPIC_API_KEY" } (Codex: { "url": "https://api.openai.com", "key_env": "OPENAI_API_KEY" }, or any OpenAI-compatible base URL such as "https://host/openai/v1"): the real API, the key read from that host variable by evalrig and added on the host side (it never enters the container). { "url": "https://api.anthropic.com", "token_env": "CLAUDE_CODE_OAUTH_TOKEN" } (claude-code only): a Claude subscription's OAuth token, read from that host variable and sent on the host side as Claude Code sends it (Authorization: Bearer and the OAuth beta).
   */
  model?:
    | {
        /**
         * Path of a model script, relative to this file's folder and inside it.
         */
        script: string;
      }
    | {
        /**
         * The API's base URL: an origin like https://api.anthropic.com, or an origin and a path (an OpenAI-compatible endpoint, e.g. https://host/openai/v1, as Codex's base_url or OPENAI_BASE_URL take it). The agent's API path is appended: only POST /v1/messages (Claude Code), POST /v1/responses (Codex), POST /v1/chat/completions (OpenCode, Qwen Code) or POST /v1beta/models/{model}:streamGenerateContent and :generateContent (Gemini CLI) is forwarded, and a base ending in that path's version (/v1) does not repeat it: https://host/openai/v1 receives /openai/v1/responses.
         */
        url: string;
        /**
         * The host environment variable holding the API key, e.g. ANTHROPIC_API_KEY.
         */
        key_env: string;
      }
    | {
        /**
         * The API's base URL: an origin like https://api.anthropic.com, or an origin and a path (an OpenAI-compatible endpoint, e.g. https://host/openai/v1, as Codex's base_url or OPENAI_BASE_URL take it). The agent's API path is appended: only POST /v1/messages (Claude Code), POST /v1/responses (Codex), POST /v1/chat/completions (OpenCode, Qwen Code) or POST /v1beta/models/{model}:streamGenerateContent and :generateContent (Gemini CLI) is forwarded, and a base ending in that path's version (/v1) does not repeat it: https://host/openai/v1 receives /openai/v1/responses.
         */
        url: string;
        /**
         * claude-code only: the host environment variable holding a Claude subscription's OAuth token, e.g. CLAUDE_CODE_OAUTH_TOKEN (what `claude setup-token` prints). The gateway sends it upstream as Claude Code does (Authorization: Bearer, and oauth-2025-04-20 added to anthropic-beta); the container holds only a placeholder key.
         */
        token_env: string;
      };
  /**
   * For a `cline`, `codex`, `copilot-cli`, `factory-droid`, `gemini-cli`, `kilo-code`, `opencode` or `qwen-code` agent: the model it asks for, and the price-table entry its tokens are priced with. Default "claude-sonnet-4-6" (cline), "gpt-5.1-codex" (codex), "gpt-5.4" (copilot-cli), "kimi-k2.6" (factory-droid), "gemini-2.5-pro" (gemini-cli), "grok-code-fast-1" (kilo-code), "gpt-5.1" (opencode), "qwen3-coder-plus" (qwen-code).
   */
  model_name?: string;
  /**
   * How an adapter agent reaches the containers. `mount` (default): its binary is mounted read-only into each run. `image`: an image is derived from each run image with the binary (and Codex's relay) copied in, tagged by a hash of (base image id, package, version, binary sha256), reused while unchanged; for engines that cannot mount host paths.
   */
  install?: 'mount' | 'image';
  command?: Argv;
  resume_command?: Argv1;
  /**
   * Names of host environment variables passed into the container; nothing else from the host is. An API key or OAuth token evalrig adds on the host side (the variable of agent.model.key_env, agent.model.token_env or judge.model.key_env, or any variable holding the same value on this host) is refused here: it would put the real key in the container.
   *
   * Items: A host environment variable name, e.g. ANTHROPIC_API_KEY.
   */
  env?: string[];
}
/**
 * What this variant places into the environment and how the agent runs under it.
 */
export interface Condition {
  /**
   * What differs under this condition.
   */
  description?: string;
  /**
   * Files or folders placed into the environment and forced into the baseline: { "<from, relative to the eval set folder and inside it: no absolute path, no .. out, no symbolic link out>": "<to, relative to the work tree>" }, e.g. { "skills/tdd": ".claude/skills/tdd" }.
   */
  stage?: {
    /**
     * Path relative to the work tree (no "..", not absolute).
     */
    [k: string]: string;
  };
  /**
   * Extra environment variables for the agent, literal values.
   */
  env?: {
    [k: string]: string;
  };
  /**
   * For a `claude-code` or `codex` agent: the model script the offline model stand-in plays for the runs of this condition, overriding the eval's and `agent.model`. A path relative to the eval set's folder and inside it.
   */
  model_script?: string;
  agent_args?: Argv2;
  agent?: Agent1;
}
/**
 * How the agent is run in the container. Placeholders in the arguments: {prompt}, {turn}, {phase}, {eval}, {condition}, {run}, {eval_set_dir}.
 */
export interface Agent1 {
  /**
   * `command` (default): `command` is run as given each turn (its program must exist in every image: checked before any run). `claude-code`: evalrig installs the npm package @anthropic-ai/claude-code at `version` on the host once, mounts its binary read-only, chooses the session id, resumes it on later turns and reads its stream (tokens, cost, tool calls). `codex`: the same with the npm package @openai/codex (its static binary, and a relay that carries its model calls to the run's gateway); Codex names its thread, later turns resume it. `gemini-cli` (@google/gemini-cli, the Gemini API), `qwen-code` (@qwen-code/qwen-code, Chat Completions): Node bundles, their package folder mounted with a Node 20 runtime evalrig installs the same way; `opencode` (opencode-ai, its native binary, Chat Completions); `copilot-cli` (@github/copilot, its native binary and the package cache unpacked from it once on the host, both mounted read-only; its own provider, Chat Completions); `factory-droid` (@factory/cli-linux-x64, its native binary, a custom model of its own speaking Chat Completions); `kilo-code` (@kilocode/cli, an OpenCode fork: its native binary, Chat Completions); `cline` (@cline/cli-linux-x64, its native binary played through its ACP mode by a driver of evalrig's, Chat Completions). For all of them, `command` and `resume_command` are not given.
   */
  type?:
    | 'command'
    | 'claude-code'
    | 'cline'
    | 'codex'
    | 'copilot-cli'
    | 'factory-droid'
    | 'gemini-cli'
    | 'kilo-code'
    | 'opencode'
    | 'qwen-code';
  /**
   * The exact package version of the agent (type `claude-code`, e.g. "2.1.332", or `codex`, e.g. "0.171.0"); recorded with the sha256 of its binary.
   */
  version?: string;
  /**
   * Where a `claude-code` or `codex` agent's model calls go (through the run's model gateway; the container never has the network). { "script": "<file in this folder>" }: the offline model stand-in plays that model script (see model-script.schema.json); an eval's or a condition's `model_script` overrides it. { "url": "https://api.anthropic.com", "key_env": "ANTHROPIC_API_KEY" } (Codex: { "url": "https://api.openai.com", "key_env": "OPENAI_API_KEY" }, or any OpenAI-compatible base URL such as "https://host/openai/v1"): the real API, the key read from that host variable by evalrig and added on the host side (it never enters the container). { "url": "https://api.anthropic.com", "token_env": "CLAUDE_CODE_OAUTH_TOKEN" } (claude-code only): a Claude subscription's OAuth token, read from that host variable and sent on the host side as Claude Code sends it (Authorization: Bearer and the OAuth beta).
   */
  model?:
    | {
        /**
         * Path of a model script, relative to this file's folder and inside it.
         */
        script: string;
      }
    | {
        /**
         * The API's base URL: an origin like https://api.anthropic.com, or an origin and a path (an OpenAI-compatible endpoint, e.g. https://host/openai/v1, as Codex's base_url or OPENAI_BASE_URL take it). The agent's API path is appended: only POST /v1/messages (Claude Code), POST /v1/responses (Codex), POST /v1/chat/completions (OpenCode, Qwen Code) or POST /v1beta/models/{model}:streamGenerateContent and :generateContent (Gemini CLI) is forwarded, and a base ending in that path's version (/v1) does not repeat it: https://host/openai/v1 receives /openai/v1/responses.
         */
        url: string;
        /**
         * The host environment variable holding the API key, e.g. ANTHROPIC_API_KEY.
         */
        key_env: string;
      }
    | {
        /**
         * The API's base URL: an origin like https://api.anthropic.com, or an origin and a path (an OpenAI-compatible endpoint, e.g. https://host/openai/v1, as Codex's base_url or OPENAI_BASE_URL take it). The agent's API path is appended: only POST /v1/messages (Claude Code), POST /v1/responses (Codex), POST /v1/chat/completions (OpenCode, Qwen Code) or POST /v1beta/models/{model}:streamGenerateContent and :generateContent (Gemini CLI) is forwarded, and a base ending in that path's version (/v1) does not repeat it: https://host/openai/v1 receives /openai/v1/responses.
         */
        url: string;
        /**
         * claude-code only: the host environment variable holding a Claude subscription's OAuth token, e.g. CLAUDE_CODE_OAUTH_TOKEN (what `claude setup-token` prints). The gateway sends it upstream as Claude Code does (Authorization: Bearer, and oauth-2025-04-20 added to anthropic-beta); the container holds only a placeholder key.
         */
        token_env: string;
      };
  /**
   * For a `cline`, `codex`, `copilot-cli`, `factory-droid`, `gemini-cli`, `kilo-code`, `opencode` or `qwen-code` agent: the model it asks for, and the price-table entry its tokens are priced with. Default "claude-sonnet-4-6" (cline), "gpt-5.1-codex" (codex), "gpt-5.4" (copilot-cli), "kimi-k2.6" (factory-droid), "gemini-2.5-pro" (gemini-cli), "grok-code-fast-1" (kilo-code), "gpt-5.1" (opencode), "qwen3-coder-plus" (qwen-code).
   */
  model_name?: string;
  /**
   * How an adapter agent reaches the containers. `mount` (default): its binary is mounted read-only into each run. `image`: an image is derived from each run image with the binary (and Codex's relay) copied in, tagged by a hash of (base image id, package, version, binary sha256), reused while unchanged; for engines that cannot mount host paths.
   */
  install?: 'mount' | 'image';
  command?: Argv;
  resume_command?: Argv1;
  /**
   * Names of host environment variables passed into the container; nothing else from the host is. An API key or OAuth token evalrig adds on the host side (the variable of agent.model.key_env, agent.model.token_env or judge.model.key_env, or any variable holding the same value on this host) is refused here: it would put the real key in the container.
   *
   * Items: A host environment variable name, e.g. ANTHROPIC_API_KEY.
   */
  env?: string[];
}
/**
 * The toolchain and dependencies every eval's container has, unless an eval names its own: a Dockerfile in this folder built over evalrig's base image (it receives `BASE_IMAGE`; begin it with `ARG BASE_IMAGE` and `FROM ${BASE_IMAGE}`), with evalrig's own layers added on top, and `setup` commands whose output (what the codebase's .gitignore ignores, e.g. node_modules/) every run of a commit starts with. Building and setting up may use the network; runs never do.
 */
export interface Environment {
  /**
   * Path of the Dockerfile, relative to the eval set's folder and inside it (no absolute path, no .. out, no symbolic link out). It is built over evalrig's base image, passed as the build argument BASE_IMAGE; the build may use the network. Its content hash (with its context's, the base's id and the build arguments) names the image: an unchanged one is never rebuilt.
   */
  dockerfile: string;
  /**
   * Folder sent to the builder (what COPY and ADD see), relative to the eval set's folder and inside it; it must hold the Dockerfile. Default: the Dockerfile's folder.
   */
  context?: string;
  /**
   * Shell commands (`sh -c`) run in order, once per codebase commit and image, in a preparation container that may use the network, in a checkout of the commit at the path the runs see, e.g. ["npm ci"]. What they leave that the codebase's .gitignore ignores (node_modules/, .venv/) is kept and copied into every run's work tree before the agent starts; it stays out of the baseline and of the diff. Nothing else they change is kept. Ignored for an eval with no codebase.
   *
   * @maxItems 100
   *
   * Items: A shell command, e.g. "npm ci" or "pip install -e .".
   */
  setup?: string[];
}
/**
 * Services every eval's runs need beside the agent (a database, a queue), unless an eval names its own: each run gets its own, started before its first turn and ready by then, on a private network of the run's (the agent reaches them by name and nothing else: not the host, not other runs, not the internet), removed with the run.
 */
export interface Services {
  [k: string]: Service;
}
/**
 * One service: its image (`dockerfile`, built over evalrig's base image like an environment, or `image`, a local image of the engine; nothing is pulled), how it is started and when it is ready.
 */
export interface Service {
  /**
   * Path of the service's Dockerfile, relative to the eval set's folder and inside it. Built over evalrig's base image (the build argument BASE_IMAGE), once per content: an unchanged one is never rebuilt. Give this or `image`.
   */
  dockerfile?: string;
  /**
   * Folder sent to the builder, relative to the eval set's folder and inside it; it must hold the Dockerfile. Default: the Dockerfile's folder.
   */
  context?: string;
  /**
   * An image already on the engine (e.g. "my-postgres:16"), run as it is; it is never pulled. Give this or `dockerfile`.
   */
  image?: string;
  /**
   * The service's main process (argv). Default: the image's own command.
   *
   * @minItems 1
   * @maxItems 100
   */
  command?: [string, ...string[]];
  /**
   * Environment variables of the service, literal values.
   */
  env?: {
    [k: string]: string;
  };
  /**
   * When the service is ready: `command`, a shell command (`sh -c`) in the service's container that exits 0 (e.g. "pg_isready -h 127.0.0.1 -q"), or `port`, a TCP port that accepts a connection from the agent's container by the service's name. The first turn waits for it; not ready within `timeout` seconds, the run fails in phase start.
   */
  ready: {
    command?: string;
    port?: number;
    /**
     * Seconds from the service's start. Default 60.
     */
    timeout?: number;
  };
  /**
   * Limits of the service's container. Default memory "512m", cpus 1, pids 256.
   */
  resources?: {
    /**
     * Memory of the service's container: a size such as "512m", or a number of bytes. Default "512m".
     */
    memory?: string | number;
    cpus?: number;
    pids?: number;
  };
  /**
   * Shell commands (`sh -c`) run once per image in a container of the service once it is ready (e.g. a schema load), in order, without network; what they leave is kept as a derived image every run starts from.
   *
   * @maxItems 100
   */
  setup?: string[];
}
/**
 * One task: a prompt, optional later turns, and what the environment starts from.
 */
export interface Eval {
  /**
   * Unique kebab-case id, used in folder names, e.g. "add-login-form".
   */
  id: string;
  /**
   * The first user message.
   */
  prompt: string;
  /**
   * For a `claude-code` or `codex` agent: the model script the offline model stand-in plays for this eval's runs, overriding `agent.model`. A path relative to the eval set's folder and inside it.
   */
  model_script?: string;
  /**
   * Plain sentences a good run meets (as skill-creator's evals.json), each graded passed or not, with evidence, by the eval set's `judge` after the run's last turn.
   *
   * @maxItems 100
   */
  expectations?: string[];
  /**
   * What a good outcome looks like, in words, for the people and graders reading the results.
   */
  expected_output?: string;
  /**
   * Files copied on top of the environment (an overlay), each at the same relative path in the work tree. Relative to `files_root`.
   */
  files?: string[];
  /**
   * Folder `files` are relative to, itself relative to the eval set folder and inside it (no absolute path, no .. out, no symbolic link out). Default: the eval set folder.
   */
  files_root?: string;
  codebase?: CodebaseSource1;
  environment?: Environment1;
  services?: Services1;
  /**
   * Runs of this eval under each condition. Default: the top-level `runs`.
   */
  runs?: number;
  /**
   * Phase of the first turn. Default "planning".
   */
  phase?: string;
  /**
   * User messages after the first turn, in order. A plain string keeps the previous turn's phase.
   */
  turns?: Turn[];
  /**
   * A prepared state the run starts from.
   */
  start?: {
    /**
     * Branch created at the baseline, checked out and pushed before the first turn.
     */
    branch?: string;
    /**
     * Pull requests that already exist when the run starts.
     */
    pull_requests?: PullRequest[];
  };
  /**
   * Seconds this eval's run may take. Default: the top-level `timeout`.
   */
  timeout?: number;
  /**
   * Seconds one turn of this eval may take. Default: the top-level `turn_timeout`.
   */
  turn_timeout?: number;
  /**
   * A known-good answer as a patch in the eval set's folder (a mined task's tasks/<id>/reference.patch): host-side, never staged. Each run's diff is measured against its size (diff_vs_reference: the run's changed lines over the reference's), and the judge is shown it as the reference answer ("as the reference does" in an expectation).
   */
  reference?: string;
  /**
   * Files or folders the host copies into the work tree after the agent's last turn and before the checks, replacing whatever the agent left at those paths (recorded in run.json): { "<from, in the eval set's folder>": "<to, relative to the work tree>" }, e.g. a mined task's tests { "tasks/abc1234/tests/test": "test" }. The agent never sees them: they are not staged, not in the baseline, and not in the folder a command agent is given; the run's diff is the agent's own, measured before they land.
   */
  check_files?: {
    /**
     * Path relative to the work tree (no "..", not absolute).
     */
    [k: string]: string;
  };
  checks?: Checks1;
  message_checks?: MessageChecks1;
}
/**
 * This eval's environment image and setup, replacing the top-level `environment` whole.
 */
export interface Environment1 {
  /**
   * Path of the Dockerfile, relative to the eval set's folder and inside it (no absolute path, no .. out, no symbolic link out). It is built over evalrig's base image, passed as the build argument BASE_IMAGE; the build may use the network. Its content hash (with its context's, the base's id and the build arguments) names the image: an unchanged one is never rebuilt.
   */
  dockerfile: string;
  /**
   * Folder sent to the builder (what COPY and ADD see), relative to the eval set's folder and inside it; it must hold the Dockerfile. Default: the Dockerfile's folder.
   */
  context?: string;
  /**
   * Shell commands (`sh -c`) run in order, once per codebase commit and image, in a preparation container that may use the network, in a checkout of the commit at the path the runs see, e.g. ["npm ci"]. What they leave that the codebase's .gitignore ignores (node_modules/, .venv/) is kept and copied into every run's work tree before the agent starts; it stays out of the baseline and of the diff. Nothing else they change is kept. Ignored for an eval with no codebase.
   *
   * @maxItems 100
   *
   * Items: A shell command, e.g. "npm ci" or "pip install -e .".
   */
  setup?: string[];
}
/**
 * This eval's services, replacing the top-level `services` whole ({} for none).
 */
export interface Services1 {
  [k: string]: Service;
}
/**
 * A pull request seeded into the gh stand-in's state before the run; no call is recorded for it.
 */
export interface PullRequest {
  /**
   * The pull request's title.
   */
  title: string;
  /**
   * Its description. Default empty.
   */
  body?: string;
  /**
   * Default: the start branch.
   */
  head?: string;
  /**
   * Default: the codebase's branch.
   */
  base?: string;
  /**
   * Whether it is a draft. Default true.
   */
  draft?: boolean;
  /**
   * Default OPEN.
   */
  state?: 'OPEN' | 'CLOSED' | 'MERGED';
}
