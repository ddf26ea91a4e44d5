import type { DeepReadonly } from '../artifacts/index.js';
import type * as Generated from './trajectory.js';

/**
 * A run's trajectory: what the agent did, step by step, as the host recorded it. Its one
 * declaration is ./trajectory.schema.json (`evalrig/trajectory@1`); the types are generated
 * from it (./trajectory.ts, by scripts/generate-types.mjs). Every string in a step is the
 * agent's or the model's (untrusted): a page shows it as text, never as markup. Long texts are
 * cut at {@link TEXT_CAP} characters with a mark saying how much was left out.
 */
export type Trajectory = DeepReadonly<Generated.Trajectory>;

/** One step: a message, a model call, a tool call, a gh call, output, or a stop. */
export type Step = Trajectory['steps'][number];

/** Token counts of one model call (null: not reported). */
export type StepTokens = DeepReadonly<Generated.Tokens>;

/** What was said to the model that it had not seen: a prompt, a message, a system text. */
export type MessageStep = Extract<Step, { readonly kind: 'message' }>;

/** One model call: its answer's text and the tools it called. */
export type ModelStep = Extract<Step, { readonly kind: 'model' }>;

/** One tool call: its input, and its output as the agent sent it back to the model. */
export type ToolStep = Extract<Step, { readonly kind: 'tool' }>;

/** One call to gh, from the host's gh record. */
export type GhStep = Extract<Step, { readonly kind: 'gh' }>;

/** What a command agent printed in a turn, or an adapter's own stream where no record was kept. */
export type OutputStep = Extract<Step, { readonly kind: 'output' }>;

/** The end of a turn: what the host measured at that stop. */
export type StopStep = Extract<Step, { readonly kind: 'stop' }>;

export const TRAJECTORY_SCHEMA = 'evalrig/trajectory@1';
/** Each text of a step is kept to this many characters. */
export const TEXT_CAP = 64 * 1024;
/** A stop's patch is kept to this many characters. */
export const PATCH_CAP = 256 * 1024;
/** Steps kept per trajectory. */
export const MAX_STEPS = 20_000;
