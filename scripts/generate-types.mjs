// The JSON Schemas are the contracts; the TypeScript types of the files they
// describe are generated from them, never written by hand beside them. Each
// schema in SCHEMAS gets a <name>.ts beside it with its types (one file per
// schema: two schemas may both name a `$defs/codebase`).
//
//   node scripts/generate-types.mjs           # writes the generated files (npm run build does)
//   node scripts/generate-types.mjs --check   # exit 1 when one is stale (npm run lint does)
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile } from 'json-schema-to-typescript';
import prettier from 'prettier';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Each schema (relative to the project) and the name of its root type. */
export const SCHEMAS = [
  ['stand-in/gh/schemas/call.schema.json', 'GhCall'],
  ['stand-in/gh/schemas/state.schema.json', 'GhState'],
  ['src/artifacts/schemas/stop.schema.json', 'StopRecord'],
  ['src/artifacts/schemas/run.schema.json', 'RunRecord'],
  ['src/artifacts/schemas/conditions.schema.json', 'ConditionsFile'],
  ['src/artifacts/schemas/grading.schema.json', 'GradingFile'],
  ['src/artifacts/schemas/comparison.schema.json', 'ComparisonFile'],
  ['src/artifacts/schemas/compare.schema.json', 'CompareFile'],
  ['src/config/evals.schema.json', 'RawEvalSet'],
  ['src/artifacts/schemas/benchmark.schema.json', 'BenchmarkFile'],
  ['src/report/review.schema.json', 'ReviewFile'],
  ['src/artifacts/schemas/model-call.schema.json', 'ModelCall'],
  ['src/artifacts/schemas/model-record.schema.json', 'ModelRecordFile'],
  ['src/trajectory/trajectory.schema.json', 'Trajectory'],
];

/**
 * The schema without the titles of its inner parts: json-schema-to-typescript makes a named
 * type of every titled part (the eval set titles each field for editors), where the caller
 * wants one type per `$defs` entry. A property named `title` is kept.
 */
function withoutInnerTitles(value) {
  if (Array.isArray(value)) return value.map(withoutInnerTitles);
  if (value === null || typeof value !== 'object') return value;
  const out = {};
  for (const [key, v] of Object.entries(value)) {
    if (key === 'title' && typeof v === 'string') continue;
    out[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(v).map(([k, p]) => [k, withoutInnerTitles(p)]))
        : withoutInnerTitles(v);
  }
  return out;
}

/** The generated file's path for a schema: run.schema.json -> run.ts. */
export function generatedPath(schemaFile) {
  return schemaFile.replace(/\.schema\.json$/u, '.ts');
}

/** The generated TypeScript for one schema, formatted as the project formats its code. */
export async function generate(schemaFile, rootName) {
  const file = path.join(root, schemaFile);
  const schema = JSON.parse(await readFile(file, 'utf8'));
  // The root type takes its name from the table, not from the schema's title or $id.
  const { title, $id: _id, ...rest } = schema;
  const top = { ...withoutInnerTitles(rest), description: rest.description ?? title };
  const body = await compile(top, rootName, {
    bannerComment: '',
    additionalProperties: false,
    cwd: path.dirname(file),
    format: false,
  });
  const banner =
    `// Generated from ${path.basename(schemaFile)} by scripts/generate-types.mjs: do not edit.\n` +
    '// Change the schema, then run `npm run build` (or node scripts/generate-types.mjs).\n\n';
  const out = path.join(root, generatedPath(schemaFile));
  const options = { ...(await prettier.resolveConfig(out)), filepath: out };
  return prettier.format(banner + body, options);
}

async function main(check) {
  const stale = [];
  for (const [schemaFile, rootName] of SCHEMAS) {
    const want = await generate(schemaFile, rootName);
    const out = path.join(root, generatedPath(schemaFile));
    const have = await readFile(out, 'utf8').catch(() => undefined);
    if (have === want) continue;
    if (check) stale.push(path.relative(root, out));
    else await writeFile(out, want);
  }
  if (stale.length > 0) {
    console.error(
      `generated types out of date with their schemas: ${stale.join(', ')}\n` +
        'run `node scripts/generate-types.mjs` and commit the result',
    );
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main(process.argv.includes('--check'));
}
