/** The shared helpers for data of any length: arrays past what a spread can pass, lists cut for a message. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { groupBy, maxOf, minOf, pushAll } from '../../src/shared/arrays.ts';
import { listSome } from '../../src/shared/text.ts';

const BIG = Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 300_001);

const extremes: Array<{ name: string; values: number[]; min: number; max: number }> = [
  { name: 'none', values: [], min: Infinity, max: -Infinity },
  { name: 'one', values: [4], min: 4, max: 4 },
  { name: 'negatives and zero', values: [-3, 0, -7, 2], min: -7, max: 2 },
  { name: 'infinities', values: [1, Infinity, -Infinity], min: -Infinity, max: Infinity },
  { name: '300,000 values', values: BIG, min: 0, max: 300_000 },
];
for (const c of extremes) {
  test(`minOf / maxOf: ${c.name}, as Math.min / Math.max would say`, () => {
    assert.is(minOf(c.values), c.min);
    assert.is(maxOf(c.values), c.max);
    if (c.values.length < 1000) {
      assert.is(minOf(c.values), Math.min(...c.values));
      assert.is(maxOf(c.values), Math.max(...c.values));
    }
  });
}

test('minOf / maxOf: a NaN anywhere gives NaN (as Math.min / Math.max)', () => {
  for (const values of [
    [NaN, 1],
    [1, NaN, 2],
    [2, 1, NaN],
  ]) {
    assert.ok(Number.isNaN(minOf(values)), String(values));
    assert.ok(Number.isNaN(maxOf(values)), String(values));
  }
});

test('groupBy: each key once, in first-seen order; each group in list order', () => {
  const cases: Array<[string[], Array<[string, string[]]>]> = [
    [[], []],
    [['a'], [['a', ['a']]]],
    [
      ['b1', 'a1', 'b2', 'c1', 'a2'],
      [
        ['b', ['b1', 'b2']],
        ['a', ['a1', 'a2']],
        ['c', ['c1']],
      ],
    ],
  ];
  for (const [items, want] of cases) assert.equal([...groupBy(items, (s) => s[0])], want, items.join(','));
});

test('pushAll appends in order, returns the target, and takes 300,000 items (push(...items) throws there)', () => {
  const target = [1, 2];
  assert.is(pushAll(target, [3, 4]), target);
  assert.equal(target, [1, 2, 3, 4]);
  assert.throws(() => [].push(...(BIG as never[])), /call stack/);
  const big: number[] = [];
  pushAll(big, BIG);
  assert.is(big.length, BIG.length);
  assert.is(big[123_456], BIG[123_456]);
  assert.equal(pushAll([], new Set(['a', 'b'])), ['a', 'b']);
});

const lists: Array<{ items: string[]; max?: number; says: string }> = [
  { items: [], says: '' },
  { items: ['a'], says: 'a' },
  { items: ['a', 'b', 'c'], max: 3, says: 'a, b, c' },
  { items: ['a', 'b', 'c', 'd'], max: 3, says: 'a, b, c, … and 1 more' },
  {
    items: Array.from({ length: 150_000 }, (_, i) => `hook-${i}`),
    says: 'hook-0, hook-1, hook-2, hook-3, hook-4, hook-5, hook-6, hook-7, hook-8, hook-9, … and 149990 more',
  },
];
for (const c of lists) {
  test(`listSome: ${c.items.length} names${c.max ? `, at most ${c.max}` : ''}`, () => {
    assert.is(listSome(c.items, c.max), c.says);
  });
}

test.run();
