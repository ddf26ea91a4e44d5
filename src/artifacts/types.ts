/**
 * The artifacts a campaign writes, as TypeScript types. Each has a JSON Schema in
 * ./schemas/<kind>.schema.json, the one declaration of its shape: the types are generated
 * from it (./schemas/<kind>.ts, by scripts/generate-types.mjs) and named here after the
 * domain's words, readonly all the way down. Every artifact is validated against its schema
 * before it is written (see writeArtifact). Field names are snake_case: they are a file format.
 */
import type { GhCall as StandInCall } from '../../stand-in/gh/schemas/call.js';
import type { PullRequest as StandInPullRequest } from '../../stand-in/gh/schemas/state.js';
import type { DeepReadonly } from './readonly.js';
import type * as Comparison from './schemas/comparison.js';
import type * as Conditions from './schemas/conditions.js';
import type * as Grading from './schemas/grading.js';
import type * as Sequential from './schemas/sequential.js';
import type * as Run from './schemas/run.js';
import type * as Stop from './schemas/stop.js';

export type { DeepReadonly } from './readonly.js';

/** Where a run's codebase came from: the resolved commit, never only the declared ref. */
export type CodebaseProvenance = DeepReadonly<Run.Codebase>;

/**
 * One line of the gh stand-in's calls.jsonl (see stand-in/gh/README.md). One declaration for
 * both sides: generated from the stand-in's call schema, which the host's recorder checks.
 */
export type GhCall = DeepReadonly<StandInCall>;

/** A pull request as the stand-in's state.json holds it (generated from its state schema). */
export type GhPullRequest = DeepReadonly<StandInPullRequest>;

/** The pull request of the branch at a stop. */
export type PullAtStop = DeepReadonly<Stop.Pull>;

/** A probe's output at a stop. */
export type ProbeOutput = DeepReadonly<Stop.Probe>;

/** Diff counters against refs/evalrig/baseline. */
export type DiffCounters = DeepReadonly<Run.Diff>;

/** The agent an adapter installed: recorded in conditions.json and run.json. */
export type AgentIdentity = DeepReadonly<Conditions.Agent>;

/** An image derived from a run image with the agent built in. */
export type AgentImageRecord = NonNullable<AgentIdentity['images']>[number];

/** The exact Node evalrig installs for Node-bundled agents: its npm package and binary's sha256. */
export type AgentRuntimeIdentity = NonNullable<AgentIdentity['runtime']>;

export type AgentTokens = DeepReadonly<Stop.AgentTokens>;

/** What an adapter agent's transcript of one turn says (untrusted output, parsed). */
export type TurnAgentRecord = NonNullable<StopRecord['agent']>;

/** run.json's agent: who played, and the sums of its turns. */
export type RunAgentRecord = NonNullable<RunRecord['agent']>;

/**
 * What the collector reads at the end of a turn: stops/stop-NN.json. Its calls are the
 * stand-in's call lines (the stop schema accepts the looser lines of older versions).
 */
export type StopRecord = DeepReadonly<Omit<Stop.StopRecord, 'calls'>> & {
  /** Calls to gh made since the previous stop. */
  readonly calls: readonly GhCall[];
};

export type CheckResult = DeepReadonly<Run.Check>;

/** One message check over a run's final messages. */
export type MessageCheckResult = NonNullable<RunRecord['message_checks']>[number];

/** Per-run measures. null: nothing to look at (never a stand-in for false). */
export type RunMeasures = DeepReadonly<Run.Measures>;

/**
 * completed and timed_out are outcomes of the agent; broken too (it left its
 * environment in a state that cannot be read: counted, not redone). A failed
 * run's `failure` says who had control: only the harness's is redone on resume.
 */
export type RunStatus = Run.RunRecord['status'];

/**
 * A limit a run reached: its own (`limits` in the eval set), or the campaign's budget
 * (`campaign_cost`: the run was cut, not finished; a resume with a larger budget replays it).
 */
export type RunLimitName = NonNullable<Run.RunRecord['limit']>;

/**
 * The treatment check of a run: each instruction its condition staged (a skill, a CLAUDE.md or
 * AGENTS.md), and whether the model gateway saw a request carry it to the model.
 */
export type RunTreatment = NonNullable<RunRecord['treatment']>;

/** runs/<eval>/<condition>/run-NN/run.json */
export type RunRecord = DeepReadonly<Run.RunRecord>;

/**
 * One phase of a run and how long it took: prepare and start (often ahead of
 * the run's own start, while another run plays), turn N, collect (a turn's
 * stop), checks, record.
 */
export type PhaseTiming = NonNullable<RunRecord['phases']>[number];

/** A service of a run: its image, how long it took to be ready, and how it died if it did. */
export type RunServiceRecord = NonNullable<RunRecord['services']>[number];

/** A Docker engine runs ran on: the address as given, and who answered there. */
export type EngineRecord = DeepReadonly<Run.Engine>;

/** The environment image a run's image is built over, and its setup commands. */
export type EnvironmentProvenance = DeepReadonly<Run.Environment>;

/** The image a run's container started from; over an environment image when the eval names one. */
export type ImageRecord = DeepReadonly<Run.Image>;

/** The campaign's image, and the images of the evals that name an environment. */
export type CampaignImageRecord = DeepReadonly<Conditions.Image>;

/** <out>/conditions.json: what each condition is, and the campaign's inputs. */
export type ConditionsFile = DeepReadonly<Conditions.ConditionsFile>;

/** Who judged: the model its requests named, and where it answered from. */
export type JudgeIdentity = DeepReadonly<Grading.Judge>;

/** A versioned rubric prompt and the sha256 of its text. */
export type RubricRecord = DeepReadonly<Grading.Rubric>;

/** One judge call as the host's model gateway logged it. */
export type JudgeCallRecord = DeepReadonly<Grading.Call>;

/** One expectation as the judge graded it; passed and evidence null on a grading error. */
export type GradedExpectation = GradingFile['expectations'][number];

/** runs/<eval>/<condition>/run-NN/grading.json */
export type GradingFile = DeepReadonly<Grading.GradingFile>;

/** sequential.json: the design and the looks of a campaign played with --until-decided. */
export type SequentialFile = DeepReadonly<Sequential.SequentialFile>;

/** One look of sequential.json. */
export type SequentialLook = SequentialFile['looks'][number];

/** comparisons/<a>.vs.<b>/<eval>/run-NN/comparison.json: two conditions' runs judged blind. */
export type ComparisonFile = DeepReadonly<Comparison.ComparisonFile>;
