import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { circles, folderGraph, folderOf, importGraph, importsOfCli } from '../../scripts/layers.js';

const src = fileURLToPath(new URL('../../src/', import.meta.url));

/** The names the files of `folder` import from runtime/, each with the files that take it. */
function runtimeNamesIn(graph: ReadonlyMap<string, readonly string[]>, folder: string) {
  const names = new Map<string, string[]>();
  for (const file of graph.keys()) {
    if (!file.startsWith(`${folder}/`)) continue;
    const text = readFileSync(path.join(src, file), 'utf8');
    for (const m of text.matchAll(
      /import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'[./]+\/runtime\//gu,
    )) {
      for (const raw of m[1]!.split(',')) {
        const name = raw.replace(/^\s*type\s+/u, '').trim();
        if (name) names.set(name, [...(names.get(name) ?? []), file]);
      }
    }
  }
  return names;
}

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

  it('has no import circle between files anywhere in src/', () => {
    expect(circles(graph)).to.deep.equal([]);
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

  it('has campaign/ take its engines through the sandbox seam: no gate, health, reaper, watch, container or image build of runtime/, no instanceof on a provider', () => {
    // What is left is the process's own (a signal's clean-up, a lock holder's liveness) and
    // doctor's look at DOCKER_HOST's engine with evalrig's default limits, outside any campaign:
    // none owns an engine's lifecycle, and images are built through the provider.
    const allowed = new Set(['onInterrupt', 'isProcessAlive', 'connectDocker', 'DEFAULT_LIMITS']);
    const taken = runtimeNamesIn(graph, 'campaign');
    expect([...taken.keys()].filter((n) => !allowed.has(n))).to.deep.equal([]);
    const phases = [...taken.values()].flat().filter((f) => f.startsWith('campaign/phases/'));
    expect(phases, 'the phases take from runtime/ only the signal hook (guard)').to.deep.equal([
      'campaign/phases/guard.ts',
    ]);
    const lending = [...graph.keys()]
      .filter((f) => f.startsWith('campaign/'))
      .filter((f) => /dockerClients\s*\?*\.?\(/u.test(readFileSync(path.join(src, f), 'utf8')));
    expect(
      lending,
      "images are built on the provider's engine it lends (buildImage)",
    ).to.deep.equal([]);
    const instanceOf = [...graph.keys()]
      .filter((f) => f.startsWith('campaign/'))
      .filter((f) =>
        /instanceof\s+(EnginePool|LocalDockerProvider|RemoteDockerProvider)\b/u.test(
          readFileSync(path.join(src, f), 'utf8'),
        ),
      );
    expect(instanceOf).to.deep.equal([]);
  });
});
