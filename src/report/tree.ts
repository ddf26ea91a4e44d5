/**
 * A picture as data: elements, attributes and text, no markup. report.html writes it as
 * escaped HTML; the viewer's client builds the same tree with the DOM. One owner of the
 * geometry, two renderers, and neither can be handed markup by what it draws.
 */
import { esc } from './format.js';

export interface TreeNode {
  readonly tag: string;
  readonly attrs: Readonly<Record<string, string>>;
  readonly children: readonly (TreeNode | string)[];
}

/** An element of the tree. */
export function el(
  tag: string,
  attrs: Readonly<Record<string, string>>,
  ...children: (TreeNode | string)[]
): TreeNode {
  return { tag, attrs, children };
}

/** The tree as HTML: every attribute value and every text escaped. */
export function treeHtml(node: TreeNode | string): string {
  if (typeof node === 'string') return esc(node);
  const attrs = Object.entries(node.attrs)
    .map(([k, v]) => ` ${k}="${esc(v)}"`)
    .join('');
  return `<${node.tag}${attrs}>${node.children.map(treeHtml).join('')}</${node.tag}>`;
}
