/// <reference lib="dom" />
/**
 * What may make a run not measure its condition, as the pages flag it: the tool calls the
 * agent refused to run, and whether each staged file reached the model and a skill was used.
 * Every name here is a file's, the model's or the agent's: text nodes only, as everywhere.
 */
import type { StopStep, Trajectory } from '../../trajectory/types.js';
import type { BenchmarkFile } from './data.js';
import { h, tag } from './dom.js';

type Staged = NonNullable<Trajectory['treatment']>['staged'][number];

/** A stop's flag for the calls its turn's agent refused: they never ran. */
export function refusedFlag(s: StopStep): HTMLElement | '' {
  const n = s.agent?.tool_calls_refused ?? 0;
  if (n === 0) return '';
  const names = Object.entries(s.agent?.refused_by_name ?? {})
    .map(([name, k]) => `${name} ×${k}`)
    .join(', ');
  return h(
    'div',
    { class: 'small refused', 'data-refused': n },
    tag(`⚠ ${n} tool call${n === 1 ? '' : 's'} refused by the agent`, 'ko'),
    names ? ` ${names}: ` : ' ',
    'its own policy blocked them, so they never ran',
  );
}

function loadedTag(s: Staged): HTMLElement {
  if (s.reached === true) return tag('loaded', 'ok');
  if (s.reached === false) return tag('not loaded', 'ko');
  return tag('undecided', 'wn');
}

function usedTag(s: Staged): HTMLElement | '' {
  if (s.kind !== 'skill' || s.used === undefined) return '';
  return s.used ? tag('used', 'ok') : tag('not used', 'wn');
}

function stagedItem(s: Staged): HTMLElement {
  return h(
    'li',
    {
      'data-path': s.path,
      'data-reached': String(s.reached),
      'data-used': s.used === undefined ? undefined : String(s.used),
    },
    loadedTag(s),
    usedTag(s),
    s.kind === 'skill' ? `skill ${s.name ?? '?'} (${s.path})` : s.path,
    s.loads === false ? ' · a path the agent does not load' : '',
    s.first_call === null ? '' : ` · first sent in model call ${s.first_call}`,
    s.used && s.first_use_call ? ` · used in model call ${s.first_use_call}` : '',
    s.listed_by_agent === false ? ' · the agent did not list it' : '',
    s.reached === null
      ? h(
          'div',
          { class: 'small undecided' },
          `could not be decided: ${s.undecided ?? 'no reason recorded'}`,
        )
      : '',
  );
}

/** The run's treatment check: each staged file loaded, not loaded or undecided, and used or not. */
export function treatmentSection(t: Trajectory): HTMLElement | '' {
  const staged = t.treatment?.staged ?? [];
  if (staged.length === 0) return '';
  return h(
    'section',
    { id: 'treatment' },
    h('h2', {}, 'Treatment'),
    h(
      'p',
      { class: 'small' },
      'Loaded: the staged file reached the model. Used: the model used the skill. Loaded is not used.',
    ),
    h('ul', {}, ...staged.map(stagedItem)),
  );
}

/** The overview's first lines, as the report's: its warnings, then the treatment per condition. */
export function firstLines(b: BenchmarkFile): HTMLElement[] {
  const notes = [...(b.treatment_warnings ?? []), ...(b.refusal_warnings ?? [])].map((w) =>
    h('p', { class: 'note', 'data-condition': w.condition }, `⚠ ${w.text}.`),
  );
  const lines = (b.treatment ?? []).flatMap((t) => [
    h('li', { class: 'treatment-line' }, t.text),
    ...(t.by_use ? [h('li', { class: 'by-use' }, t.by_use.text)] : []),
  ]);
  return lines.length === 0 ? notes : [...notes, h('ul', { class: 'treatment-summary' }, ...lines)];
}
