import { expect } from 'chai';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { InputError } from '../../../src/errors/index.js';
import {
  CODEBASE_SCHEMA_ID,
  checkCodebaseSource,
  codebaseSchema,
} from '../../../src/config/codebase.js';

const FULL = '8e02560c6d1f4f0b9b9f1c0d2e3a4b5c6d7e8f90';

describe('config/codebase: the codebase part of the eval-set schema', () => {
  const validate = new Ajv2020({ strict: true }).compile(codebaseSchema);

  it('has the $id the eval-set schema $refs, in draft 2020-12', () => {
    expect(codebaseSchema.$id).to.equal(CODEBASE_SCHEMA_ID);
    expect(codebaseSchema.$schema).to.equal('https://json-schema.org/draft/2020-12/schema');
  });

  for (const ref of [
    'main',
    'feature/x',
    'v1.4.0',
    FULL,
    FULL.toUpperCase(),
    'abc',
    'deadbeef-fix',
  ]) {
    it(`accepts ref ${JSON.stringify(ref)}`, () => {
      expect(validate({ url: 'https://example.org/a/b.git', ref })).to.equal(true);
    });
  }

  for (const ref of [
    '8e02560',
    '8e02560c6d1f',
    FULL.slice(0, 39),
    '',
    'has space',
    '-rf',
    'a~1',
    'a^',
  ]) {
    it(`refuses ref ${JSON.stringify(ref)}`, () => {
      expect(validate({ url: 'https://example.org/a/b.git', ref })).to.equal(false);
    });
  }

  it('accepts a path, refuses url without ref, both kinds at once and unknown fields', () => {
    expect(validate({ path: '../fixtures/legacy' })).to.equal(true);
    expect(validate({ url: 'https://example.org/a/b.git' })).to.equal(false);
    expect(validate({ url: 'x', ref: 'main', path: 'y' })).to.equal(false);
    expect(validate({ path: 'y', branch: 'main' })).to.equal(false);
    expect(validate('main')).to.equal(false);
  });

  it('checkCodebaseSource returns the value, or an InputError naming where and why', () => {
    expect(checkCodebaseSource({ path: 'p' }, 'evals.json#/codebase')).to.deep.equal({ path: 'p' });
    const error = (() => {
      try {
        checkCodebaseSource({ url: 'u', ref: '8e02560' }, 'evals.json#/evals/1/codebase');
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).to.be.instanceOf(InputError);
    expect((error as Error).message).to.equal(
      'evals.json#/evals/1/codebase: codebase "ref" "8e02560" looks like a short commit hash; write the full 40-hex commit, a branch or a tag',
    );
    expect(() => checkCodebaseSource({ url: 'u' }, 'w')).to.throw(InputError, /"ref" is required/);
    expect(() => checkCodebaseSource({ url: 'u', ref: 'm', path: 'p' }, 'w')).to.throw(
      /both "url" and "path"/,
    );
  });
});
