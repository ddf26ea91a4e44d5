/**
 * Lists what breaks the layering of src/: import circles between files,
 * circles between folders (one of their imports runs up), and imports of
 * cli/ from below it. Type imports count: a circle of types is a circle of
 * concepts.
 *
 *   node --import tsx scripts/layers.ts        # prints them; exit 1 when any
 *
 * test/unit/layers.test.ts holds the floors already reached.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** One file's imports of other files of src/, by path relative to src/ ('/'-separated). */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'|import\('(\.[^']+)'\)/gu;

/** The import graph of every .ts file under `srcDir`. */
export function importGraph(srcDir: string): ImportGraph {
  const graph = new Map<string, string[]>();
  const files = readdirSync(srcDir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => f.split(path.sep).join('/'));
  const known = new Set(files);
  for (const file of files) {
    const text = readFileSync(path.join(srcDir, file), 'utf8');
    const targets = new Set<string>();
    for (const m of text.matchAll(IMPORT)) {
      const spec = (m[1] ?? m[2])!;
      const target = path.posix.join(path.posix.dirname(file), spec).replace(/\.js$/u, '.ts');
      if (known.has(target)) targets.add(target);
    }
    graph.set(file, [...targets].sort());
  }
  return graph;
}

/** The strongly connected parts of a graph with more than one node: its circles. */
export function circles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const part: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      part.push(w);
    } while (w !== v);
    if (part.length > 1) found.push(part.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found.sort((a, b) => (a[0]! < b[0]! ? -1 : 1));
}

/** A file's folder under src/ (its first segment; a file at the top is its own). */
export const folderOf = (file: string): string => file.split('/')[0]!.replace(/\.ts$/u, '');

/** The graph between folders: one edge per folder a file of another imports. */
export function folderGraph(graph: ImportGraph): Map<string, string[]> {
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    const set = folders.get(from) ?? new Set<string>();
    for (const t of targets) if (folderOf(t) !== from) set.add(folderOf(t));
    folders.set(from, set);
  }
  return new Map([...folders].map(([k, v]) => [k, [...v].sort()]));
}

/** Imports of cli/ from files outside it: nothing below the verbs may use them. */
export function importsOfCli(graph: ImportGraph): string[] {
  const found: string[] = [];
  for (const [file, targets] of graph) {
    if (folderOf(file) === 'cli') continue;
    for (const t of targets) if (folderOf(t) === 'cli') found.push(`${file} -> ${t}`);
  }
  return found.sort();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const src = fileURLToPath(new URL('../src/', import.meta.url));
  const graph = importGraph(src);
  const fileCircles = circles(graph);
  const folderCircles = circles(folderGraph(graph));
  const cli = importsOfCli(graph);
  for (const c of fileCircles) console.log(`file circle: ${c.join(' <-> ')}`);
  for (const c of folderCircles) console.log(`folder circle: ${c.join(' <-> ')}`);
  for (const i of cli) console.log(`import of cli/ from below: ${i}`);
  const total = fileCircles.length + folderCircles.length + cli.length;
  console.log(total === 0 ? 'no circle, no import of cli/ from below' : `${total} found`);
  process.exitCode = total === 0 ? 0 : 1;
}
