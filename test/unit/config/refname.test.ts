import { expect } from 'chai';
import { whyNotBranchName } from '../../../src/config/index.js';

describe('whyNotBranchName: git rules for a branch name, without git', () => {
  for (const good of ['main', 'feature/login', 'fix-1.2', 'user@host', 'a/b/c']) {
    it(`accepts ${JSON.stringify(good)}`, () => {
      expect(whyNotBranchName(good)).to.equal(undefined);
    });
  }
  for (const bad of [
    '',
    '-x',
    'HEAD',
    '@',
    'a b',
    'a~1',
    'a^',
    'a:b',
    'a?',
    'a*',
    'a[b',
    'a\\b',
    'a..b',
    'a@{1}',
    '/a',
    'a/',
    'a//b',
    'a.',
    '.a',
    'a/.b',
    'a.lock',
    'a/b.lock/c',
  ]) {
    it(`refuses ${JSON.stringify(bad)}`, () => {
      expect(whyNotBranchName(bad)).to.be.a('string');
    });
  }
});
