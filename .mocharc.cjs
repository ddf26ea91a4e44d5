// The whole suite by default; only the files named when some are
// (`npx mocha test/unit/x.test.ts`): mocha adds a config's specs to the
// command line's, which would run every test for one file.
const SUITE = [
  'test/unit/**/*.test.ts',
  'test/integration/**/*.test.ts',
  'test/sandbox/**/*.test.ts',
  'test/agents/**/*.test.ts',
  'test/security/**/*.test.ts',
  'test/faults/**/*.test.ts',
  'test/e2e/**/*.test.ts',
  'test/k8s/**/*.test.ts',
];

const named = process.argv
  .slice(2)
  .some((a) => !a.startsWith('-') && !a.endsWith('.cjs') && /(^|\/)test\//.test(a));

module.exports = {
  'node-option': ['import=tsx'],
  spec: named ? [] : SUITE,
  extension: ['ts'],
  recursive: true,
  timeout: 120000,
  reporter: './test/support/summary-reporter.cjs',
  exit: true,
};
