/** What a campaign is asked to do (CampaignOptions) and what it answers (CampaignResult). */
import type { PhaseTiming } from '../artifacts/index.js';
import type { UpstreamLimits } from '../gateway/index.js';
import type { GradeSummary } from '../judge/index.js';
import type { FailureClass } from '../measure/index.js';
import type {
  DockerClient,
  EngineChoice,
  EngineWatchOptions,
  SandboxProvider,
} from '../sandbox/index.js';

export interface CampaignOptions {
  /** Path of evals.json. */
  readonly evalSetFile: string;
  /** Campaign folder (created when missing; resumed when it holds one). */
  readonly outDir: string;
  readonly jobs?: number;
  readonly runs?: number;
  readonly only?: readonly string[];
  readonly conditions?: readonly string[];
  readonly stopAtHandOver?: boolean;
  /** Play conditions whose staged paths their agent does not load (refused otherwise). */
  readonly allowUnloaded?: boolean;
  /** Seconds per run, overriding the eval set. */
  readonly timeoutS?: number;
  readonly keepWorkspaces?: boolean;
  /**
   * Runs prepared ahead of the ones playing (environment and container
   * ready). Default: `jobs`. 0 prepares each run only when it starts.
   */
  readonly prepareAhead?: number;
  /** Base image of the test image (default: EVALRIG_BASE_IMAGE, else evalrig's default). */
  readonly baseImage?: string;
  readonly cacheDir?: string;
  readonly client?: DockerClient;
  /**
   * Where the runs' sandboxes start, given the campaign's own client (its
   * health, creation gate and session labels). Default: that engine with its
   * folders mounted (LocalDockerProvider).
   */
  readonly sandboxes?: (client: DockerClient) => SandboxProvider;
  /**
   * Engines to spread the runs over (`--engine`, repeated), `jobs` on each.
   * The first is where images are built (the campaign's client); the others
   * get them shipped. Unset: the one engine of `client` (DOCKER_HOST).
   */
  readonly engines?: readonly EngineChoice[];
  /** A Kubernetes engine's registry (`host:port`): images built here are pushed there. */
  readonly imageRegistry?: string;
  /**
   * This orchestrator's scratch folder (runtime's useScratchFolder): its
   * reaper removes it when the orchestrator dies, and stale ones of dead
   * orchestrators beside it are swept at start.
   */
  readonly scratch?: string;
  /** How the engine is watched for a freeze mid-campaign (tests shorten it). */
  readonly engineWatch?: EngineWatchOptions;
  /** Where warnings and progress go (default stderr). */
  readonly log?: NodeJS.WriteStream;
  /** The campaign's budget in USD (`--max-cost`), overriding the eval set's `max_cost_usd`. */
  readonly maxCostUsd?: number;
  /** Each upstream's limits (`--max-in-flight`, `--rpm`, `--tpm`), over the eval set's. */
  readonly rateLimits?: UpstreamLimits;
  /**
   * Earlier campaign folders (`--reuse`, in order): a finished run there whose every input is
   * this run's (its fingerprint) is copied instead of played; the first folder wins.
   */
  readonly reuse?: readonly string[];
  /**
   * Play in rounds (one run per (eval, condition) each) until the sequential test of the primary
   * measure decides (`--until-decided`); `runs` is then the maximum (`--max-runs`).
   */
  readonly untilDecided?: boolean;
}

export interface CampaignResult {
  readonly campaign: string;
  readonly outDir: string;
  readonly planned: number;
  readonly skipped: number;
  /** Runs copied from the `--reuse` folders (their fingerprint unchanged). */
  readonly reused: number;
  readonly played: number;
  readonly failed: number;
  /**
   * The failed runs of this command by who had control: only the harness's are replayed by
   * the same command; the others count against their condition.
   */
  readonly failedBy?: Readonly<Record<FailureClass, number>>;
  /** Runs the harness failed once and the command played once more (after the others). */
  readonly retried?: number;
  readonly timedOut: number;
  /** Runs that reached one of their limits (`limits`), played now. */
  readonly limitReached: number;
  /** Runs the campaign's budget cut (replayed by a resume with a larger budget). */
  readonly budgetCut: number;
  /** What this command's calls cost, at list prices (USD), and the budget. */
  readonly spentUsd: number;
  /** What earlier commands in the folder spent (USD, list prices): the budget counts it too. */
  readonly spentBeforeUsd: number;
  readonly maxCostUsd?: number;
  /** True when the budget had nothing left on start: nothing was played. */
  readonly nothingLeft?: boolean;
  /** True when a signal cut the campaign short. */
  readonly interrupted: boolean;
  /** What the judge did, when the eval set has one and expectations to grade. */
  readonly grading?: GradeSummary;
  /** What the sequential test decided (`--until-decided`) and the planned runs it kept from playing. */
  readonly sequential?: {
    readonly decision: string;
    readonly text: string;
    readonly notPlayed: number;
  };
  /** The campaign's phases and how long each took, in order (each run's are in its run.json). */
  readonly phases?: readonly PhaseTiming[];
}
