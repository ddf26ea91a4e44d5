// The JSON Schemas are the contracts; the TypeScript types of the files they
// describe are generated from them, never written by hand beside them. Each
// schema in SCHEMAS gets a <name>.ts beside it with its types (one file per
// schema: two schemas may both name a `$defs/codebase`). The eval set's schema takes its
// agent kinds from src/config/agent-kinds.ts first (schema-kinds.mjs).
//
//   node scripts/generate-types.mjs           # writes the generated files (npm run build does)
//   node scripts/generate-types.mjs --check   # exit 1 when one is stale (npm run lint does)
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile } from 'json-schema-to-typescript';
import prettier from 'prettier';
import { KINDS_SCHEMA, loadAgentKinds, withKinds } from './schema-kinds.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Each schema (relative to the project) and the name of its root type. */
export const SCHEMAS = [
  ['stand-in/gh/schemas/call.schema.json', 'GhCall'],
  ['stand-in/gh/schemas/state.schema.json', 'GhState'],
  ['src/artifacts/schemas/stop.schema.json', 'StopRecord'],
  ['src/artifacts/schemas/run.schema.json', 'RunRecord'],
  ['src/artifacts/schemas/conditions.schema.json', 'ConditionsFile'],
  ['src/artifacts/schemas/grading.schema.json', 'GradingFile'],
  ['src/artifacts/schemas/sequential.schema.json', 'SequentialFile'],
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

/** `text` formatted as the project formats the file at `file` (relative to the project). */
async function formatted(text, file) {
  const at = path.join(root, file);
  return prettier.format(text, { ...(await prettier.resolveConfig(at)), filepath: at });
}

/** The eval set's schema as it should read: its agent kinds set from the one list. */
export async function kindsSchema() {
  const text = await readFile(path.join(root, KINDS_SCHEMA), 'utf8');
  return formatted(withKinds(text, await loadAgentKinds()), KINDS_SCHEMA);
}

/**
 * The generated TypeScript for one schema, formatted as the project formats its code;
 * `text`: the schema's, when it is not the file's yet.
 */
export async function generate(schemaFile, rootName, text) {
  const file = path.join(root, schemaFile);
  const schema = JSON.parse(text ?? (await readFile(file, 'utf8')));
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
  return formatted(banner + body, generatedPath(schemaFile));
}

/** Writes `want` to `file` (relative to the project), or in a check names it when it differs. */
async function update(file, want, check, stale) {
  const have = await readFile(path.join(root, file), 'utf8').catch(() => undefined);
  if (have === want) return;
  if (check) stale.push(file);
  else await writeFile(path.join(root, file), want);
}

async function main(check) {
  const stale = [];
  const schema = await kindsSchema();
  await update(KINDS_SCHEMA, schema, check, stale);
  for (const [schemaFile, rootName] of SCHEMAS) {
    const text = schemaFile === KINDS_SCHEMA ? schema : undefined;
    const want = await generate(schemaFile, rootName, text);
    await update(generatedPath(schemaFile), want, check, stale);
  }
  if (stale.length > 0) {
    console.error(
      `out of date with their sources (the schemas, src/config/agent-kinds.ts): ${stale.join(', ')}\n` +
        'run `node scripts/generate-types.mjs` and commit the result',
    );
    process.exit(1);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await main(process.argv.includes('--check')).catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}
