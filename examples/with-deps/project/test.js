'use strict';
const assert = require('node:assert/strict');
const { short, parse } = require('./duration');

const cases = [
  ['short rounds to the largest unit', () => assert.equal(short(90_000), '2m')],
  ['parse reads hours', () => assert.equal(parse('1.5h'), 5_400_000)],
  ['parse reads days', () => assert.equal(parse('2 days'), 172_800_000)],
  ['parse refuses words', () => assert.throws(() => parse('soon'), /not a duration/)],
];
let failed = 0;
for (const [name, test] of cases) {
  try {
    test();
    console.log(`ok - ${name}`);
  } catch (error) {
    failed++;
    console.log(`not ok - ${name}: ${error.message}`);
  }
}
console.log(`${cases.length - failed} passed, ${failed} failed`);
process.exitCode = failed === 0 ? 0 : 1;
