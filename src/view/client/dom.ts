/// <reference lib="dom" />
/**
 * Building the page: elements and text nodes only. Every string from a run is the agent's or
 * the model's: it becomes a text node (or an attribute value set through the DOM), never markup.
 */
type Child = Node | string | null | undefined | false;
type Attrs = Readonly<Record<string, string | number | boolean | undefined>>;

/** An element with attributes and children; strings are text. */
export function h(tag: string, attrs: Attrs = {}, ...children: Child[]): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === false) continue;
    el.setAttribute(k, v === true ? '' : String(v));
  }
  append(el, children);
  return el;
}

export function append(el: Element, children: readonly Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(typeof c === 'string' ? document.createTextNode(c) : c);
  }
}

/** A link inside the viewer: path segments encoded one by one, never a scheme or a host. */
export function viewHref(segments: readonly (string | number)[], query?: URLSearchParams): string {
  const path = `/_view/${segments.map((s) => encodeURIComponent(String(s))).join('/')}`;
  const q = query?.toString();
  return q ? `${path}?${q}` : path;
}

/** A file of the campaign folder, served as text. */
export function fileHref(segments: readonly (string | number)[]): string {
  return `/${segments.map((s) => encodeURIComponent(String(s))).join('/')}`;
}

const FOLD_LINES = 14;
const FOLD_CHARS = 1600;

/**
 * A long text, folded: its first lines, and a button that shows the rest. Short texts are
 * shown whole.
 */
export function folded(text: string, cls = ''): HTMLElement {
  const lines = text.split('\n');
  const pre = h('pre', { class: cls || undefined });
  if (lines.length <= FOLD_LINES && text.length <= FOLD_CHARS) {
    pre.textContent = text;
    return pre;
  }
  let head = lines.slice(0, FOLD_LINES).join('\n');
  if (head.length > FOLD_CHARS) head = head.slice(0, FOLD_CHARS);
  pre.textContent = `${head}…`;
  const button = h(
    'button',
    { type: 'button', class: 'unfold' },
    `show all (${lines.length} lines, ${text.length} characters)`,
  );
  button.addEventListener('click', () => {
    pre.textContent = text;
    button.remove();
  });
  return h('div', { class: 'folded' }, pre, button);
}

export function tag(text: string, cls = ''): HTMLElement {
  return h('span', { class: `tag${cls ? ` ${cls}` : ''}` }, text);
}

/** Replaces the page's main content. */
export function mount(...children: Child[]): HTMLElement {
  const main = document.getElementById('main')!;
  main.replaceChildren();
  append(main, children);
  return main;
}

export function pct(v: number | null | undefined): string {
  return v === null || v === undefined ? 'n/a' : `${(v * 100).toFixed(1)}%`;
}

export function seconds(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) return '';
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
