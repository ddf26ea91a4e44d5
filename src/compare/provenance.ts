import type { AgentIdentity, ConditionsFile } from '../artifacts/index.js';
import type { CampaignSide } from './read.js';
import { judgeLine, judgesOf } from './judges.js';
import { evalSetFileDifference, modelScriptDifferences } from './scripts.js';
import type { Attribution, ProvenanceDifference, SideAgent, SideProvenance } from './types.js';

/** The agent of benchmark.json's provenance, with what compare records of it. */
function agentOf(agent: AgentIdentity | undefined): SideAgent | null {
  if (!agent) return null;
  const { package: name, version, binary_sha256, relay_sha256, model, runtime, install } = agent;
  return {
    package: name,
    version,
    binary_sha256,
    ...(relay_sha256 !== undefined ? { relay_sha256 } : {}),
    ...(model !== undefined ? { model } : {}),
    ...(runtime !== undefined ? { runtime } : {}),
    ...(install !== undefined ? { install } : {}),
  };
}

/** Each condition's agent of a cross-agent campaign (benchmark.json's provenance.agents). */
function agentsOf(
  agents: Readonly<Record<string, AgentIdentity>> | undefined,
): Pick<SideProvenance, 'agents'> {
  if (!agents) return {};
  return { agents: Object.fromEntries(Object.entries(agents).map(([c, a]) => [c, agentOf(a)!])) };
}

/** A condition as the eval set declares it: its agent is compared apart, with the others'. */
function declaredCondition(c: ConditionsFile['conditions'][number]): Condition {
  const { name, description, stage, env, agent_args } = c;
  return { name, ...(description === undefined ? {} : { description }), stage, env, agent_args };
}

/** What a campaign's numbers were measured against, from its two files. */
export function sideProvenance(side: CampaignSide): SideProvenance {
  const p = side.benchmark.provenance;
  return {
    eval_set: p.eval_set,
    codebases: p.codebases,
    agent: agentOf(p.agent),
    ...agentsOf(p.agents),
    image: {
      tag: p.image.tag,
      id: p.image.id,
      environments: (p.image.environments ?? []).map((e) => ({
        evals: e.evals,
        tag: e.image.tag,
        id: e.image.id,
        environment_sha256: e.environment.hash,
      })),
    },
    stand_in_sha256: p.stand_in_sha256,
    evalrig_version: p.evalrig_version,
    stop_at_hand_over: side.conditions.options.stop_at_hand_over,
    conditions: side.conditions.conditions.map(declaredCondition),
    judges: judgesOf(side),
    ...(p.model_scripts ? { model_scripts: p.model_scripts } : {}),
    ...(p.eval_set_files ? { eval_set_files: p.eval_set_files } : {}),
    created_at: p.campaign_created_at,
  };
}

const short = (hash: string): string => hash.replace(/^sha256:/, '').slice(0, 12);

/** Each eval's codebase commits, as one comparable string per eval. */
function commitsByEval(p: SideProvenance): Map<string, string> {
  const by = new Map<string, string[]>();
  for (const c of p.codebases) {
    const commit = `${c.commit}${c.dirty ? ' (dirty)' : ''}`;
    for (const e of c.evals) by.set(e, [...(by.get(e) ?? []), commit]);
  }
  return new Map([...by].map(([e, commits]) => [e, [...new Set(commits)].sort().join(', ')]));
}

function codebaseDifference(a: SideProvenance, b: SideProvenance): ProvenanceDifference | null {
  const ca = commitsByEval(a);
  const cb = commitsByEval(b);
  // Only evals both sides ran: an eval on one side only is listed with the measures.
  const evals = [...ca.keys()].filter((e) => cb.has(e) && ca.get(e) !== cb.get(e));
  if (evals.length === 0) return null;
  const describe = (m: Map<string, string>): string =>
    evals
      .map((e) => `${e} @ ${m.get(e)!.replace(/[0-9a-f]{40}/g, (h) => h.slice(0, 12))}`)
      .join('; ');
  return {
    aspect: 'codebase',
    what: `the codebase commit (${evals.join(', ')})`,
    a: describe(ca),
    b: describe(cb),
  };
}

function imageKey(p: SideProvenance): string {
  return JSON.stringify([
    p.image.id,
    [...p.image.environments].map((e) => [e.evals, e.id, e.environment_sha256]),
  ]);
}

