/**
 * The project's root: the nearest folder above a module with the project's package.json
 * (and its docker/ folder). Works from src/ (tsx) and from dist/src/ (built): the bundles
 * `npm run build` writes are found under its dist/.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export function projectRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'docker'))) {
      return dir;
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no project root above ${from}`);
    dir = up;
  }
}
