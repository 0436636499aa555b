import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { didYouMean, editDistance } from '../../src/schema/did-you-mean.ts';

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

test.run();
