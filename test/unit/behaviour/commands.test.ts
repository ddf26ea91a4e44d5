import { expect } from 'chai';
import {
  commandLines,
  commits,
  programOf,
  runsTests,
  simpleCommands,
} from '../../../src/behaviour/index.js';

describe('behaviour/commands', () => {
  it("reads the command from each agent's shell tool input", () => {
    expect(commandLines(JSON.stringify({ command: 'npm test' }))).to.deep.equal(['npm test']);
    expect(
      commandLines(JSON.stringify({ command: ['bash', '-lc', 'go test ./...'] })),
    ).to.deep.equal(['go test ./...']);
    expect(commandLines(JSON.stringify({ cmd: 'pytest -q' }))).to.deep.equal(['pytest -q']);
    expect(commandLines(JSON.stringify({ command: ['git', 'status'] }))).to.deep.equal([
      'git status',
    ]);
    expect(commandLines('not json')).to.deep.equal([]);
    expect(commandLines(JSON.stringify({ file_path: 'a.js' }))).to.deep.equal([]);
  });

  it('splits a line into its simple commands and names each program', () => {
    const parts = simpleCommands('cd app && FOO=1 npm test; git add -A && git commit -m x | cat');
    expect(parts).to.deep.equal([
      'cd app',
      'FOO=1 npm test',
      'git add -A',
      'git commit -m x',
      'cat',
    ]);
    expect(parts.map(programOf)).to.deep.equal([null, 'npm', 'git', 'git', 'cat']);
    expect(programOf('/usr/bin/node x.js')).to.equal('node');
    // Separators inside quotes are the command's own text.
    expect(
      simpleCommands(`echo 'a; b && c' >> f && printf "x | \\"y;\\"" && git status`),
    ).to.deep.equal([`echo 'a; b && c' >> f`, 'printf "x | \\"y;\\""', 'git status']);
  });

  it('recognizes the usual ways of running the tests, and nothing else', () => {
    for (const t of [
      'npm test',
      'npm run test',
      'yarn test',
      'npx jest',
      'pytest',
      'python -m pytest',
      'go test ./...',
      'cargo test',
      'make test',
      'node --test',
      'node test.js',
      'node test.mjs',
      'CI=1 npm test',
    ])
      expect(runsTests(t), t).to.equal(true);
    for (const t of [
      'npm install',
      'node index.js',
      'git commit -m test',
      'echo npm test',
      'cat test.js',
    ])
      expect(runsTests(t), t).to.equal(false);
  });

  it('knows a commit', () => {
    expect(commits('git commit -qm x')).to.equal(true);
    expect(commits('git -C a commit')).to.equal(true);
    expect(commits('git log')).to.equal(false);
    expect(commits('echo git commit')).to.equal(false);
  });
});
