// Bundles each program under stand-in/ (a folder with a main.ts) into one
// standalone file, dist/stand-in/<name>/<name>, with a node shebang: it runs in
// the test image with no node_modules, on the base image's node (>= 18).
import { build } from 'esbuild';
import { chmod, mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const sources = path.join(root, 'stand-in');

// The bundles are CommonJS files with no extension: without this marker, node
// would read them as ES modules (the project's package.json says "module").
await mkdir(path.join(root, 'dist', 'stand-in'), { recursive: true });
await writeFile(path.join(root, 'dist', 'stand-in', 'package.json'), '{ "type": "commonjs" }\n');

for (const name of (await readdir(sources)).sort()) {
  const entry = path.join(sources, name, 'main.ts');
  if (!(await stat(entry).catch(() => undefined))?.isFile()) continue;
  const outfile = path.join(root, 'dist', 'stand-in', name, name);
  await build({
    entryPoints: [entry],
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
  console.log(`bundled stand-in/${name} -> ${path.relative(root, outfile)}`);
}
