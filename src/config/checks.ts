/**
 * What the schema cannot say: unique ids, references between fields, paths
 * that must exist inside the eval set's folder (resolved for real, see
 * host-paths.ts) or stay inside the work tree, git branch names.
 * Written against the raw document (it runs even when the schema found
 * problems, so that every problem is listed at once), so it checks types
 * before it trusts them.
 */
import path from 'node:path';
import { quotedKinds } from './agent-kinds.js';
import { isAdapterKind } from './agent-type.js';
import { closest } from './spelling.js';
import { checkHostPath, evalSetFolder, type EvalSetFolder } from './host-paths.js';
import { MAX_MEMORY_BYTES, MIN_MEMORY_BYTES, parseMemory } from './memory.js';
import { whyEscapesWorkTree } from './paths.js';
import { pointer, quote, type Problem } from './problems.js';
import { whyNotBranchName } from './refname.js';
import { keyProblems } from './keys.js';
import { matrixProblems } from './matrix-checks.js';
import { messageCheckProblems } from './message-checks.js';
import { stepCheckProblems } from './step-checks.js';
import { loadModelScript, ModelScriptError } from '../model-stand-in/script.js';

/** A quota smaller than this holds no real checkout. */
const MIN_DISK_BYTES = 16 * 1024 * 1024;

/** The bounds of a size written as text ("512m"), which the schema's pattern cannot check. */
function sizeProblems(
  resources: Record<string, unknown>,
  key: 'memory' | 'disk',
  min: number,
  minText: string,
  pointer = `/resources/${key}`,
): Problem[] {
  const text = resources[key];
  if (typeof text !== 'string' || !/^[0-9]+[kmg]$/i.test(text)) return [];
  const bytes = parseMemory(text);
  if (bytes < min) return [{ pointer, message: `must be at least ${minText}, got ${quote(text)}` }];
  if (!(bytes <= MAX_MEMORY_BYTES)) {
    const message = `must be at most ${MAX_MEMORY_BYTES} bytes (8 PiB), got ${quote(text)}`;
    return [{ pointer, message }];
  }
  return [];
}

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const entries = (v: unknown): [string, unknown][] => (isObject(v) ? Object.entries(v) : []);

/**
 * The model scripts of a claude-code agent: each inside the eval set's folder and a valid
 * script (read and checked now, so that no campaign starts to fail at its first run), and a
 * source for every run: `agent.model`, else each eval's (or every condition's) `model_script`.
 */
function modelChecks(folder: EvalSetFolder, doc: Json): Promise<Problem | undefined>[] {
  const agent = isObject(doc.agent) ? doc.agent : {};
  const scripts: [string, unknown][] = [];
  if (isObject(agent.model))
    scripts.push([pointer('agent', 'model', 'script'), agent.model.script]);
  list(doc.agents).forEach((a, i) => {
    if (isObject(a) && isObject(a.model))
      scripts.push([pointer('agents', i, 'model', 'script'), a.model.script]);
  });
  for (const [name, c] of entries(doc.conditions)) {
    if (!isObject(c)) continue;
    scripts.push([pointer('conditions', name, 'model_script'), c.model_script]);
    if (isObject(c.agent) && isObject(c.agent.model)) {
      scripts.push([pointer('conditions', name, 'agent', 'model', 'script'), c.agent.model.script]);
    }
  }
  list(doc.evals).forEach((e, i) => {
    if (isObject(e)) scripts.push([pointer('evals', i, 'model_script'), e.model_script]);
  });
  const pending = scripts
    .filter((s): s is [string, string] => typeof s[1] === 'string' && s[1] !== '')
    .map(async ([at, written]) => {
      const where = await checkHostPath(folder, at, written, { kind: 'file' });
      if (where) return where;
      try {
        await loadModelScript(path.resolve(folder.dir, written));
        return undefined;
      } catch (error) {
        if (!(error instanceof ModelScriptError)) throw error;
        return { pointer: at, message: error.message };
      }
    });
  pending.push(...missingModels(doc).map((p) => Promise.resolve(p)));
  return pending;
}

