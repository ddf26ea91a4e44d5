/**
 * The eval set as the user writes it in evals.json, once it has passed
 * evals.schema.json: optional fields still absent, paths as written. Only the
 * loader sees this form; everyone else gets the normalized EvalSet.
 *
 * The schema is the one declaration: these types are generated from it
 * (./evals.ts, by scripts/generate-types.mjs) and only named here.
 */
import type * as Evals from './evals.js';

export type RawEvalSet = Evals.RawEvalSet;
export type RawEval = Evals.Eval;
export type RawCondition = Evals.Condition;
/** An agent as written: the set's `agent`, or a condition's own. */
export type RawAgent = Evals.Agent;
export type RawTurn = Evals.Turn;
export type RawPullRequest = Evals.PullRequest;
export type RawEnvironment = Evals.Environment;
export type RawService = Evals.Service;
export type RawCheck = Evals.Checks[number];
export type RawJudge = NonNullable<RawEvalSet['judge']>;
