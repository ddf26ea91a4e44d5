import { err, out, pr, runCases, type ParityCase } from './cases.js';

const GOGH = 'cli/go-gh@71770357 pkg/jq/jq.go';
const GOGH_TEST = 'cli/go-gh@71770357 pkg/jq/jq_test.go';
const GOJQ = 'itchyny/gojq@v0.12.19';

const state = {
  pull_requests: [
    pr(1, 'one', { title: 'First <one>' }),
    pr(2, 'two', { draft: true }),
    pr(3, 'three', { state: 'MERGED' }),
  ],
};
/** `gh pr list --state all --json number,title,isDraft,state --jq EXPR`. */
const jq = (name: string, cite: string, expr: string, want: ParityCase['want']): ParityCase => ({
  name: `${name}: ${expr}`,
  cite,
  setup: (r) => r.prepare(state),
  args: ['pr', 'list', '--state', 'all', '--json', 'number,title,isDraft,state', '--jq', expr],
  want,
});

runCases('--jq', [
  jq('a path, strings raw', `${GOGH_TEST} "simple"`, '.[0].title', out('PR 3\n')),
  jq(
    'several outputs',
    `${GOGH_TEST} "multiple queries"`,
    '.[0].title,.[0].number',
    out('PR 3\n3\n'),
  ),
  jq(
    'objects as json.Marshal writes them: keys sorted, HTML escaped',
    `${GOGH} prettyEncoder.Encode; ${GOGH_TEST} "object as JSON"`,
    '.[2]',
    out('{"isDraft":false,"number":1,"state":"OPEN","title":"First \\u003cone\\u003e"}\n'),
  ),
  jq(
    'select with ==',
    `${GOGH_TEST} "with env var"; ${GOJQ} compare`,
    '.[] | select(.state == "OPEN") | .number',
    out('2\n1\n'),
  ),
  jq(
    'select on a boolean, not',
    `${GOJQ} func.go funcNot`,
    '.[] | select(.isDraft | not) | .number',
    out('3\n1\n'),
  ),
  jq('length of an array', `${GOJQ} func.go funcLength`, 'length', out('3\n')),
  jq(
    'map and join',
    `${GOGH_TEST} "complex"; ${GOJQ} func.go funcJoin`,
    'map(.number) | join(",")',
    out('3,2,1\n'),
  ),
  jq(
    'join of numbers and booleans',
    `${GOJQ} func.go funcJoin`,
    'map(.isDraft) | join(" ")',
    out('false true false\n'),
  ),
  jq('array construction', `${GOJQ} (array)`, '[.[].number]', out('[3,2,1]\n')),
  jq(
    'object construction, shorthand keys',
    `${GOJQ} (object)`,
    '.[1] | {number, draft: .isDraft}',
    out('{"draft":true,"number":2}\n'),
  ),
  jq('// and empty', 'docs/gh-facts.md 12; gojq (alternative)', '.[9].number // empty', out('')),
  jq(
    'booleans printed as words, null as an empty line',
    `${GOGH} jsonScalarToString`,
    '.[1].isDraft, .[9]',
    out('true\n\n'),
  ),
  jq(
    'non-integers with two decimals',
    `${GOGH} jsonScalarToString (FormatFloat 'f', 2)`,
    '.[0].number - 1.5',
    out('1.50\n'),
  ),
  jq(
    'comparison and and/or',
    `${GOJQ} compare`,
    '.[] | select(.number > 1 and .isDraft == false) | .title',
    out('PR 3\n'),
  ),
  jq(
    "a runtime type error is gojq's, with its preview",
    `${GOJQ} error.go expectedObjectError, preview.go Preview`,
    '.[0].title.x',
    err('expected an object but got: string ("PR 3")\n'),
  ),
  jq(
    'a long value is previewed in 30 bytes',
    `${GOJQ} preview.go Preview, func.go funcIndex2`,
    '.[0] | .[0]',
    // 32 bytes read, cut to 25 on a rune boundary, then the object's marker.
    err('expected an array but got: object ({"isDraft":false,"number" ...})\n'),
  ),
  jq(
    'iterating a number',
    `${GOJQ} error.go iteratorError`,
    '.[0].number[]',
    err('cannot iterate over: number (3)\n'),
  ),
  jq(
    'an expression cut short',
    `${GOGH_TEST} "invalid unterminated query"`,
    '[.[].number,',
    err(
      'failed to parse jq expression (line 1, column 13)\n    [.[].number,\n                ^  unexpected EOF\n',
    ),
  ),
  jq(
    'a token no expression starts with',
    `${GOGH_TEST} "invalid query"`,
    '[1,2,,3]',
    err(
      'failed to parse jq expression (line 1, column 6)\n    [1,2,,3]\n         ^  unexpected token ","\n',
    ),
  ),
  jq(
    'the same on a second line',
    `${GOGH_TEST} "invalid multi-line query"`,
    '[\n  1,,2\n  ,3]',
    err(
      'failed to parse jq expression (line 2, column 5)\n      1,,2\n        ^  unexpected token ","\n',
    ),
  ),
]);
