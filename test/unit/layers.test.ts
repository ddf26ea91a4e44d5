import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { circles, folderGraph, folderOf, importGraph, importsOfCli } from '../../scripts/layers.js';

const src = fileURLToPath(new URL('../../src/', import.meta.url));

/**
 * The floors of src/'s layering already reached (scripts/layers.ts lists every break): data
 * flows one way, so a folder that reads a campaign never imports the verbs, and its files
 * form no circle.
 */
describe('the layering of src/', () => {
  const graph = importGraph(src);

  it('finds the imports it checks (type imports included)', () => {
    expect(graph.get('report/write.ts')).to.include('report/benchmark.ts');
    expect(graph.get('report/benchmark.ts')).to.include('report/stats.ts');
  });

  it('has nothing below cli/ import from it', () => {
    expect(importsOfCli(graph)).to.deep.equal([]);
  });

  it('has no circle between folders: no import runs up (model-stand-in/ does not import config/)', () => {
    expect(circles(folderGraph(graph))).to.deep.equal([]);
  });

  for (const folder of [
    'report',
    'compare',
    'judge',
    'campaign',
    'campaign-folder',
    'artifacts',
    'runtime',
    'model-stand-in',
  ]) {
    it(`has no import circle in ${folder}/`, () => {
      const inside = circles(graph).filter((c) => c.some((f) => folderOf(f) === folder));
      expect(inside).to.deep.equal([]);
    });
  }
});
