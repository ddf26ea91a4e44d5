import { AGENT_ADAPTERS, type AdapterType } from '../agents/index.js';
import { conditionPointer, type EvalSet } from '../config/index.js';
import { InputError } from '../errors/index.js';
import { stagedInstructions } from './staged.js';

/** A staged path the condition's agent does not load, or loads in a lesser form. */
export interface StagingWarning {
  /** JSON pointer of the staged entry in the eval set. */
  readonly pointer: string;
  readonly message: string;
  /** The agent will not load it: its condition compares nothing (refused unless accepted). */
  readonly voids: boolean;
}

/**
 * What the eval set stages that its agents will not load (or load other than written), each at
 * its JSON pointer: none for a `command` agent, whose loading evalrig does not know.
 */
export async function stagingWarnings(evalSet: EvalSet): Promise<StagingWarning[]> {
  const out: StagingWarning[] = [];
  for (const condition of evalSet.conditions) {
    // Each condition's own agent (a cross-agent campaign), else the set's.
    const type = (condition.agent ?? evalSet.agent).type;
    if (type === undefined || type === 'command') continue;
    const adapter = AGENT_ADAPTERS[type as AdapterType];
    for (const s of await stagedInstructions(condition, adapter)) {
      if (s.note === null) continue;
      const from = condition.stage.find((p) => s.path === p.to || s.path.startsWith(`${p.to}/`));
      const pointer = `${conditionPointer(condition)}/stage${from ? `/${escape(relFrom(evalSet, from.from))}` : ''}`;
      const what = s.kind === 'skill' ? `the skill ${s.name ?? ''} at ${s.path}` : s.path;
      const verdict = s.loads
        ? ''
        : `: it will not reach the model, and ${condition.name} compares nothing`;
      out.push({ pointer, message: `${what}: ${s.note}${verdict}`, voids: s.loads === false });
    }
  }
  return out;
}

function relFrom(evalSet: EvalSet, from: string): string {
  const rel = from.startsWith(`${evalSet.dir}/`) ? from.slice(evalSet.dir.length + 1) : from;
  return rel;
}

function escape(token: string): string {
  return token.replace(/~/gu, '~0').replace(/\//gu, '~1');
}

/**
 * The refusal of an eval set whose staged paths will not reach their agents (`voiding`): a
 * campaign that compares nothing must not pass CI by exiting 0. `--allow-unloaded` plays it.
 */
export function unloadedError(file: string, voiding: readonly StagingWarning[]): InputError {
  const n = voiding.length;
  return new InputError(
    `${file}: ${n} staged path${n === 1 ? '' : 's'} will not reach ${n === 1 ? 'its' : 'their'} condition's agent (above): the comparison would compare nothing; stage ${n === 1 ? 'it' : 'them'} where the agent loads ${n === 1 ? 'it' : 'them'}, or pass --allow-unloaded to play it on purpose`,
  );
}
