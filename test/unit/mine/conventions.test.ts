import { expect } from 'chai';
import { FileRoles } from '../../../src/mine/index.js';

describe('mine: which files are tests and which are source', () => {
  it('knows the conventions of Node, Python, Go, Java and Ruby codebases', () => {
    const roles = new FileRoles();
    for (const test of [
      'test/parse.js',
      'tests/test_cache.py',
      'src/__tests__/a.ts',
      'lib/a.test.ts',
      'lib/a.spec.js',
      'pkg/cache_test.go',
      'src/main/FooTest.java',
      'spec/models/user_spec.rb',
      'tests/__init__.py',
    ])
      expect(roles.roleOf(test), test).to.equal('test');
    for (const source of ['index.js', 'src/cachetools/__init__.py', 'pkg/cache.go', 'lib/a.ts'])
      expect(roles.roleOf(source), source).to.equal('source');
  });

  it('counts docs, examples, CI files and non-code files as neither', () => {
    const roles = new FileRoles();
    for (const other of [
      'README.md',
      'package.json',
      'example/parse.js',
      'docs/conf.py',
      '.github/workflows/ci.yml',
      'setup.cfg',
    ])
      expect(roles.roleOf(other), other).to.equal('other');
  });

  it('takes the given test globs instead of the conventions, and narrows source to --paths', () => {
    const roles = new FileRoles({ tests: ['checks/**'], paths: ['src/**'] });
    expect(roles.roleOf('checks/a.py')).to.equal('test');
    expect(roles.roleOf('test/a.py')).to.equal('other');
    expect(roles.roleOf('src/a.py')).to.equal('source');
    expect(roles.roleOf('tools/a.py')).to.equal('other');
  });
});
