/**
 * `tasks from-history --from <evals.json>`: an eval set's first eval gives the mining its
 * codebase, environment and setup, and the set's agent becomes the mined set's. A flag given
 * on the command line wins over what the set says for its own field.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { loadEvalSet } from '../../config/index.js';
import { InputError } from '../../errors/index.js';
import type { CodebaseSource } from '../../source/index.js';
import type { MineOptions } from '../../mine/index.js';

export interface FromFlags {
  environment?: string;
  setup?: string[];
  from?: string;
  /** Listing candidates needs no environment. */
  dryRun?: boolean;
}

/** What an eval set gives a mining; each part absent when the set has none of it. */
export interface FromSet {
  /** The codebase, and the folder a path in it is relative to. */
  readonly codebase?: { readonly source: CodebaseSource; readonly baseDir: string };
  readonly environment: Pick<MineOptions, 'environmentDir' | 'dockerfile' | 'setup'>;
  /** The set's agent, matrix and conditions as JSON, its host paths relative to `setDir`. */
  readonly agent?: Record<string, unknown>;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null;

/** A host path of the `--from` set, as the mined set's folder reaches it. */
type Rebase = (p: string) => string;

function scriptAbsolute(agent: unknown, dir: Rebase): unknown {
  if (!isObject(agent) || !isObject(agent.model) || typeof agent.model.script !== 'string')
    return agent;
  return { ...agent, model: { ...agent.model, script: dir(agent.model.script) } };
}

function conditionsAbsolute(conditions: Json, dir: Rebase): Json {
  return Object.fromEntries(
    Object.entries(conditions).map(([name, raw]) => {
      const c = raw as Json;
      return [
        name,
        {
          ...c,
          ...(isObject(c.stage)
            ? {
                stage: Object.fromEntries(
                  Object.entries(c.stage).map(([from, to]) => [dir(from), to]),
                ),
              }
            : {}),
          ...(typeof c.model_script === 'string' ? { model_script: dir(c.model_script) } : {}),
          ...(c.agent === undefined ? {} : { agent: scriptAbsolute(c.agent, dir) }),
        },
      ];
    }),
  );
}

/** The set's agent (or matrix), conditions and baseline, as its JSON writes them. */
function agentOf(doc: Json, dir: Rebase): Json | undefined {
  if (doc.agent === undefined && doc.agents === undefined) return undefined;
  return {
    ...(doc.agent === undefined ? {} : { agent: scriptAbsolute(doc.agent, dir) }),
    ...(Array.isArray(doc.agents) ? { agents: doc.agents.map((a) => scriptAbsolute(a, dir)) } : {}),
    ...(isObject(doc.conditions) ? { conditions: conditionsAbsolute(doc.conditions, dir) } : {}),
    ...(typeof doc.baseline_condition === 'string'
      ? { baseline_condition: doc.baseline_condition }
      : {}),
  };
}

/**
 * Reads `--from` (checked as any eval set: a missing or invalid file is refused naming it and
 * the JSON pointer of each problem) and takes what the flags leave to it. `setDir` is the
 * mined set's folder: the agent's host paths (model scripts, staged files) are written from it.
 */
export async function fromSetOf(flags: FromFlags, setDir: string): Promise<FromSet> {
  const own = {
    ...(flags.environment ? { environmentDir: path.resolve(flags.environment) } : {}),
    ...(flags.setup ? { setup: flags.setup } : {}),
  };
  if (!flags.from) return { environment: own };
  const set = await loadEvalSet(flags.from);
  const first = set.evals[0];
  if (!first) throw new InputError(`--from ${flags.from}: /evals: it has no eval to take from`);
  const env = first.environment;
  if (!env && !flags.environment && !flags.dryRun)
    throw new InputError(
      `--from ${flags.from}: /evals/0/environment: its first eval names no environment to take (give --environment)`,
    );
  const environment =
    flags.environment || !env
      ? own
      : {
          environmentDir: env.context,
          dockerfile: path.relative(env.context, env.dockerfile),
          ...(flags.setup ? { setup: flags.setup } : env.setup.length ? { setup: env.setup } : {}),
        };
  // The set was just checked: its JSON is read again only for the agent as written.
  const doc = JSON.parse(await readFile(set.file, 'utf8')) as Json;
  const agent = agentOf(doc, (p) => path.relative(setDir, path.resolve(set.dir, p)) || '.');
  return {
    ...(first.codebase
      ? { codebase: { source: first.codebase.source, baseDir: first.codebase.baseDir } }
      : {}),
    environment,
    ...(agent ? { agent } : {}),
  };
}
