/**
 * The overview's agents line: in a campaign played by more than one agent (a matrix, a
 * cross-agent campaign), each agent with its runs, each a link to its runs alone.
 */
import type { RunRow } from '../rows.js';
import { h, viewHref } from './dom.js';

export class AgentLinks {
  readonly element: HTMLElement = h('p', { id: 'agents', hidden: '' });

  /** Redrawn from every row seen: shown once two agents have runs. */
  update(rows: Iterable<RunRow>): void {
    const counts = new Map<string, number>();
    for (const r of rows) counts.set(r.agent, (counts.get(r.agent) ?? 0) + 1);
    if (counts.size < 2) {
      this.element.setAttribute('hidden', '');
      return;
    }
    this.element.removeAttribute('hidden');
    const links = [...counts]
      .sort((a, b) => a[0].localeCompare(b[0]))
      .flatMap(([agent, n], i) => [
        ...(i > 0 ? [' · '] : []),
        h(
          'a',
          { href: viewHref(['runs'], new URLSearchParams({ agent })), 'data-agent': agent },
          `${agent} (${n} runs)`,
        ),
      ]);
    this.element.replaceChildren('Agents: ', ...links);
  }
}
