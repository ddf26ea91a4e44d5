const assert = require('assert');
const m = require('./math');
assert.strictEqual(m.add(2, 3), 5);
if (m.multiply) assert.strictEqual(m.multiply(2, 3), 6);
console.log('ok');