function imageLine(p: SideProvenance): string {
  const envs = p.image.environments.map((e) => `; ${e.evals.join(', ')}: ${e.tag} ${short(e.id)}`);
  return `${p.image.tag} ${short(p.image.id)}${envs.join('')}`;
}

function agentLine(a: SideAgent | null): string {
  if (!a) return 'a command agent (its command is in the eval set)';
  const relay = a.relay_sha256 ? `, relay ${short(a.relay_sha256)}` : '';
  const model = a.model ? `, model ${a.model}` : '';
  const node = a.runtime
    ? `, on ${a.runtime.package}@${a.runtime.version} ${short(a.runtime.sha256)}`
    : '';
  return `${a.package}@${a.version} (binary ${short(a.binary_sha256)}${relay}${model}${node})`;
}

/** What of an agent can change what runs: not how its binary reached the containers. */
function agentKey(a: SideAgent | null): string {
  return a
    ? JSON.stringify([
        a.package,
        a.version,
        a.binary_sha256,
        a.relay_sha256,
        a.model,
        a.runtime?.sha256,
      ])
    : '';
}

/** Which part of the agent differs, in words. */
function agentWhat(a: SideAgent | null, b: SideAgent | null): string {
  if (!a || !b || a.package !== b.package) return 'the agent';
  if (a.version !== b.version) return 'the agent version';
  if (a.binary_sha256 !== b.binary_sha256) return 'the agent binary';
  if (a.model !== b.model) return "the agent's model";
  if (a.runtime?.sha256 !== b.runtime?.sha256) return "the agent's Node runtime";
  return "the agent's model relay";
}

/** The agent a condition ran: its own in a cross-agent campaign, else the campaign's. */
function conditionAgent(p: SideProvenance, condition: string): SideAgent | null {
  return p.agents?.[condition] ?? p.agent;
}

/**
 * The agents that differ. Where neither side plays several agents, the campaign's one agent;
 * else each condition both sides have, with the agent it ran (a cross-agent campaign names one
 * per condition), so an upgraded agent in one condition is named with that condition.
 */
function agentDifferences(a: SideProvenance, b: SideProvenance): ProvenanceDifference[] {
  if (!a.agents && !b.agents) {
    if (agentKey(a.agent) === agentKey(b.agent)) return [];
    const what = agentWhat(a.agent, b.agent);
    return [{ aspect: 'agent', what, a: agentLine(a.agent), b: agentLine(b.agent) }];
  }
  return a.conditions.flatMap((c) => {
    if (!b.conditions.some((x) => x.name === c.name)) return [];
    const [ia, ib] = [conditionAgent(a, c.name), conditionAgent(b, c.name)];
    if (agentKey(ia) === agentKey(ib)) return [];
    const what = `${agentWhat(ia, ib)} of condition ${c.name}`;
    return [{ aspect: 'agent' as const, what, a: agentLine(ia), b: agentLine(ib) }];
  });
}

type Condition = ConditionsFile['conditions'][number];

/** What the eval set itself says of a condition: staged paths, env names, agent arguments. */
function declared(c: Condition): string {
  return JSON.stringify([c.stage.map((s) => [s.from, s.to]), c.env, c.agent_args]);
}

function declaredLine(c: Condition): string {
  const stage = c.stage.map((s) => `${s.from} → ${s.to}`).join(', ') || 'nothing';
  return `stages ${stage}; env ${c.env.join(', ') || 'none'}; agent args ${c.agent_args.join(' ') || 'none'}`;
}

function stagedLine(c: Condition): string {
  return c.stage.map((s) => `${s.to} ${short(s.sha256)}`).join(', ') || 'nothing staged';
}

/**
 * The conditions both sides have, compared. What a condition declares
 * (staged paths, env names, agent arguments) lives in evals.json: when the
 * eval set's hash differs, such a change is part of that one difference, not
 * another. What it stages (the files' content, outside evals.json) is its own.
 */
