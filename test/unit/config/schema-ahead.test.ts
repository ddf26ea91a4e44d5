import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { expect } from 'chai';
import { AHEAD_VALIDATOR_FILE, compileEvalsSchema } from '../../../src/config/schema.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));

/** What a problem sentence is made of: where, which rule, and the schema node it names. */
const shape = (errors: readonly ErrorObject[] | null | undefined): unknown[] =>
  (errors ?? []).map((e) => [e.instancePath, e.schemaPath, e.keyword, e.params, e.parentSchema]);

/**
 * The build compiles the eval-set schema ahead (scripts/compile-schemas.mjs); run from the
 * sources, evalrig compiles it lazily. Both must say the same of every document.
 */
describe('the eval-set validator compiled ahead', () => {
  let ahead: ValidateFunction;
  let lazy: ValidateFunction;

  before(() => {
    const file = path.join(root, 'dist/src/config', AHEAD_VALIDATOR_FILE);
    // npm test builds first (pretest); a missing file is a broken build, not a skip.
    ahead = createRequire(import.meta.url)(file) as ValidateFunction;
    lazy = compileEvalsSchema().validate;
  });

  for (const fixture of ['full', 'minimal', 'invalid']) {
    it(`gives the lazily compiled validator's verdict and errors on the ${fixture} fixture`, async () => {
      const doc = JSON.parse(
        await readFile(path.join(root, 'test/fixtures/config', fixture, 'evals.json'), 'utf8'),
      ) as unknown;
      expect(ahead(doc)).to.equal(lazy(doc));
      expect(shape(ahead.errors)).to.deep.equal(shape(lazy.errors));
    });
  }

  it('agrees on a document wrong in many places at once', () => {
    const doc = {
      name: 7,
      conditions: [{ name: 'bad name!' }, {}],
      evals: [{ id: '', prompt: 3, runs: 0, codebase: { url: 'x' } }],
      extra: true,
    };
    expect(ahead(doc)).to.equal(false);
    expect(lazy(doc)).to.equal(false);
    expect(shape(ahead.errors)).to.deep.equal(shape(lazy.errors));
    expect(ahead.errors!.length).to.be.greaterThan(3);
  });
});
