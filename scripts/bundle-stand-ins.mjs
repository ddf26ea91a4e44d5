// Bundles each program under stand-in/ (a folder with a main.ts) into one
// standalone file, dist/stand-in/<name>/<name>, with a node shebang: it runs in
// the test image with no node_modules, on the base image's node (>= 18).
//
// Tests and benchmarks import bundleStandIn to bundle one into a folder of theirs.
//
// It also bundles the reaper (src/runtime/reaper/main.ts), a program of the host's, into
// dist/reaper/reaper.cjs: run by node alone, whatever loader the orchestrator ran under.
import { build } from 'esbuild';
import { chmod, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sources = path.join(PROJECT_ROOT, 'stand-in');

/** Bundles stand-in/<name>/main.ts into `outfile` (executable). Returns outfile. */
export async function bundleStandIn(name, outfile) {
  await build({
    entryPoints: [path.join(sources, name, 'main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node18',
    format: 'cjs',
    banner: { js: '#!/usr/bin/env node' },
    legalComments: 'none',
    logLevel: 'warning',
  });
  await chmod(outfile, 0o755);
  return outfile;
}

/**
 * A cluster's sweep (kubernetes-api.ts, with the cluster's client inside) goes in a bundle of
 * its own beside the reaper's, loaded by the reaper only for a cluster: inside, it doubled a
 * Docker engine's reaper's start (scripts/bench/reaper-start.ts).
 */
const CLUSTER_SWEEP = './kubernetes-api.js';
const CLUSTER_BUNDLE = 'kubernetes-api.cjs';

const clusterSweepApart = {
  name: 'cluster-sweep-apart',
  setup(b) {
    b.onResolve({ filter: /^\.\/kubernetes-api\.js$/ }, () => ({
      path: `./${CLUSTER_BUNDLE}`,
      external: true,
    }));
  },
};

const reaperBuild = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  legalComments: 'none',
  logLevel: 'warning',
};

/**
 * Bundles the reaper's program into `outfile`, and its cluster sweep beside it; ssh2 stays
 * outside (it has native parts). `together` puts the cluster sweep inside (the benchmark's
 * other side). Returns outfile.
 */
export async function bundleReaper(outfile, { together = false } = {}) {
  const reaper = path.join(PROJECT_ROOT, 'src', 'runtime', 'reaper');
  await build({
    ...reaperBuild,
    entryPoints: [path.join(reaper, 'main.ts')],
    outfile,
    external: ['ssh2'],
    plugins: together ? [] : [clusterSweepApart],
  });
  if (!together)
    await build({
      ...reaperBuild,
      entryPoints: [path.join(reaper, CLUSTER_SWEEP.replace(/\.js$/u, '.ts'))],
      outfile: path.join(path.dirname(outfile), CLUSTER_BUNDLE),
    });
  return outfile;
}

async function main() {
  const dist = path.join(PROJECT_ROOT, 'dist', 'stand-in');
  // The bundles are CommonJS files with no extension: without this marker, node
  // would read them as ES modules (the project's package.json says "module").
  await mkdir(dist, { recursive: true });
  await writeFile(path.join(dist, 'package.json'), '{ "type": "commonjs" }\n');
  for (const name of (await readdir(sources)).sort()) {
    const entry = path.join(sources, name, 'main.ts');
    if (!(await stat(entry).catch(() => undefined))?.isFile()) continue;
    const outfile = await bundleStandIn(name, path.join(dist, name, name));
    console.log(`bundled stand-in/${name} -> ${path.relative(PROJECT_ROOT, outfile)}`);
  }
  const reaper = await bundleReaper(path.join(PROJECT_ROOT, 'dist', 'reaper', 'reaper.cjs'));
  console.log(`bundled src/runtime/reaper -> ${path.relative(PROJECT_ROOT, reaper)}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main();
}