function conditionDifferences(
  a: SideProvenance,
  b: SideProvenance,
  evalSetDiffers: boolean,
): { own: ProvenanceDifference[]; inEvalSet: string[] } {
  const own: ProvenanceDifference[] = [];
  const inEvalSet: string[] = [];
  for (const ca of a.conditions) {
    const cb = b.conditions.find((c) => c.name === ca.name);
    if (!cb) continue;
    if (declared(ca) !== declared(cb)) {
      if (evalSetDiffers) inEvalSet.push(`condition ${ca.name}: ${declaredLine(cb)}`);
      else
        own.push({
          aspect: 'condition',
          what: `what condition ${ca.name} declares`,
          a: declaredLine(ca),
          b: declaredLine(cb),
        });
    }
    // Content compared by target path: a path that moved is a declared change, above.
    const content = (c: Condition) => JSON.stringify(c.stage.map((s) => [s.to, s.sha256]).sort());
    if (declared(ca) === declared(cb) && content(ca) !== content(cb))
      own.push({
        aspect: 'condition',
        what: `the files condition ${ca.name} stages`,
        a: stagedLine(ca),
        b: stagedLine(cb),
      });
  }
  return { own, inEvalSet };
}

/**
 * Everything recorded that differs between the two campaigns, one entry per
 * thing that could explain a difference in the measures.
 */
export function provenanceDifferences(
  a: SideProvenance,
  b: SideProvenance,
): ProvenanceDifference[] {
  const out: ProvenanceDifference[] = [];
  const evalSetDiffers = a.eval_set.sha256 !== b.eval_set.sha256;
  const conditions = conditionDifferences(a, b, evalSetDiffers);
  if (evalSetDiffers)
    out.push({
      aspect: 'eval_set',
      what: 'the eval set (evals.json)',
      a: `${a.eval_set.name} sha256 ${short(a.eval_set.sha256)}`,
      b: `${b.eval_set.name} sha256 ${short(b.eval_set.sha256)}`,
      ...(conditions.inEvalSet.length ? { includes: conditions.inEvalSet } : {}),
    });
  out.push(...conditions.own);
  const codebase = codebaseDifference(a, b);
  if (codebase) out.push(codebase);
  out.push(...agentDifferences(a, b));
  out.push(...modelScriptDifferences(a, b));
  const files = evalSetFileDifference(a, b);
  if (files) out.push(files);
  if (imageKey(a) !== imageKey(b))
    out.push({ aspect: 'image', what: 'the image', a: imageLine(a), b: imageLine(b) });
  if (a.stand_in_sha256 !== b.stand_in_sha256)
    out.push({
      aspect: 'stand_in',
      what: 'the gh stand-in',
      a: `sha256 ${short(a.stand_in_sha256)}`,
      b: `sha256 ${short(b.stand_in_sha256)}`,
    });
  if (a.evalrig_version !== b.evalrig_version)
    out.push({
      aspect: 'evalrig_version',
      what: 'the evalrig version',
      a: a.evalrig_version,
      b: b.evalrig_version,
    });
  if (a.stop_at_hand_over !== b.stop_at_hand_over)
    out.push({
      aspect: 'stop_at_hand_over',
      what: 'the --stop-at-hand-over option',
      a: String(a.stop_at_hand_over),
      b: String(b.stop_at_hand_over),
    });
  // A judge only one side has shows as grading measures only one side has; two judges that differ
  // move every grading measure.
  if (a.judges.length && b.judges.length && judgeLine(a) !== judgeLine(b))
    out.push({
      aspect: 'judge',
      what: 'the judge (model, script or rubric)',
      a: judgeLine(a),
      b: judgeLine(b),
    });
  return out;
}

function list(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/** Whether the differences in the measures can be put down to one thing, in a sentence. */
export function attribute(differences: readonly ProvenanceDifference[]): {
  attribution: Attribution;
  verdict: string;
} {
  const whats = differences.map((d) => d.what);
  if (differences.length === 0)
    return {
      attribution: 'same',
      verdict:
        'Nothing recorded differs (eval set, staged files, codebase, agent, model script, eval set folder files, image, gh stand-in, evalrig, judge): a difference is chance, or comes from something evalrig does not record (a file outside the eval set folder that the agent command reads, or a model behind an API).',
    };
  if (differences.length === 1)
    return {
      attribution: 'one',
      verdict: `One thing differs: ${whats[0]}. The differences below can be put down to it (or to chance, within their intervals).`,
    };
  return {
    attribution: 'several',
    verdict: `Warning: ${list(whats)} ${differences.length === 2 ? 'both' : 'all'} differ: the difference cannot be attributed to one.`,
  };
}
