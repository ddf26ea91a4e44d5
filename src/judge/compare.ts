import { mkdir } from 'node:fs/promises';
import type { ComparisonFile, RunRecord } from '../artifacts/index.js';
import { comparisonFiles, writeComparison } from '../campaign-folder/index.js';
import type { Eval } from '../config/index.js';
import { parseCompareAnswer } from './answer.js';
import { askJudge } from './call.js';
import {
  cachedAnswer,
  defuse,
  finalMessagesText,
  judgeKey,
  sha256,
  taskText,
  type GradeContext,
  type GradeOutcome,
} from './grade.js';
import { readRunEvidence, type RunEvidence } from './inputs.js';
import { COMPARE_RUBRIC, COMPARE_RUBRIC_RECORD } from './rubric.js';

/**
 * The order two conditions are shown in, for one (campaign, eval, run): random to the judge,
 * but reproducible from the seed it records (sha256 of the three; its first byte's parity).
 */
export function blindOrder(
  campaign: string,
  evalId: string,
  run: number,
  conditions: readonly [string, string],
): { seed: string; order: [string, string] } {
  const seed = sha256(`${campaign}\u0000${evalId}\u0000${run}`);
  const swap = (parseInt(seed.slice(0, 2), 16) & 1) === 1;
  const [a, b] = conditions;
  return { seed, order: swap ? [b, a] : [a, b] };
}

function stateText(evidence: RunEvidence): string {
  return [
    `<final-messages>\n${defuse(finalMessagesText(evidence))}\n</final-messages>`,
    `<diff>\n${defuse(evidence.diff) || '(no change)'}\n</diff>`,
  ].join('\n');
}

interface Side {
  readonly runDir: string;
  readonly record: RunRecord;
}

/**
 * Judges two runs of one eval and run number blind: their final states (final messages and
 * diff), unlabeled, in the recorded seeded order. Answered from comparison.json when its key is
 * unchanged; an answer that does not parse or validate is recorded as an error.
 */
export async function compareRuns(
  ctx: GradeContext & { readonly outDir: string },
  target: {
    readonly eval: Eval;
    readonly run: number;
    readonly conditions: readonly [string, string];
    readonly sides: Readonly<Record<string, Side>>;
  },
): Promise<{ outcome: GradeOutcome; comparison: ComparisonFile }> {
  const e = target.eval;
  const { seed, order } = blindOrder(ctx.campaign, e.id, target.run, target.conditions);
  const caps = { maxDiffBytes: ctx.spec.max_diff_bytes, maxTranscriptBytes: 1024 };
  const states: RunEvidence[] = [];
  for (const condition of order) {
    const side = target.sides[condition]!;
    states.push(await readRunEvidence(side.runDir, side.record, caps));
  }
  const [a, b] = states as [RunEvidence, RunEvidence];
  const user = [
    `<task>\n${taskText(e)}\n</task>`,
    `<expectations>\n${JSON.stringify(e.expectations, null, 2)}\n</expectations>`,
    `<state-a>\n${stateText(a)}\n</state-a>`,
    `<state-b>\n${stateText(b)}\n</state-b>`,
  ].join('\n\n');
  const inputsSha256 = sha256(user);
  const key = sha256(
    JSON.stringify({
      rubric: COMPARE_RUBRIC_RECORD.sha256,
      ...judgeKey(ctx.judge.identity),
      order,
      inputsSha256,
    }),
  );
  const files = comparisonFiles(ctx.outDir, target.conditions, e.id, target.run);
  const cached = ctx.force
    ? undefined
    : await cachedAnswer<ComparisonFile>('comparison', files.comparisonJson, key, 'judged');
  if (cached) return { outcome: 'cached', comparison: cached };

  await mkdir(files.dir, { recursive: true });
  const reply = await askJudge(ctx.judge, {
    system: COMPARE_RUBRIC,
    user,
    flight: files.judgeFlight,
  });
  const parsed =
    reply.text === null
      ? { ok: false as const, error: reply.error ?? 'the judge gave no answer' }
      : parseCompareAnswer(reply.text);
  const winner = !parsed.ok
    ? null
    : parsed.value.winner === 'tie'
      ? 'tie'
      : order[parsed.value.winner === 'A' ? 0 : 1];
  const comparison: ComparisonFile = {
    schema: 'evalrig/comparison@1',
    campaign: ctx.campaign,
    eval: e.id,
    run: target.run,
    conditions: [target.conditions[0], target.conditions[1]],
    seed,
    order,
    status: parsed.ok ? 'judged' : 'error',
    ...(parsed.ok ? {} : { error: parsed.error }),
    winner,
    reason: parsed.ok ? parsed.value.reason : null,
    judge: ctx.judge.identity,
    rubric: COMPARE_RUBRIC_RECORD,
    inputs_sha256: inputsSha256,
    cache_key: key,
    calls: reply.calls,
    ...(reply.fellBack ? { fell_back: true as const } : {}),
    judged_at: new Date().toISOString(),
  };
  await writeComparison(ctx.outDir, comparison);
  return { outcome: parsed.ok ? 'graded' : 'error', comparison };
}
