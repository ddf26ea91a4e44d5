import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { GradingFile, JudgeIdentity, RunRecord } from '../artifacts/index.js';
import { readJsonArtifact, runFiles, writeGrading } from '../campaign-folder/index.js';
import type { Eval, JudgeSpec } from '../config/index.js';
import { parseGradingAnswer } from './answer.js';
import { askJudge, type JudgeModel } from './call.js';
import { readRunEvidence, type RunEvidence } from './inputs.js';
import { GRADING_RUBRIC, GRADING_RUBRIC_RECORD } from './rubric.js';

/** What grading one run did: answered from the cache, asked the judge, or recorded an error. */
export type GradeOutcome = 'cached' | 'graded' | 'error';

export interface GradeContext {
  readonly campaign: string;
  readonly spec: JudgeSpec;
  readonly judge: JudgeModel;
  /** Ask the judge again whatever is stored (`evalrig grade --force`). */
  readonly force?: boolean;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The eval's task as the judge reads it: its id, first message and later messages. */
export function taskText(e: Eval): string {
  const later = e.turns.map((t, i) => `- turn ${i + 2} (${t.phase}): ${t.message}`);
  return [
    `eval: ${e.id}`,
    `first message (${e.phase}): ${e.prompt}`,
    ...(later.length ? ['later messages:', ...later] : []),
  ].join('\n');
}

/** Every tag the judge's prompts are framed with (grading and blind comparison). */
export const FRAME_TAGS = [
  'task',
  'expectations',
  'reference',
  'run-record',
  'final-messages',
  'diff',
  'transcript',
  'state-a',
  'state-b',
] as const;

// A frame tag opened or closed, however spaced or cased, whether or not its `>` follows: the
// name must end there (`<diffstat>` is not `<diff>`). Linear: no part can backtrack far.
const FRAME_TAG = new RegExp(
  `<[ \\t\\r\\n]{0,64}(/?)[ \\t\\r\\n]{0,64}(${FRAME_TAGS.join('|')})(?![\\w-])([ \\t\\r\\n]{0,64}>)?`,
  'giu',
);

/**
 * Every frame tag written in the agent's text is defused (`</diff>` becomes `</diff (quoted)>`),
 * so that the record can neither close the section it sits in, nor its own, nor open a section
 * of its own (a fake `<expectations>`).
 */
export function defuse(text: string): string {
  return text.replace(
    FRAME_TAG,
    (_, slash: string, tag: string, end: string | undefined) =>
      `<${slash}${tag.toLowerCase()} (quoted)${end ? '>' : ''}`,
  );
}

export function finalMessagesText(evidence: RunEvidence): string {
  if (evidence.stops.length === 0) return '(the run reached no stop)';
  return evidence.stops
    .map((s) => {
      const kind = s.kind === null ? 'no kind' : `kind ${s.kind}`;
      const hand = s.hand_over ? ', hands over' : '';
      return `turn ${s.turn} (${kind}${hand}): ${s.message ?? '(no message)'}`;
    })
    .join('\n');
}

/** The user message of a grading call. */
export function gradingPrompt(
  e: Eval,
  expectations: readonly string[],
  evidence: RunEvidence,
  reference?: string,
): string {
  return [
    `<task>\n${taskText(e)}\n</task>`,
    `<expectations>\n${JSON.stringify(expectations, null, 2)}\n</expectations>`,
    // The eval set's own known-good answer (never the agent's text): what "as the reference does" means.
    ...(reference === undefined ? [] : [`<reference>\n${reference}\n</reference>`]),
    '<run-record>',
    `<final-messages>\n${defuse(finalMessagesText(evidence))}\n</final-messages>`,
    `<diff>\n${defuse(evidence.diff) || '(no change)'}\n</diff>`,
    `<transcript>\n${defuse(evidence.transcript)}\n</transcript>`,
    '</run-record>',
  ].join('\n\n');
}

/**
 * Who judges, as a cache key sees it: the model's name and, for a script, its bytes' hash. A
 * changed script is another judge: what it answers may differ, so its gradings are asked again.
 */
export function judgeKey(judge: JudgeIdentity): { model: string; script?: string } {
  return {
    model: judge.model,
    ...(judge.script_sha256 === undefined ? {} : { script: judge.script_sha256 }),
  };
}

/** The eval's reference diff as the judge is shown it: its head, up to `max` bytes. */
async function referenceText(e: Eval, max: number): Promise<string | undefined> {
  if (e.reference === undefined) return undefined;
  const text = await readFile(e.reference, 'utf8');
  return Buffer.byteLength(text) > max
    ? `${Buffer.from(text).subarray(0, max).toString('utf8')}\n[cut at ${max} bytes]`
    : text;
}

/**
 * The cache key of a grading: the rubric's hash, the judge (its model name, a script's hash),
 * the expectations and what the judge is shown.
 */
export function gradingKey(
  judge: JudgeIdentity,
  expectations: readonly string[],
  inputsSha256: string,
): string {
  return sha256(
    JSON.stringify({
      rubric: GRADING_RUBRIC_RECORD.sha256,
      ...judgeKey(judge),
      expectations,
      inputsSha256,
    }),
  );
}

/**
 * The judge's stored answer (grading.json, comparison.json) when it is whole, reached `done`
 * and was made under `key`; else undefined: absent, broken, an error or stale, it is asked again.
 */
export async function cachedAnswer<
  T extends { readonly status: string; readonly cache_key: string },
>(
  kind: 'grading' | 'comparison',
  file: string,
  key: string,
  done: T['status'],
): Promise<T | undefined> {
  const read = await readJsonArtifact<T>(kind, file);
  if (read.status !== 'ok') return undefined;
  const data = read.value;
  return data.status === done && data.cache_key === key ? data : undefined;
}

/**
 * Grades one finished run against its eval's expectations: reads what the judge is shown,
 * answers from grading.json when its key is unchanged, else asks the judge once and writes
 * grading.json (validated). An answer that does not parse or validate, or names other
 * expectations, and a call that failed, are recorded as a grading error, never as a fail.
 */
export async function gradeRun(
  ctx: GradeContext,
  target: { readonly runDir: string; readonly record: RunRecord; readonly eval: Eval },
): Promise<{ outcome: GradeOutcome; grading: GradingFile }> {
  const { record, runDir } = target;
  const expectations = target.eval.expectations;
  const evidence = await readRunEvidence(runDir, record, {
    maxDiffBytes: ctx.spec.max_diff_bytes,
    maxTranscriptBytes: ctx.spec.max_transcript_bytes,
  });
  const reference = await referenceText(target.eval, ctx.spec.max_diff_bytes);
  const user = gradingPrompt(target.eval, expectations, evidence, reference);
  const inputsSha256 = sha256(
    JSON.stringify({
      task: taskText(target.eval),
      evidence: [evidence.stops, evidence.diff, evidence.transcript],
      ...(reference === undefined ? {} : { reference }),
    }),
  );
  const key = gradingKey(ctx.judge.identity, expectations, inputsSha256);
  const files = runFiles(runDir);
  const cached = ctx.force
    ? undefined
    : await cachedAnswer<GradingFile>('grading', files.gradingJson, key, 'graded');
  if (cached) return { outcome: 'cached', grading: cached };

  const reply = await askJudge(ctx.judge, {
    system: GRADING_RUBRIC,
    user,
    flight: files.judgeFlight,
  });
  const parsed =
    reply.text === null
      ? { ok: false as const, error: reply.error ?? 'the judge gave no answer' }
      : parseGradingAnswer(reply.text, expectations);
  const graded = parsed.ok ? parsed.value : undefined;
  const passed = graded?.filter((g) => g.passed).length ?? 0;
  const grading: GradingFile = {
    schema: 'evalrig/grading@1',
    campaign: ctx.campaign,
    eval: record.eval,
    condition: record.condition,
    run: record.run,
    status: parsed.ok ? 'graded' : 'error',
    ...(parsed.ok ? {} : { error: parsed.error }),
    judge: ctx.judge.identity,
    rubric: GRADING_RUBRIC_RECORD,
    inputs_sha256: inputsSha256,
    cache_key: key,
    expectations:
      graded ?? expectations.map((e) => ({ expectation: e, passed: null, evidence: null })),
    expectations_passed: graded ? passed / Math.max(1, graded.length) : null,
    all_passed: graded ? passed === graded.length : null,
    calls: reply.calls,
    ...(reply.fellBack ? { fell_back: true as const } : {}),
    graded_at: new Date().toISOString(),
  };
  await writeGrading(runDir, grading);
  return { outcome: parsed.ok ? 'graded' : 'error', grading };
}
