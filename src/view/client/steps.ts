/// <reference lib="dom" />
import type { Step, StopStep, Trajectory } from '../../trajectory/types.js';
import { folded, foldedAway, h, seconds, tag } from './dom.js';
import { refusedFlag } from './caveats.js';

type Of<K extends Step['kind']> = Extract<Step, { kind: K }>;

/** Time since the run started, as +12.3 s. */
function offset(t: Trajectory, at: string | null): string {
  if (at === null) return '';
  const ms = Date.parse(at) - Date.parse(t.started_at);
  return Number.isNaN(ms) ? '' : `+${(ms / 1000).toFixed(1)} s`;
}

function head(t: Trajectory, s: Step, label: string, ...more: (string | Node)[]): HTMLElement {
  return h(
    'div',
    { class: 'step-head' },
    h('a', { href: `#step-${s.i}`, class: 'n' }, `#${s.i}`),
    ' ',
    h('b', {}, label),
    ` · ${offset(t, s.at)}`,
    s.duration_ms === null ? '' : ` · ${seconds(s.duration_ms)}`,
    ...more,
  );
}

/** A tool's input: a JSON object's fields one by one (strings as they are), else its text. */
function toolInput(input: string): HTMLElement {
  let parsed: unknown;
  try {
    parsed = JSON.parse(input);
  } catch {
    return folded(input, 'input');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return folded(input, 'input');
  const fields = Object.entries(parsed as Record<string, unknown>).map(([k, v]) =>
    h(
      'div',
      { class: 'arg' },
      h('div', { class: 'field' }, k),
      folded(typeof v === 'string' ? v : JSON.stringify(v, null, 2), 'input'),
    ),
  );
  return h('div', { class: 'input' }, ...fields);
}

function tokens(s: Of<'model'>): string {
  const t = s.tokens;
  const input = (t.input ?? 0) + (t.cache_read ?? 0) + (t.cache_write ?? 0);
  if (t.input === null && t.output === null) return ' · tokens not reported';
  return ` · ${input} in${t.cache_read ? ` (${t.cache_read} cached)` : ''} / ${t.output ?? 0} out`;
}

/** A harness's text for the model: a system or developer message, or only system reminders. */
export function isSystemText(role: string, text: string): boolean {
  if (role === 'system' || role === 'developer') return true;
  const rest = text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/gu, '').trim();
  return rest === '' && text.includes('<system-reminder>');
}

function stepBody(t: Trajectory, s: Exclude<Step, StopStep>): Array<HTMLElement | string> {
  switch (s.kind) {
    case 'message':
      return [
        head(t, s, s.role),
        isSystemText(s.role, s.text) ? foldedAway(s.text, 'system text') : folded(s.text, 'text'),
      ];
    case 'model': {
      const status =
        s.outcome === 'complete' ? '' : ` · ${s.outcome}${s.reason ? ` (${s.reason})` : ''}`;
      return [
        head(
          t,
          s,
          s.side ? 'model (side request)' : 'model',
          `${tokens(s)}${status}`,
          ` · call ${s.call}`,
        ),
        s.text === null ? h('div', { class: 'small' }, 'no text') : folded(s.text, 'text'),
      ];
    }
    case 'tool':
      return [
        head(t, s, `tool ${s.name}`, s.is_error ? tag('error', 'ko') : ''),
        toolInput(s.input),
        h('div', { class: 'field' }, 'output'),
        s.output === null
          ? h('div', { class: 'small' }, 'no result sent back')
          : folded(s.output, 'output'),
      ];
    case 'gh':
      return [
        head(
          t,
          s,
          'gh',
          ` · exit ${s.exit_code}`,
          s.played ? '' : tag('not played', 'ko'),
          s.marks_ready ? tag('marks ready', 'wn') : '',
        ),
        h('pre', { class: 'args' }, `gh ${s.args}`),
        s.stdout ? folded(s.stdout, 'output') : '',
        s.stderr ? folded(s.stderr, 'output') : '',
      ];
    case 'output':
      return [
        head(t, s, s.stream === 'transcript' ? "agent's own stream (a claim)" : s.stream),
        folded(s.text, 'output'),
      ];
  }
}

