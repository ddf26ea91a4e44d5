/// <reference lib="dom" />
import { runDiffs, type RunRow } from './data.js';
import { append, folded, h } from './dom.js';

/**
 * The run's diff beside its eval's reference diff (a mined task's commit), when the eval has
 * one: both as text (folded when long), never markup. Empty for an eval with no reference.
 */
export function diffSection(row: RunRow): HTMLElement {
  const section = h('section', { id: 'diffs' });
  runDiffs(row.eval, row.condition, row.run).then(
    (d) => {
      if (d.reference === null) return;
      append(section, [
        h('h2', {}, 'Diff beside the reference'),
        h(
          'div',
          { class: 'pair' },
          h('div', { class: 'cell' }, h('h3', {}, "the run's diff"), folded(d.run ?? '(none)')),
          h(
            'div',
            { class: 'cell' },
            h('h3', {}, `the reference (${d.reference_path ?? ''})`),
            folded(d.reference),
          ),
        ),
      ]);
    },
    (error: Error) => append(section, [h('p', { class: 'note' }, `no diffs: ${error.message}`)]),
  );
  return section;
}
