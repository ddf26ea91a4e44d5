// Bundles the viewer's client (src/view/client/main.ts) into dist/src/view/assets/app.js, the
// one script `evalrig view` serves: a browser module, no framework, nothing fetched at run time.
import { build } from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outfile = path.join(root, 'dist', 'src', 'view', 'assets', 'app.js');
await build({
  entryPoints: [path.join(root, 'src', 'view', 'client', 'main.ts')],
  outfile,
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
});
console.log(`bundled src/view/client -> ${path.relative(root, outfile)}`);
