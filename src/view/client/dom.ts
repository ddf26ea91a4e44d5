/// <reference lib="dom" />
/**
 * Building the page: elements and text nodes only. Every string from a run is the agent's or
 * the model's: it becomes a text node (or an attribute value set through the DOM), never markup.
 */
import type { TreeNode } from '../../report/tree.js';
import { withoutEscapes } from '../../untrusted/terminal.js';

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

/** The mark evalrig leaves where it kept only a text's head (src/trajectory/text.ts). */
const CLIPPED = /\n\[evalrig: (\d+) more characters not shown\]$/u;

/** How much a text was: what was kept, and all of it when only its head was kept. */
function sizeOf(text: string): string {
  const lines = text.split('\n').length;
  const clip = CLIPPED.exec(text);
  if (!clip) return `${lines} lines, ${text.length} characters`;
  const kept = text.length - clip[0].length;
  return `${lines - 1} lines, ${kept} of ${kept + Number(clip[1])} characters kept`;
}

/**
 * A long text, folded: its first lines, and a button that shows the rest (saying the text's
 * true size, where only its head was kept). Short texts are shown whole.
 */
export function folded(raw: string, cls = ''): HTMLElement {
  const text = withoutEscapes(raw);
  const lines = text.split('\n');
  const pre = h('pre', { class: cls || undefined });
  if (lines.length <= FOLD_LINES && text.length <= FOLD_CHARS) {
    pre.textContent = text;
    return pre;
  }
  let head = lines.slice(0, FOLD_LINES).join('\n');
  if (head.length > FOLD_CHARS) head = head.slice(0, FOLD_CHARS);
  pre.textContent = `${head}…`;
  const button = h('button', { type: 'button', class: 'unfold' }, `show all (${sizeOf(text)})`);
  button.addEventListener('click', () => {
    pre.textContent = text;
    button.remove();
  });
  return h('div', { class: 'folded' }, pre, button);
}

/**
 * Text a harness wrote for the model, not the user (system reminders, a system or developer
 * message): folded whole behind one line, so that a run opens on what was asked and done.
 */
export function foldedAway(text: string, what: string): HTMLElement {
  const body = folded(text, 'text');
  const button = h(
    'button',
    { type: 'button', class: 'unfold' },
    `show ${what} (${sizeOf(withoutEscapes(text))})`,
  );
  const box = h('div', { class: 'folded system' }, button);
  button.addEventListener('click', () => box.replaceChildren(body));
  return box;
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

const SVG = 'http://www.w3.org/2000/svg';

/** A picture the report module drew as data, built with the DOM (SVG inside its namespace). */
export function fromTree(node: TreeNode | string, inSvg = false): Node {
  if (typeof node === 'string') return document.createTextNode(node);
  const svg = inSvg || node.tag === 'svg';
  const el = svg ? document.createElementNS(SVG, node.tag) : document.createElement(node.tag);
  for (const [k, v] of Object.entries(node.attrs)) el.setAttribute(k, v);
  for (const c of node.children) el.append(fromTree(c, svg));
  return el;
}
