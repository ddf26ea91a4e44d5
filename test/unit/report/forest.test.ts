import { expect } from 'chai';
import { axisHalfWidth, forestTree, rowValue, type ForestRow } from '../../../src/report/forest.js';
import { treeHtml, type TreeNode } from '../../../src/report/tree.js';

const row = (
  key: string,
  difference: number,
  ci: [number, number] | null,
  significant: boolean,
): ForestRow => ({
  label: key,
  difference,
  ci,
  significant,
  key,
});

/** Every element of the tree, depth first. */
function all(node: TreeNode): TreeNode[] {
  return [node, ...node.children.flatMap((c) => (typeof c === 'string' ? [] : all(c)))];
}

describe('report/forest', () => {
  it('widens its axis to the widest bound, by quarters, at most 100 points', () => {
    expect(axisHalfWidth([row('a', 0.1, [-0.05, 0.2], false)])).to.equal(0.25);
    expect(axisHalfWidth([row('a', 0.4, [0.05, 0.7], true)])).to.equal(0.75);
    expect(axisHalfWidth([row('a', -0.9, [-1, -0.6], true)])).to.equal(1);
  });

  it('puts each marker and interval where its figures say, zero in the middle', () => {
    const tree = forestTree(
      't',
      [row('big', 0.4, [0.05, 0.7], true), row('none', -0.1, null, false)],
      'c',
    )!;
    const nodes = all(tree);
    // The axis runs from 300 to 620 px over -75..+75 points: 320/150 px a point.
    const px = (points: number): number => 300 + ((points + 75) / 150) * 320;
    const zero = nodes.find((n) => n.attrs.class === 'zero')!;
    expect(Number(zero.attrs.x1)).to.be.closeTo(px(0), 0.05);
    const big = nodes.find((n) => n.attrs['data-key'] === 'big')!;
    const square = big.children.find((c) => typeof c !== 'string' && c.tag === 'rect') as TreeNode;
    expect(Number(square.attrs.x) + 4).to.be.closeTo(px(40), 0.05);
    const interval = nodes.find((n) => n.tag === 'line' && n.attrs.x1 === px(5).toFixed(1))!;
    expect(Number(interval.attrs.x2)).to.be.closeTo(px(70), 0.05);
    const none = nodes.find((n) => n.attrs['data-key'] === 'none')!;
    const circle = none.children.find(
      (c) => typeof c !== 'string' && c.tag === 'circle',
    ) as TreeNode;
    expect(Number(circle.attrs.cx)).to.be.closeTo(px(-10), 0.05);
  });

  it('says each value in points, and draws nothing without rows', () => {
    expect(rowValue(row('a', 0.4, [0.05, 0.7], true))).to.equal('+40 pts [+5, +70]');
    expect(rowValue(row('a', -0.22, [-0.53, 0.11], false))).to.equal('−22 pts [−53, +11]');
    expect(forestTree('t', [], 'c')).to.equal(null);
  });

  it('escapes every label: a measure or condition name is never markup', () => {
    const html = treeHtml(forestTree('<b>', [row('"><script>x</script>', 0.2, null, false)], 'c')!);
    expect(html).to.not.include('<script');
    expect(html).to.include('&lt;script&gt;');
    expect(html).to.not.include('<b>');
  });
});
