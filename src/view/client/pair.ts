/// <reference lib="dom" />
import type { Trajectory } from '../../trajectory/types.js';
import { runDetail } from './data.js';
import { h, mount, viewHref } from './dom.js';
import { runHref } from './runs.js';
import { stepElement } from './steps.js';

function turnsOf(t: Trajectory | null): number[] {
  return t === null ? [] : [...new Set(t.steps.map((s) => s.turn))];
}

function cell(t: Trajectory | null, turn: number, stop: boolean): HTMLElement {
  if (t === null) return h('div', { class: 'cell' }, h('p', { class: 'small' }, 'no such run'));
  const steps = t.steps.filter((s) => s.turn === turn && (s.kind === 'stop') === stop);
  if (stop && steps.length === 0)
    return h('div', { class: 'cell' }, h('p', { class: 'small' }, `no stop at turn ${turn}`));
  return h(
    'div',
    { class: `cell${stop ? ' stop-cell' : ''}`, 'data-turn': turn },
    ...steps.map((s) => stepElement(t, s)),
  );
}

/**
 * The same eval and run number under two conditions, side by side: each turn's steps in two
 * columns, and the turn's two stops on one row (with their diffs), so stops line up.
 */
export async function pairPage(evalId: string, n: number, a: string, b: string): Promise<void> {
  const [left, right] = await Promise.all([
    runDetail(evalId, a, n).catch(() => null),
    runDetail(evalId, b, n).catch(() => null),
  ]);
  const l = left?.trajectory ?? null;
  const r = right?.trajectory ?? null;
  const turns = [...new Set([...turnsOf(l), ...turnsOf(r)])].sort((x, y) => x - y);
  const grid = h(
    'div',
    { class: 'pair', id: 'pair' },
    h(
      'div',
      { class: 'cell head' },
      h('h2', {}, h('a', { href: runHref({ eval: evalId, condition: a, run: n }) }, a)),
    ),
    h(
      'div',
      { class: 'cell head' },
      h('h2', {}, h('a', { href: runHref({ eval: evalId, condition: b, run: n }) }, b)),
    ),
  );
  for (const turn of turns) {
    grid.append(
      cell(l, turn, false),
      cell(r, turn, false),
      cell(l, turn, true),
      cell(r, turn, true),
    );
  }
  mount(
    h('h1', {}, `${evalId} / run-${String(n).padStart(2, '0')}: ${a} | ${b}`),
    h(
      'p',
      { class: 'small' },
      "Each turn's steps side by side; each row of stops lines the two runs up at the end of the same turn. ",
      h('a', { href: viewHref(['pair', evalId, n, b, a]) }, 'swap sides'),
    ),
    grid,
  );
}
