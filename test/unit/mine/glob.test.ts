import { expect } from 'chai';
import { globToRegExp } from '../../../src/mine/index.js';

const matches = (glob: string, path: string): boolean => globToRegExp(glob).test(path);

describe('mine: globs', () => {
  it('matches a name with no slash at any depth, as .gitignore does', () => {
    expect(matches('*.test.js', 'a.test.js')).to.equal(true);
    expect(matches('*.test.js', 'lib/deep/a.test.js')).to.equal(true);
    expect(matches('*.test.js', 'a.test.jsx')).to.equal(false);
    expect(matches('test_*.py', 'tests/test_cache.py')).to.equal(true);
  });

  it('anchors a glob with a slash at the root; ** spans folders, * stays in one', () => {
    expect(matches('src/*.js', 'src/a.js')).to.equal(true);
    expect(matches('src/*.js', 'src/x/a.js')).to.equal(false);
    expect(matches('src/**/*.js', 'src/a.js')).to.equal(true);
    expect(matches('src/**/*.js', 'src/x/y/a.js')).to.equal(true);
    expect(matches('src/*.js', 'lib/src/a.js')).to.equal(false);
    expect(matches('**/test/**', 'test/a.js')).to.equal(true);
    expect(matches('**/test/**', 'pkg/test/a.js')).to.equal(true);
    expect(matches('**/test/**', 'testing/a.js')).to.equal(false);
  });

  it('takes a folder for what is under it, ? for one character, {a,b} for either, dots literally', () => {
    expect(matches('lib/', 'lib/a/b.py')).to.equal(true);
    expect(matches('lib', 'lib/a/b.py')).to.equal(true);
    expect(matches('a?.js', 'ab.js')).to.equal(true);
    expect(matches('a?.js', 'a/.js')).to.equal(false);
    expect(matches('*.{js,ts}', 'x/y.ts')).to.equal(true);
    expect(matches('*.{js,ts}', 'y.py')).to.equal(false);
    expect(matches('a.js', 'abjs')).to.equal(false);
  });
});
