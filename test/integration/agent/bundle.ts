import { build } from 'esbuild';
import { chmod } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Bundles stand-in/<name>/main.ts the way scripts/bundle-stand-ins.mjs does,
 * into `outDir/<file>`. Tests bundle into a temporary folder (outside the
 * project's `"type": "module"` package, where a cjs bundle runs as it does in
 * the image) instead of depending on a `npm run build` of the whole project.
 */
export async function bundleStandIn(name: string, outFile: string): Promise<string> {
  await build({
    entryPoints: [path.join(root, 'stand-in', name, 'main.ts')],
    outfile: outFile,
    bundle: true,
    platform: 'node',
    target: 'node18',
    format: 'cjs',
    banner: { js: '#!/usr/bin/env node' },
    legalComments: 'none',
    logLevel: 'warning',
  });
  await chmod(outFile, 0o755);
  return outFile;
}

export const PROJECT_ROOT = root;
