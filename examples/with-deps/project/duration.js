'use strict';
const ms = require('ms');

/** A duration in milliseconds as a short human string: 90000 -> "2m". */
function short(milliseconds) {
  return ms(milliseconds);
}

/** A written duration ("1.5h", "2 days") in milliseconds. */
function parse(text) {
  const value = ms(text);
  if (typeof value !== 'number') throw new Error(`not a duration: ${text}`);
  return value;
}

module.exports = { short, parse };
