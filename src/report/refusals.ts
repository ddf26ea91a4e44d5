import type { DeepReadonly, RunRecord, StopRecord } from '../artifacts/index.js';
import type * as Benchmark from '../artifacts/schemas/benchmark.js';
import { inConditionOrder } from './order.js';
import { leftOut } from '../measure/index.js';

/** A condition whose agent refused tool calls (benchmark.json's `refusal_warnings`). */
export type RefusalWarning = NonNullable<
  DeepReadonly<Benchmark.BenchmarkFile['refusal_warnings']>
>[number];

interface Count {
  runs: number;
  withRefusals: number;
  refused: number;
  tools: Map<string, number>;
}

/** Tool names kept per condition, and named in the warning's text. */
const MAX_TOOLS = 100;
const TOOLS_LISTED = 10;
const TOOLS_IN_TEXT = 5;

/**
 * The tool calls each condition's agent refused to run (its own policy blocked them: a
 * command it judged unsafe, an approval it denied). The model asked for them and they never
 * ran, so the run measured an agent that could not do what it was asked: the report opens
 * with a warning for every condition where that happened.
 */
export class RefusalAccumulator {
  private readonly byCondition = new Map<string, Count>();

  /** `order`: the conditions as conditions.json lists them, which the report keeps. */
  constructor(private readonly order: readonly string[] = []) {}

  add(
    record: Pick<RunRecord, 'condition' | 'status' | 'agent'>,
    stops: readonly StopRecord[],
  ): void {
    const refused = record.agent?.totals.tool_calls_refused;
    // No agent record, or a version that did not count refusals: nothing to say either way.
    if (leftOut(record) || refused === undefined) return;
    let c = this.byCondition.get(record.condition);
    if (!c)
      this.byCondition.set(
        record.condition,
        (c = { runs: 0, withRefusals: 0, refused: 0, tools: new Map() }),
      );
    c.runs++;
    if (refused === 0) return;
    c.withRefusals++;
    c.refused += refused;
    for (const stop of stops) {
      for (const [name, t] of Object.entries(stop.agent?.tool_calls.by_name ?? {})) {
        if (!t.refused) continue;
        const key = plainName(name);
        if (c.tools.has(key) || c.tools.size < MAX_TOOLS)
          c.tools.set(key, (c.tools.get(key) ?? 0) + t.refused);
      }
    }
  }

  warnings(): RefusalWarning[] {
    return inConditionOrder(this.byCondition, this.order)
      .filter(([, c]) => c.refused > 0)
      .map(([condition, c]) => {
        const tools = [...c.tools]
          .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
          .map(([name, refused]) => ({ name, refused }));
        return {
          condition,
          refused: c.refused,
          runs_with_refusals: c.withRefusals,
          runs: c.runs,
          tools: tools.slice(0, TOOLS_LISTED),
          text: `${condition}: the agent refused ${c.refused} tool call(s) in ${c.withRefusals}/${c.runs} runs${toolsText(tools)}: its own policy blocked them, so what it was asked to do did not happen`,
        };
      });
  }
}

function toolsText(tools: ReadonlyArray<{ name: string }>): string {
  if (tools.length === 0) return '';
  const named = tools.slice(0, TOOLS_IN_TEXT).map((t) => t.name);
  const more = tools.length - named.length;
  return ` (${named.join(', ')}${more > 0 ? ` and ${more} more` : ''})`;
}

/**
 * A tool's name as one short line: the name is the model's or the agent's, and the report's
 * lines are read in a terminal and as Markdown.
 */
function plainName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const flat = name.replace(/[\u0000-\u001f\u007f\s]+/gu, ' ').trim() || '?';
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}
