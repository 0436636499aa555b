/**
 * The response depth check (src/clients/depth.ts): exact at the limit, for objects, arrays and mixes, by
 * recursion up to its limit and by an explicit stack beyond, and safe on values far deeper than the stack.
 */
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MAX_RESPONSE_DEPTH, nestsDeeperThan } from '../../src/clients/depth.ts';

/** The nesting of a value, counted the plain way (arrays and objects are one level each). */
function depthOf(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  const children: unknown[] = Array.isArray(v) ? v : Object.values(v);
  return 1 + Math.max(0, ...children.map(depthOf));
}

/** A value `n` levels deep, alternating objects and arrays, with siblings that are shallower. */
function nested(n: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < n; i++) v = i % 2 === 0 ? { a: 1, b: i > 0 ? [] : 0, c: v } : [null, i > 0 ? {} : 0, v];
  return v;
}

test('exact at the limit: N levels are not deeper than N, but deeper than N - 1', () => {
  for (const n of [0, 1, 2, 3, 50, 99, 100, 101, 150]) {
    const v = nested(n);
    assert.is(depthOf(v), n);
    assert.not.ok(nestsDeeperThan(v, n), `${n} > ${n}`);
    if (n > 0) assert.ok(nestsDeeperThan(v, n - 1), `${n} > ${n - 1}`);
  }
  assert.not.ok(nestsDeeperThan(nested(MAX_RESPONSE_DEPTH), MAX_RESPONSE_DEPTH));
  assert.ok(nestsDeeperThan(nested(MAX_RESPONSE_DEPTH + 1), MAX_RESPONSE_DEPTH));
});

test('any JSON value: the answer is the plain count, by recursion and by the stack (limits over 1,000)', () => {
  fc.assert(
    fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 9 }), (v, limit) => {
      const parsed: unknown = JSON.parse(JSON.stringify(v));
      assert.is(nestsDeeperThan(parsed, limit), depthOf(parsed) > limit);
      // The same value under a wrapper 1,000 arrays deep: the stack path, same answer.
      let wrapped: unknown = parsed;
      for (let i = 0; i < 1000; i++) wrapped = [wrapped];
      assert.is(nestsDeeperThan(wrapped, limit + 1000), depthOf(parsed) > limit);
    }),
    { numRuns: 300 },
  );
});

test('far deeper than the call stack: refused without overflowing, by both paths', () => {
  let v: unknown = {};
  for (let i = 0; i < 200_000; i++) v = { v };
  assert.ok(nestsDeeperThan(v, MAX_RESPONSE_DEPTH));
  assert.ok(nestsDeeperThan(v, 100_000));
  assert.not.ok(nestsDeeperThan(v, 300_000));
});

test.run();
