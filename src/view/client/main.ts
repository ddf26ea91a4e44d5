/// <reference lib="dom" />
/**
 * The viewer's client: one script for every page, routed by the path (/, /_view/runs,
 * /_view/run/<eval>/<condition>/<n>, /_view/pair/<eval>/<n>/<a>/<b>,
 * /_view/line/<condition>/<baseline>/<measure>). It reads the server's API and builds the page
 * from elements and text nodes: nothing from a run is ever parsed as markup.
 */
import { h, mount } from './dom.js';
import { linePage, overviewPage } from './overview.js';
import { pairPage } from './pair.js';
import { runPage } from './run.js';

function route(): Promise<void> {
  const q = new URLSearchParams(location.search);
  const parts = location.pathname
    .split('/')
    .filter((s) => s !== '')
    .map((s) => decodeURIComponent(s));
  if (parts[0] !== '_view') return overviewPage(q, false);
  const [, page, ...rest] = parts;
  // The report links to /_view/runs/<condition>/<filter>: a path, as its links hold no query.
  if (page === 'runs' && rest.length > 0) {
    q.set('condition', rest[0]!);
    if (rest[1] && rest[1] !== 'all') q.set('filter', rest[1]);
  }
  if (page === 'runs') return overviewPage(q, true);
  if (page === 'run' && rest.length === 3) return runPage(rest[0]!, rest[1]!, Number(rest[2]), q);
  if (page === 'pair' && rest.length === 4)
    return pairPage(rest[0]!, Number(rest[1]), rest[2]!, rest[3]!);
  if (page === 'line' && rest.length === 3) return linePage(rest[0]!, rest[1]!, rest[2]!);
  mount(h('p', {}, 'No such page.'));
  return Promise.resolve();
}

route().catch((error: unknown) => {
  mount(h('p', { class: 'note' }, `Could not show this page: ${String(error)}`));
});