/**
 * Each eval an adapter agent plays without a model: for every condition, its `model_script`,
 * else the eval's, else its agent's (its own or the set's) `model` must say where calls go.
 */
function missingModels(doc: Json): Problem[] {
  if (!('conditions' in doc) && misspelt(doc, 'conditions')) return [];
  // In a matrix, each of its agents stands at the top in turn.
  const matrix = list(doc.agents).filter(isObject);
  const tops: Json[] = matrix.length > 0 ? matrix : [isObject(doc.agent) ? doc.agent : {}];
  return tops.flatMap((top) => missingModelsUnder(doc, top));
}

function missingModelsUnder(doc: Json, top: Json): Problem[] {
  const named = entries(doc.conditions).filter((e): e is [string, Json] => isObject(e[1]));
  const conditions: Json[] = named.length > 0 ? named.map(([, c]) => c) : [{}];
  const problems: Problem[] = [];
  list(doc.evals).forEach((e, i) => {
    if (!isObject(e) || typeof e.model_script === 'string') return;
    const lacking = conditions.find((c) => {
      const agent = isObject(c.agent) ? c.agent : top;
      // A misspelt type is said once, at the type (agent-type.ts), not here again.
      const adapter = isAdapterKind(agent.type);
      return adapter && typeof c.model_script !== 'string' && !isObject(agent.model);
    });
    if (!lacking) return;
    const type = String((isObject(lacking.agent) ? lacking.agent : top).type);
    problems.push({
      pointer: pointer('evals', i),
      message: `a "${type}" agent needs a model for this eval: give agent.model ({ "script" } or { "url", "key_env" }), or a "model_script" here or in every condition`,
    });
  });
  return problems;
}

/**
 * A condition's own agent (a cross-agent campaign): an adapter agent, beside an adapter agent
 * at the top (a command agent's turns are played another way), its keys kept out of the
 * container as the set's are.
 */
function conditionAgentProblems(doc: Json, env: NodeJS.ProcessEnv): Problem[] {
  const problems: Problem[] = [];
  const top = isObject(doc.agent) ? doc.agent : {};
  const topIsCommand = top.type === undefined || top.type === 'command';
  for (const [name, c] of entries(doc.conditions)) {
    if (!isObject(c) || !isObject(c.agent)) continue;
    const at = pointer('conditions', name, 'agent');
    if (c.agent.type === undefined || c.agent.type === 'command') {
      problems.push({
        pointer: `${at}/type`,
        message: `a condition's own agent must be an adapter agent (${quotedKinds()}), got ${quote(c.agent.type ?? 'command')}`,
      });
    } else if (topIsCommand) {
      problems.push({
        pointer: at,
        message: `a condition's own agent needs an adapter agent at the top too (/agent/type is ${quote(top.type ?? 'command')}): conditions' agents are all adapters or none`,
      });
    }
    const own = keyProblems({ agent: c.agent, judge: doc.judge }, env);
    for (const p of own) {
      if (p.pointer.startsWith('/agent/'))
        problems.push({ ...p, pointer: at + p.pointer.slice(6) });
    }
  }
  return problems;
}

/** The judge's model name (required with a real API) and the conditions it compares. */
function judgeProblems(judge: Json, conditionNames: readonly string[] | null): Problem[] {
  const problems: Problem[] = [];
  if (isObject(judge.model) && typeof judge.model.url === 'string' && !('model_name' in judge)) {
    problems.push({
      pointer: '/judge',
      message:
        'a judge with a "url" needs "model_name" (the model its requests name, e.g. the one your API serves)',
    });
  }
  if (conditionNames === null) return problems;
  const known = conditionNames.length > 0 ? conditionNames : ['default'];
  list(judge.compare).forEach((name, i) => {
    if (typeof name === 'string' && name !== '' && !known.includes(name)) {
      problems.push({
        pointer: pointer('judge', 'compare', i),
        message: `no condition named ${quote(name)} (conditions: ${known.join(', ')})`,
      });
    }
  });
  return problems;
}

