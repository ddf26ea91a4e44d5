/**
 * A run's steps as static HTML for report.html (no script: long texts fold into `<details>`),
 * embedded when the campaign is small so the report alone shows what each agent did. Every
 * text is the agent's or the model's: escaped, never markup.
 */
import {
  readRunDiffs,
  readTrajectory,
  type RunDiffs,
  type Step,
  type Trajectory,
} from '../trajectory/index.js';
import { esc } from './format.js';

/** Campaigns of at most this many runs get their steps embedded in report.html. */
export const EMBED_MAX_RUNS = 12;
/** The HTML all embedded runs may take together; runs past it get the link only. */
export const EMBED_MAX_BYTES = 2 * 1024 * 1024;
/** Each text is cut to this many characters in the report (the viewer shows it whole). */
const EMBED_TEXT_CHARS = 2000;
/** Texts longer than this many lines are folded. */
const FOLD_LINES = 6;

/** A text in a <pre>, cut, and folded into <details> when long. */
function text(label: string, value: string): string {
  const cut =
    value.length > EMBED_TEXT_CHARS
      ? `${value.slice(0, EMBED_TEXT_CHARS)}… (${value.length - EMBED_TEXT_CHARS} more characters in evalrig view)`
      : value;
  const lines = value.split('\n').length;
  const pre = `<pre>${esc(cut)}</pre>`;
  if (lines <= FOLD_LINES && value.length <= 400) return pre;
  return `<details><summary class="small">${esc(label)} (${lines} lines)</summary>${pre}</details>`;
}

const tokens = (s: Extract<Step, { kind: 'model' }>): string =>
  `${s.tokens.input ?? '?'} in / ${s.tokens.output ?? '?'} out tokens`;
const took = (s: Step): string => (s.duration_ms === null ? '' : ` · ${s.duration_ms} ms`);

function stepHtml(s: Step): string {
  const head = (what: string): string =>
    `<span class="small">#${s.i} turn ${s.turn}</span> <b>${esc(what)}</b>`;
  switch (s.kind) {
    case 'message':
      return `${head(`message (${s.role})`)}${text('text', s.text)}`;
    case 'model':
      return `${head(`model${s.side ? ' (side request)' : ''}`)} <span class="small">${esc(tokens(s))}${took(s)}</span>${s.text === null ? '' : text('text', s.text)}`;
    case 'tool':
      return `${head(`tool ${s.name}`)}${text('input', s.input)}${s.output === null ? '<p class="small">no output returned to the model</p>' : text('output', s.output)}`;
    case 'gh':
      return `${head(`gh ${s.args}`)} <span class="small">exit ${s.exit_code}</span>${s.stdout ? text('stdout', s.stdout) : ''}${s.stderr ? text('stderr', s.stderr) : ''}`;
    case 'output':
      return `${head(s.stream)}${text(s.stream, s.text)}`;
    case 'stop': {
      const d = s.diff;
      const pr = s.pull
        ? ` · PR #${s.pull.number} ${s.pull.draft ? 'draft' : s.pull.state.toLowerCase()}`
        : ' · no PR';
      const diff = ` · +${d.lines_added} −${d.lines_removed} lines, ${d.files_added + d.files_modified + d.files_deleted} files`;
      return `${head(`stop, turn ${s.turn} (${s.phase}${s.stop_kind ? `, ${s.stop_kind}` : ''})`)}<span class="small">exit ${s.exit_code ?? '–'}${esc(pr)}${esc(diff)}</span>${s.final_message === null ? '' : text('final message', s.final_message)}${s.patch === null ? '' : text('patch', s.patch)}`;
    }
  }
}

/** A run's steps, folded into one <details> for the report. */
export function embeddedSteps(t: Trajectory): string {
  const items = t.steps.map(
    (s) => `<li class="step step-${s.kind}" data-kind="${s.kind}">${stepHtml(s)}</li>`,
  );
  const omitted = t.steps_omitted > 0 ? ` (${t.steps_omitted} more not shown)` : '';
  return `<details class="embedded-steps"><summary class="small">${t.steps.length} steps${omitted}, from what the host recorded</summary><ol class="steps">${items.join('')}</ol></details>`;
}

/**
 * A mined eval's reference diff beside the run's own (each cut as every text is), folded;
 * nothing when the eval has no reference.
 */
export function embeddedDiffs(d: RunDiffs): string {
  if (d.reference === null) return '';
  const cell = (head: string, value: string | null) =>
    `<div><h4>${esc(head)}</h4>${text(head, value ?? '(none)')}</div>`;
  return `<details class="reference-diff"><summary class="small">the run's diff beside the reference</summary><div class="pair">${cell("the run's diff", d.run)}${cell(`the reference (${d.reference_path ?? ''})`, d.reference)}</div></details>`;
}

/** The key of a run in the map of embedded steps. */
export const embedKey = (r: { eval: string; condition: string; run: number }): string =>
  JSON.stringify([r.eval, r.condition, r.run]);

/**
 * The steps of each run to embed in report.html, by {@link embedKey}: none when the campaign
 * has more than {@link EMBED_MAX_RUNS} runs (the report links into evalrig view instead), and
 * only runs that fit in {@link EMBED_MAX_BYTES} together. A run whose records cannot be read
 * is left out: the viewer names what is wrong with it. With `outDir`, a mined eval's run also
 * shows its diff beside the reference.
 */
export async function embedRuns(
  runs: ReadonlyArray<{ eval: string; condition: string; run: number; dir: string }>,
  total: number,
  outDir?: string,
): Promise<Map<string, string>> {
  const embedded = new Map<string, string>();
  if (total > EMBED_MAX_RUNS) return embedded;
  let bytes = 0;
  for (const r of runs) {
    const t = await readTrajectory(r.dir).catch(() => null);
    if (t === null) continue;
    const diffs = outDir ? await readRunDiffs(outDir, r).catch(() => null) : null;
    const html = `${diffs ? embeddedDiffs(diffs) : ''}${embeddedSteps(t)}`;
    if ((bytes += html.length) > EMBED_MAX_BYTES) break;
    embedded.set(embedKey(r), html);
  }
  return embedded;
}
