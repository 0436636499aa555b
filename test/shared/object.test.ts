/** setOwn, copyPlain and addAll: the fast forms of defineProperty, structuredClone and compare({}, x). */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import fastJsonPatch from 'fast-json-patch';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { addAll } from '../../src/plan/patch-ops.ts';
import { plainData as anyPlain } from '../helpers/arbitraries.ts';
import { copyPlain, setOwn } from '../../src/shared/object.ts';

const { compare } = fastJsonPatch;

/** Documents as YAML and JSON make them (test/helpers/arbitraries.ts), without dates. */
const plainData = anyPlain({ withDate: false, withNullPrototype: true });

/** Every object and array reachable from `v`. */
function containers(v: unknown, out = new Set<object>()): Set<object> {
  if (v !== null && typeof v === 'object' && !out.has(v)) {
    out.add(v);
    for (const x of Object.values(v)) containers(x, out);
  }
  return out;
}

test('setOwn: any key, "__proto__" among them, becomes an own enumerable member and sets no prototype', () => {
  for (const key of ['a', '__proto__', 'constructor', 'toString', '0', '']) {
    const o: Record<string, unknown> = {};
    setOwn(o, key, { x: 1 });
    assert.is(Object.getPrototypeOf(o), Object.prototype, key);
    assert.equal(Object.keys(o), [key], key);
    assert.equal(Object.getOwnPropertyDescriptor(o, key), { value: { x: 1 }, enumerable: true, writable: true, configurable: true }, key);
    assert.is(JSON.stringify(o), `{${JSON.stringify(key)}:{"x":1}}`, key);
  }
});

test('copyPlain equals structuredClone (-0, NaN, holes and "__proto__" kept) and shares nothing with the input', () => {
  fc.assert(
    fc.property(plainData, (v) => {
      const copy = copyPlain(v);
      assert.ok(isDeepStrictEqual(copy, structuredClone(v)));
      const mine = containers(v);
      for (const c of containers(copy)) assert.not.ok(mine.has(c));
    }),
    { numRuns: 500 },
  );
  const doc = { tiles: [{ name: 'a', x: -0, y: NaN, series: [1, , 3] }], ['__proto__']: { p: 1 } };
  Object.defineProperty(doc, '__proto__', { value: { p: 1 }, enumerable: true });
  const copy = copyPlain(doc) as typeof doc;
  assert.ok(Object.is(copy.tiles[0]!.x, -0));
  assert.ok(Number.isNaN(copy.tiles[0]!.y));
  assert.not.ok(1 in copy.tiles[0]!.series);
  assert.equal(Object.keys(copy), ['tiles', '__proto__']);
  assert.is(Object.getPrototypeOf(copy), Object.prototype);
});

test('addAll gives what compare({}, value) gives', () => {
  fc.assert(
    fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (v) => assert.equal(addAll(v), compare({}, v))),
    { numRuns: 500 },
  );
  assert.equal(addAll({ 'a/b': 1, 'c~d': [2], skip: undefined }), [
    { op: 'add', path: '/a~1b', value: 1 },
    { op: 'add', path: '/c~0d', value: [2] },
  ]);
});

test.run();