/** The judge's model script: inside the eval set's folder and a valid script. */
async function judgeScriptCheck(folder: EvalSetFolder, judge: Json): Promise<Problem | undefined> {
  const model = judge.model;
  if (!isObject(model) || typeof model.script !== 'string' || model.script === '') return undefined;
  const at = pointer('judge', 'model', 'script');
  const where = await checkHostPath(folder, at, model.script, { kind: 'file' });
  if (where) return where;
  try {
    await loadModelScript(path.resolve(folder.dir, model.script));
    return undefined;
  } catch (error) {
    if (!(error instanceof ModelScriptError)) throw error;
    return { pointer: at, message: error.message };
  }
}

/**
 * The semantic problems of an eval set whose folder is `dir`, on a host whose variables are
 * `env` (an API key evalrig adds on the host side must not be passed into the container).
 */
export async function semanticProblems(
  doc: unknown,
  dir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Problem[]> {
  if (!isObject(doc)) return [];
  const found: Findings = { problems: [], pending: [] };
  const { problems, pending } = found;
  const folder = await evalSetFolder(dir);

  // Ids name folders: two evals with one id would write into each other's runs.
  problems.push(...duplicates(list(doc.evals), 'id', (i) => pointer('evals', i, 'id'), 'id'));
  problems.push(
    ...duplicates(list(doc.checks), 'name', (i) => pointer('checks', i, 'name'), 'check'),
  );

  const conditionNames = entries(doc.conditions).map(([name]) => name);
  // A misspelt `conditions` (an unknown field, said by the schema) declares conditions that
  // are not read: what names one is not checked against a `default` nobody wrote.
  const conditionsKnown = 'conditions' in doc || !misspelt(doc, 'conditions');
  if (conditionsKnown) problems.push(...baselineProblems(doc, conditionNames));
  conditionStageChecks(folder, doc, found);

  pending.push(...modelChecks(folder, doc));
  problems.push(...keyProblems(doc, env));
  problems.push(...conditionAgentProblems(doc, env));
  problems.push(...matrixProblems(doc, env));
  problems.push(...messageCheckProblems(doc));
  problems.push(...stepCheckProblems(doc));
  if (isObject(doc.judge)) {
    problems.push(...judgeProblems(doc.judge, conditionsKnown ? conditionNames : null));
    pending.push(judgeScriptCheck(folder, doc.judge));
  }

  if (isObject(doc.resources)) {
    problems.push(
      ...sizeProblems(doc.resources, 'memory', MIN_MEMORY_BYTES, "6m (Docker's smallest limit)"),
      ...sizeProblems(doc.resources, 'disk', MIN_DISK_BYTES, '16m'),
    );
  }

  if (isObject(doc.environment)) {
    pending.push(...environmentChecks(folder, doc.environment, ['environment']));
  }
  servicesChecks(folder, doc.services, [], found);

  list(doc.evals).forEach((evalItem, i) => {
    if (isObject(evalItem)) evalChecks(folder, dir, evalItem, i, found);
  });

  const resolved = await Promise.all(pending);
  return [...problems, ...resolved.filter((p): p is Problem => p !== undefined)];
}

/**
 * What the checks found so far: problems known at once, and checks of the host's
 * files still under way. Kept in the order they were found, so the list reads in
 * the document's order.
 */
interface Findings {
  readonly problems: Problem[];
  readonly pending: Promise<Problem | undefined>[];
}

/** Whether a top-level field of `doc` is a misspelling of `field` (which it lacks). */
function misspelt(doc: Json, field: string): boolean {
  return Object.keys(doc).some((key) => key !== field && closest(key, [field]) === field);
}

/** `baseline_condition` names a condition (or `default`, when none is declared). */
function baselineProblems(doc: Json, conditionNames: readonly string[]): Problem[] {
  if (typeof doc.baseline_condition !== 'string') return [];
  const known = conditionNames.length > 0 ? conditionNames : ['default'];
  if (known.includes(doc.baseline_condition)) return [];
  return [
    {
      pointer: '/baseline_condition',
      message: `no condition named ${quote(doc.baseline_condition)} (conditions: ${known.join(', ')})`,
    },
  ];
}

/** Each condition's staged files: the source inside the eval set's folder, the target inside the work tree. */
function conditionStageChecks(folder: EvalSetFolder, doc: Json, found: Findings): void {
  for (const [name, condition] of entries(doc.conditions)) {
    for (const [from, to] of entries(isObject(condition) ? condition.stage : undefined)) {
      const at = pointer('conditions', name, 'stage', from);
      if (typeof to === 'string') {
        const why = whyEscapesWorkTree(to);
        if (why) found.problems.push({ pointer: at, message: `target ${why}` });
      }
      found.pending.push(checkHostPath(folder, at, from, { kind: 'any', prefix: 'source ' }));
    }
  }
}

/** The services beside the runs (`at` is where the `services` object sits). */
function servicesChecks(
  folder: EvalSetFolder,
  services: unknown,
  at: (string | number)[],
  found: Findings,
): void {
  for (const [name, service] of entries(services)) {
    if (!isObject(service)) continue;
    found.problems.push(...serviceProblems(service, [...at, 'services', name]));
    found.pending.push(...environmentChecks(folder, service, [...at, 'services', name]));
  }
}

/** One eval's environment, services, check names, files and start branches. */
function evalChecks(
  folder: EvalSetFolder,
  dir: string,
  evalItem: Json,
  i: number,
  found: Findings,
): void {
  if (isObject(evalItem.environment)) {
    found.pending.push(
      ...environmentChecks(folder, evalItem.environment, ['evals', i, 'environment']),
    );
  }
  servicesChecks(folder, evalItem.services, ['evals', i], found);
  if (typeof evalItem.reference === 'string')
    found.pending.push(
      checkHostPath(folder, pointer('evals', i, 'reference'), evalItem.reference, {
        kind: 'file',
      }),
    );
  for (const [from, to] of entries(evalItem.check_files)) {
    const at = pointer('evals', i, 'check_files', from);
    if (typeof to === 'string') {
      const why = whyEscapesWorkTree(to);
      if (why) found.problems.push({ pointer: at, message: `target ${why}` });
    }
    found.pending.push(checkHostPath(folder, at, from, { kind: 'any', prefix: 'source ' }));
  }
  found.problems.push(
    ...duplicates(
      list(evalItem.checks),
      'name',
      (j) => pointer('evals', i, 'checks', j, 'name'),
      'check',
    ),
  );
  evalFileChecks(folder, dir, evalItem, i, found);
  if (isObject(evalItem.start)) found.problems.push(...startBranchProblems(evalItem.start, i));
}

/** An eval's `files`: inside the work tree, and present under its `files_root`. */
function evalFileChecks(
  folder: EvalSetFolder,
  dir: string,
  evalItem: Json,
  i: number,
  found: Findings,
): void {
  const filesRoot = typeof evalItem.files_root === 'string' ? evalItem.files_root : '.';
  const root = path.resolve(dir, filesRoot);
  const rootCheck =
    typeof evalItem.files_root === 'string' && evalItem.files_root !== ''
      ? checkHostPath(folder, pointer('evals', i, 'files_root'), filesRoot, {
          kind: 'folder',
          walk: false,
        })
      : Promise.resolve(undefined);
  found.pending.push(rootCheck);
  list(evalItem.files).forEach((file, j) => {
    if (typeof file !== 'string' || file === '') return;
    const at = pointer('evals', i, 'files', j);
    const why = whyEscapesWorkTree(file);
    if (why) {
      found.problems.push({ pointer: at, message: why });
      return;
    }
    // A missing root is reported once, not once per file.
    found.pending.push(
      rootCheck.then((rootProblem) =>
        rootProblem ? undefined : checkHostPath(folder, at, file, { kind: 'any', from: root }),
      ),
    );
  });
}

/** The branch names an eval's `start` creates: its branch and each pull request's head and base. */
function startBranchProblems(start: Json, i: number): Problem[] {
  const branches: [string, unknown][] = [[pointer('evals', i, 'start', 'branch'), start.branch]];
  list(start.pull_requests).forEach((pr, k) => {
    if (!isObject(pr)) return;
    branches.push([pointer('evals', i, 'start', 'pull_requests', k, 'head'), pr.head]);
    branches.push([pointer('evals', i, 'start', 'pull_requests', k, 'base'), pr.base]);
  });
  const problems: Problem[] = [];
  for (const [at, name] of branches) {
    if (typeof name !== 'string' || name === '') continue;
    const why = whyNotBranchName(name);
    if (why)
      problems.push({
        pointer: at,
        message: `not a valid branch name: ${quote(name)} ${why}`,
      });
  }
  return problems;
}

/**
 * An environment's Dockerfile and build context: inside the eval set's folder
 * (the builder is sent the context whole: a link out would send host files),
 * the Dockerfile inside its context (the builder reads it from there).
 */
function environmentChecks(
  folder: EvalSetFolder,
  environment: Json,
  at: (string | number)[],
): Promise<Problem | undefined>[] {
  const { dockerfile, context } = environment;
  if (typeof dockerfile !== 'string' || dockerfile === '') return [];
  const contextWritten =
    typeof context === 'string' && context !== '' ? context : path.dirname(dockerfile);
  const contextAt = pointer(...at, typeof context === 'string' ? 'context' : 'dockerfile');
  const fileCheck = checkHostPath(folder, pointer(...at, 'dockerfile'), dockerfile, {
    kind: 'file',
  });
  const contextCheck = checkHostPath(folder, contextAt, contextWritten, {
    kind: 'folder',
    ...(typeof context === 'string' ? {} : { prefix: 'its folder (the build context) ' }),
  });
  const inside = Promise.all([fileCheck, contextCheck]).then(([a, b]): Problem | undefined => {
    if (a || b) return undefined;
    const rel = path.relative(
      path.resolve(folder.dir, contextWritten),
      path.resolve(folder.dir, dockerfile),
    );
    if (rel.startsWith('..') || path.isAbsolute(rel)) {
      return {
        pointer: pointer(...at, 'dockerfile'),
        message: `${quote(dockerfile)} is not inside the build context ${quote(contextWritten)}`,
      };
    }
    return undefined;
  });
  return [fileCheck, contextCheck, inside];
}

/** A service names one image (a Dockerfile or a local image) and one readiness check. */
function serviceProblems(service: Json, at: (string | number)[]): Problem[] {
  const problems: Problem[] = [];
  const hasFile = service.dockerfile !== undefined;
  const hasImage = service.image !== undefined;
  if (hasFile === hasImage) {
    problems.push({
      pointer: pointer(...at),
      message: hasFile
        ? 'give either "dockerfile" or "image", not both'
        : 'give its image: "dockerfile" (built over evalrig\'s base image) or "image" (a local image)',
    });
  }
  if (hasImage && service.context !== undefined) {
    problems.push({
      pointer: pointer(...at, 'context'),
      message: '"context" goes with "dockerfile", not with a local "image"',
    });
  }
  if (isObject(service.resources)) {
    const at2 = pointer(...at, 'resources', 'memory');
    problems.push(
      ...sizeProblems(
        service.resources,
        'memory',
        MIN_MEMORY_BYTES,
        "6m (Docker's smallest limit)",
        at2,
      ),
    );
  }
  const ready = service.ready;
  if (isObject(ready) && (ready.command === undefined) === (ready.port === undefined)) {
    problems.push({
      pointer: pointer(...at, 'ready'),
      message:
        ready.command === undefined
          ? 'give "command" (a shell command in the service that exits 0 once ready) or "port" (a TCP port the agent connects to)'
          : 'give either "command" or "port", not both',
    });
  }
  return problems;
}

function duplicates(
  items: unknown[],
  key: string,
  at: (index: number) => string,
  what: string,
): Problem[] {
  const first = new Map<string, number>();
  const problems: Problem[] = [];
  items.forEach((item, index) => {
    const value = isObject(item) ? item[key] : undefined;
    if (typeof value !== 'string') return;
    const earlier = first.get(value);
    if (earlier === undefined) first.set(value, index);
    else {
      problems.push({
        pointer: at(index),
        message: `duplicate ${what} ${quote(value)}, first at ${at(earlier)}`,
      });
    }
  });
  return problems;
}