/** One step as an element with id step-N (a stop is a section mark). */
export function stepElement(t: Trajectory, s: Step): HTMLElement {
  if (s.kind === 'stop') return stopElement(t, s);
  const side = s.kind === 'model' && s.side ? ' side' : '';
  return h(
    'div',
    {
      class: `step step-${s.kind}${side}`,
      id: `step-${s.i}`,
      'data-i': s.i,
      'data-kind': s.kind,
      'data-role': s.kind === 'message' ? s.role : undefined,
    },
    ...stepBody(t, s),
  );
}

function pullLine(s: StopStep): HTMLElement {
  if (!s.pull) return h('div', {}, tag('no PR'));
  const p = s.pull;
  return h(
    'div',
    {},
    tag(`PR #${p.number} ${p.state.toLowerCase()}`),
    p.draft ? tag('draft', 'ok') : tag('ready', 'ko'),
    p.described === null
      ? tag('described ?')
      : p.described
        ? tag('described', 'ok')
        : tag('stale description', 'ko'),
    ` ${p.title}`,
  );
}

/** A stop: what the host measured at the end of the turn. */
export function stopElement(t: Trajectory, s: StopStep): HTMLElement {
  const d = s.diff;
  const a = s.agent;
  const probes = Object.entries(s.probes).map(([name, p]) =>
    h(
      'div',
      {},
      h('div', { class: 'field' }, `probe ${name}: ${p.command} (exit ${p.exit_code ?? 'none'})`),
      folded(p.stdout + p.stderr, 'output'),
    ),
  );
  return h(
    'section',
    {
      class: 'step stop',
      id: `step-${s.i}`,
      'data-i': s.i,
      'data-kind': 'stop',
      'data-turn': s.turn,
    },
    h(
      'h3',
      {},
      `Stop · turn ${s.turn} · ${s.phase} · `,
      tag(`${s.stop_kind ?? 'no kind'}${s.hand_over ? ' ⇥' : ''}`),
      h(
        'span',
        { class: 'small' },
        ` ${offset(t, s.at)} · turn took ${seconds(s.duration_ms)} · exit ${s.exit_code ?? 'none'}`,
      ),
    ),
    pullLine(s),
    h(
      'div',
      { class: 'small diff' },
      `diff: ${d.files_added} added, ${d.files_modified} modified, ${d.files_deleted} deleted files; +${d.lines_added} −${d.lines_removed} lines; ${d.untracked} untracked · branch ${s.branch ?? 'none'}`,
    ),
    a
      ? h(
          'div',
          { class: 'small' },
          `witnessed: ${a.model_requests} model requests, ${a.tool_calls} tool calls, ${a.tokens_in} in / ${a.tokens_out} out tokens${a.cost_usd === null ? '' : `, $${a.cost_usd}`}`,
        )
      : '',
    refusedFlag(s),
    ...(a?.disagreements ?? []).map((x) =>
      h('div', { class: 'small' }, tag('stream disagrees', 'ko'), x),
    ),
    s.final_message === null
      ? ''
      : h(
          'div',
          {},
          h(
            'div',
            { class: 'field' },
            'final message',
            s.final_step === null
              ? ''
              : h('a', { href: `#step-${s.final_step}` }, ` (step #${s.final_step})`),
          ),
          folded(s.final_message, 'text'),
        ),
    s.patch === null
      ? ''
      : h(
          'details',
          { class: 'patch' },
          h('summary', {}, 'the diff at this stop'),
          folded(s.patch, 'patch'),
        ),
    probes.length === 0
      ? ''
      : h('details', {}, h('summary', {}, `probes (${probes.length})`), ...probes),
  );
}
