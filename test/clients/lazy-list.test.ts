/**
 * The dashboard list made from the live memo's summaries (src/clients/lazy-list.ts): its stand-ins answer
 * id, name and tags without the body, anything else parses it once, and from then on each one is the
 * parsed dashboard in its place for every way of reading an object.
 */
import { isDeepStrictEqual } from 'node:util';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { lazyList, summaryOf, type LiveSummary } from '../../src/clients/lazy-list.ts';

const REAL = [
  { id: 'a1', name: 'Checkout', tags: ['managed-by:steward'], tiles: [{ id: 't1', name: 'Errors' }] },
  { id: 'b2', name: 'Payments', tiles: [] },
];
const SUMMARIES: LiveSummary[] = REAL.map((d) => summaryOf(d)!);

/** A lazy list over a copy of REAL, and how many times its body was parsed. */
function lazy(real: unknown[] = structuredClone(REAL)) {
  const parses = { n: 0 };
  const list = lazyList(SUMMARIES, () => {
    parses.n++;
    return real as object[];
  });
  return { list: list as Array<Record<string, unknown>>, parses };
}

test('summaryOf: id, name and tags when they are what matching reads; undefined when they are not', () => {
  const rows: Array<[string, Record<string, unknown>, LiveSummary | undefined]> = [
    ['tags', { id: 'a', name: 'n', tags: ['x'], tiles: [] }, { id: 'a', name: 'n', tags: ['x'] }],
    ['no tags', { id: 'a', name: 'n' }, { id: 'a', name: 'n' }],
    ['tags null', { id: 'a', name: 'n', tags: null }, undefined],
    ['a tag not a string', { id: 'a', name: 'n', tags: [1] }, undefined],
    ['numeric id', { id: 1, name: 'n' }, undefined],
    ['no name', { id: 'a' }, undefined],
  ];
  for (const [what, d, want] of rows) assert.equal(summaryOf(d), want, what);
});

test('lazyList: id, name and tags are read without parsing; one other read parses the body once', () => {
  const { list, parses } = lazy();
  assert.is(list.length, 2);
  assert.equal(
    list.map((d) => [d['id'], d['name'], d['tags']]),
    [
      ['a1', 'Checkout', ['managed-by:steward']],
      ['b2', 'Payments', undefined],
    ],
  );
  assert.is(parses.n, 0);
  assert.equal(list[1]!['tiles'], []);
  assert.is(parses.n, 1);
  assert.equal(list[0]!['tiles'], REAL[0]!.tiles);
  assert.is(parses.n, 1, 'parsed once for every stand-in');
});

test('lazyList: once parsed, each stand-in reads as its dashboard (keys, JSON, spread, in, deep equality)', () => {
  const reads: Array<[string, (d: Record<string, unknown>) => unknown]> = [
    ['Object.keys', (d) => Object.keys(d)],
    ['JSON.stringify', (d) => JSON.stringify(d)],
    ['spread', (d) => ({ ...d })],
    ['in', (d) => ['tiles' in d, 'nope' in d]],
    ['entries', (d) => Object.entries(d)],
  ];
  for (const [what, read] of reads) {
    const { list, parses } = lazy();
    assert.equal(
      list.map((d) => read(d)),
      REAL.map((d) => read(d as Record<string, unknown>)),
      what,
    );
    assert.is(parses.n, 1, what);
  }
  const { list } = lazy();
  assert.ok(isDeepStrictEqual({ ...list[0] }, REAL[0]));
});

test('lazyList: a parse that fails throws at the read that needed it; a list of another length is refused', () => {
  const failing = lazyList(SUMMARIES, () => {
    throw new Error('GET /dashboards: response is not valid JSON');
  }) as Array<Record<string, unknown>>;
  assert.is(failing[0]!['name'], 'Checkout');
  assert.throws(() => failing[0]!['tiles'], /not valid JSON/);
  const short = lazyList(SUMMARIES, () => [REAL[0]!]) as Array<Record<string, unknown>>;
  assert.throws(() => JSON.stringify(short), /the live memo described 2 dashboards for a list of 1: delete \.steward\/cache/);
});

test('lazyList: after the parse, id, name and tags come from the parsed dashboard', () => {
  const real = structuredClone(REAL) as Array<Record<string, unknown>>;
  const { list } = lazy(real);
  void list[0]!['tiles'];
  real[0]!['name'] = 'renamed in the body';
  assert.is(list[0]!['name'], 'renamed in the body');
});

test.run();
