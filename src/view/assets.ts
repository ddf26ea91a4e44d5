import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { APP_CSS } from './client/style.js';

/** The viewer's page, its script and its style: all the server sends of its own. */
export interface ClientAssets {
  readonly shell: string;
  readonly script: string;
  readonly css: string;
}

/** The one page every view route answers with: no inline script, no inline style. */
const SHELL = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>evalrig view</title>
<link rel="stylesheet" href="/_assets/app.css">
<script type="module" src="/_assets/app.js"></script>
</head>
<body>
<header id="top"><a href="/" class="home">evalrig view</a> <span id="campaign"></span> <span id="live" class="small"></span></header>
<main id="main"><p class="small">Loading…</p></main>
</body>
</html>
`;

/**
 * The client, bundled at build time into ./assets/app.js (scripts/bundle-view.mjs); when
 * evalrig runs from its sources (tests), bundled here once with esbuild, a dev dependency.
 */
export async function clientAssets(): Promise<ClientAssets> {
  const built = new URL('./assets/app.js', import.meta.url);
  const script = await readFile(built, 'utf8').catch(() => bundleFromSources());
  return { shell: SHELL, script: await script, css: APP_CSS };
}

let bundled: Promise<string> | undefined;

async function bundleFromSources(): Promise<string> {
  bundled ??= (async () => {
    const { build } = await import('esbuild');
    const entry = fileURLToPath(new URL('./client/main.ts', import.meta.url));
    const out = await build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      format: 'esm',
      target: 'es2022',
      legalComments: 'none',
      logLevel: 'warning',
    });
    return out.outputFiles[0]!.text;
  })();
  return bundled;
}
