import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { didYouMean, editDistance, hintBudget, MAX_HINT_LENGTH } from '../../src/schema/did-you-mean.ts';
import { checkSemantics } from '../../src/schema/semantic.ts';
import { alertResource, dashboardResource } from '../helpers/resource.ts';

const keys = ['name', 'message', 'threshold', 'thresholdType', 'interval', 'source', 'tile', 'channel'];

const cases: Array<[string, string | undefined]> = [
  ['thresold', 'threshold'],
  ['treshold', 'threshold'],
  ['thresholdtype', 'thresholdType'],
  ['intreval', 'interval'],
  ['nmae', 'name'],
  ['chanel', 'channel'],
  ['colour', undefined],
  ['x', undefined],
  ['', undefined],
];

for (const [word, expected] of cases) {
  test(`didYouMean(${JSON.stringify(word)}) = ${expected}`, () => {
    assert.is(didYouMean(word, keys), expected);
  });
}

test('edit distance counts a swap of neighbours as one', () => {
  assert.is(editDistance('shpo', 'shop'), 1);
  assert.is(editDistance('kitten', 'sitting'), 3);
  assert.is(editDistance('', 'abc'), 3);
});

test('no candidates, no suggestion', () => {
  assert.is(didYouMean('x', []), undefined);
});

// Red team, round 12: words from files (an alert's tile name, a template's enum) and from servers were compared
// with a table of |a| × |b| cells: an alert naming a tile of 8,000 characters took 25 s and 5 GB, 70,000 threw
// "Invalid array length" (an internal error); 2,000 alerts naming unknown dashboards among 2,000 took 230 s.
const LONG = 70_000;

test('editDistance with a bound stops once the distance must exceed it, in rows of memory', () => {
  assert.is(editDistance('a'.repeat(LONG), 'b'.repeat(LONG), 3), 4);
  assert.is(editDistance('abcdef', 'abcxyz', 2), 3);
  assert.is(editDistance('abcdef', 'abcxyz', 3), 3);
  assert.is(editDistance('x'.repeat(10), 'x'.repeat(20), 5), 6);
});

const bounded: Array<{ name: string; word: string; candidates: string[]; expected: string | undefined }> = [
  { name: 'a long word against a long candidate', word: 'a'.repeat(LONG), candidates: ['a'.repeat(LONG - 1)], expected: undefined },
  { name: 'a short word against long candidates', word: 'thresold', candidates: ['t'.repeat(LONG), 'threshold'], expected: 'threshold' },
  {
    name: 'a word of the longest compared length',
    word: 'q'.repeat(MAX_HINT_LENGTH - 1) + 'x',
    candidates: ['q'.repeat(MAX_HINT_LENGTH)],
    expected: 'q'.repeat(MAX_HINT_LENGTH),
  },
  { name: 'the closest of several within reach', word: 'chanel', candidates: ['chan', 'channel', 'chanels'], expected: 'channel' },
];

for (const c of bounded) {
  test(`didYouMean is bounded: ${c.name}`, () => {
    assert.is(didYouMean(c.word, c.candidates), c.expected);
  });
}

test('didYouMean spends a shared budget, and gives no hint once it is spent', () => {
  const budget = hintBudget(1_000);
  assert.is(didYouMean('thresold', keys, budget), 'threshold');
  assert.ok(budget.cells < 1_000, `spent nothing: ${budget.cells}`);
  assert.is(didYouMean('thresold', keys, hintBudget(0)), undefined);
  const names = Array.from({ length: 5_000 }, (_, i) => `dashboard-${i}`.padEnd(40, 'x'));
  const shared = hintBudget();
  const hints = Array.from({ length: 5_000 }, (_, i) => didYouMean(`dashbaord-${i}`.padEnd(40, 'x'), names, shared));
  assert.ok(shared.cells <= 0);
  assert.is(hints[0], names[0]);
  assert.is(hints.at(-1), undefined);
});

test('an alert naming a tile of 70,000 characters on a dashboard with one is one problem, without a hint', () => {
  const dashboard = dashboardResource({ name: 'D', tiles: [{ name: 'a'.repeat(LONG), x: 0, y: 0, w: 1, h: 1, series: [] }] });
  const problems = checkSemantics([
    dashboard,
    alertResource({ source: 'tile', savedSearchId: undefined, tile: { dashboard: 'd', name: 'b'.repeat(LONG) } }),
  ]).filter((p) => p.pointer === '/spec/tile/name');
  assert.is(problems.length, 1);
  assert.not.match(problems[0]!.message, /did you mean/);
});

test.run();
