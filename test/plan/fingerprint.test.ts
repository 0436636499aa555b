/**
 * The live fingerprint (issue 15: hashed from the JSON as the server sent it, not a key-sorted canonical
 * form): any change of any value makes it differ (a stale plan is refused), the list's order does not.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { canonicalIterative, canonicalJson, dashboardText, fingerprintLive } from '../../src/plan/fingerprint.ts';
import { normalDigest } from '../../src/plan/normalize.ts';
import type { LiveDashboardInput } from '../../src/plan/types.ts';
import { plainData } from '../helpers/arbitraries.ts';

const STATE = { formatVersion: 1 as const, alerts: {} };
const dash = (id: string, extra: Record<string, unknown> = {}): LiveDashboardInput =>
  ({
    id,
    name: `d${id}`,
    tags: ['managed-by:steward'],
    tiles: [{ id: 't1', name: 'a', x: 0, y: 0, w: 6, h: 3, config: { displayType: 'line' } }],
    ...extra,
  }) as unknown as LiveDashboardInput;

test('equal lists give equal fingerprints whatever their order; a parsed copy too', () => {
  const a = [dash('1'), dash('2'), dash('3')];
  const b = [a[2]!, a[0]!, a[1]!];
  assert.is(fingerprintLive(a, STATE), fingerprintLive(b, STATE));
  assert.is(fingerprintLive(a, STATE), fingerprintLive(JSON.parse(JSON.stringify(a)), STATE));
});

test('any change of any value, anywhere, gives another fingerprint', () => {
  fc.assert(
    fc.property(fc.jsonValue(), fc.jsonValue(), fc.constantFrom('name', 'tags', 'tiles', 'extra'), (v1, v2, key) => {
      fc.pre(JSON.stringify(v1) !== JSON.stringify(v2));
      const a = [dash('1'), dash('2', { [key]: v1 })];
      const b = [dash('1'), dash('2', { [key]: v2 })];
      assert.is.not(fingerprintLive(a, STATE), fingerprintLive(b, STATE));
    }),
    { numRuns: 200 },
  );
  // A dashboard more or less, an alert record or a live alert changed.
  assert.is.not(fingerprintLive([dash('1')], STATE), fingerprintLive([dash('1'), dash('2')], STATE));
  assert.is.not(fingerprintLive([dash('1')], STATE), fingerprintLive([dash('1')], { formatVersion: 1, alerts: { x: { id: 'a' } } } as never));
  assert.is.not(fingerprintLive([dash('1')], STATE, [{ id: 'a' }]), fingerprintLive([dash('1')], STATE, [{ id: 'b' }]));
});

test('values JSON.stringify cannot say (1e999 parsed as Infinity, NaN) give fingerprints of their own', () => {
  // Each value in the place of one member, in a dashboard and in a live alert: every pair must differ.
  const values: unknown[] = [null, Infinity, -Infinity, NaN, 0, '\u0000n:Infinity', '\u0000s:\u0000n:Infinity', 'null'];
  for (const where of ['dashboard', 'alert', 'state'] as const) {
    const prints = values.map((v) =>
      where === 'dashboard'
        ? fingerprintLive([dash('1', { filters: [{ extra: v }] })], STATE)
        : where === 'alert'
          ? fingerprintLive([dash('1')], STATE, [{ id: 'a', threshold: v } as { id: string }])
          : fingerprintLive([dash('1')], { formatVersion: 1, alerts: { x: { id: 'a', sent: v } } } as never),
    );
    assert.is(new Set(prints).size, values.length, `${where}: ${prints.join(' ')}`);
  }
  // A value JSON says exactly keeps the text JSON.stringify gives (saved plans stay valid).
  assert.is(dashboardText(dash('1', { filters: [{ extra: null }] })), JSON.stringify(dash('1', { filters: [{ extra: null }] })));
});

test('more than one slice of dashboards (the hash runs in slices of 1,000)', () => {
  const many = Array.from({ length: 2500 }, (_, i) => dash(String(i).padStart(5, '0')));
  const changed = many.map((d, i) => (i === 1700 ? dash(d.id, { name: 'other' }) : d));
  assert.is.not(fingerprintLive(many, STATE), fingerprintLive(changed, STATE));
  assert.is(fingerprintLive(many, STATE), fingerprintLive([...many].reverse(), STATE));
});

test("canonicalJson: the recursive writer gives the stack writer's text, at any depth", () => {
  // GIVEN any value JSON can hold, undefined members, holes and dates among them
  fc.assert(
    fc.property(
      fc.anything({ withBoxedValues: false, withMap: false, withSet: false, withTypedArray: false, withBigInt: false, withDate: true, withSparseArray: true }),
      (v) => {
        // THEN both writers agree
        assert.is(canonicalJson(v), canonicalIterative(v));
      },
    ),
    { numRuns: 500 },
  );
  // WHEN a value nests deeper than the recursion goes, THEN the stack writes it, without overflowing
  let deep: unknown = { leaf: [1, 'x', null] };
  for (let i = 0; i < 100_000; i++) deep = i % 2 ? { k: deep, a: i } : [deep, i];
  assert.is(canonicalJson(deep), canonicalIterative(deep));
  assert.is(canonicalJson({ b: 1, a: [undefined, 2], c: undefined }), '{"a":[null,2],"b":1}');
});

test('canonicalJson: runs of objects of one shape (its sorted keys are reused) in any member order, nested', () => {
  // GIVEN objects with the same keys, made in random orders, one inside another and side by side
  const shaped = fc
    .dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 1 }), { minKeys: 1, maxKeys: 6 })
    .chain((d) =>
      fc.array(fc.shuffledSubarray(Object.keys(d), { minLength: Object.keys(d).length }), { minLength: 1, maxLength: 5 }).map((orders) => ({ d, orders })),
    );
  fc.assert(
    fc.property(shaped, ({ d, orders }) => {
      const make = (order: string[], inner?: unknown) => {
        const o: Record<string, unknown> = {};
        for (const k of order)
          Object.defineProperty(o, k, { value: k === order[0] && inner !== undefined ? inner : d[k], enumerable: true, writable: true, configurable: true });
        return o;
      };
      const flat = orders.map((o) => make(o));
      const nested = orders.reduce<unknown>((inner, o) => make(o, inner), undefined);
      // THEN the text is the stack writer's
      for (const v of [flat, nested, { a: flat, b: nested }]) assert.is(canonicalJson(v), canonicalIterative(v));
    }),
    { numRuns: 300 },
  );
});

/** A copy of plain objects with their members inserted in sorted order; arrays keep their holes, others stay. */
function sortedCopy(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedCopy);
  if (v === null || typeof v !== 'object' || Object.getPrototypeOf(v) !== Object.prototype) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort())
    Object.defineProperty(out, k, { value: sortedCopy((v as Record<string, unknown>)[k]), enumerable: true, writable: true, configurable: true });
  return out;
}

test('normalDigest: sha256 of the canonical text where JSON says the value exactly, else undefined', () => {
  /** The definition, written the slow way: walk for values JSON cannot say, then hash the canonical text. */
  const reference = (v: unknown): string | undefined => {
    const exact = (x: unknown): boolean =>
      x === null ||
      typeof x === 'string' ||
      typeof x === 'boolean' ||
      (typeof x === 'number' && Number.isFinite(x) && !Object.is(x, -0)) ||
      (Array.isArray(x) && Array.from(x).every(exact)) ||
      (typeof x === 'object' && !Array.isArray(x) && Object.keys(x).every((k) => exact((x as Record<string, unknown>)[k])));
    return exact(v) ? `sha256:${createHash('sha256').update(canonicalIterative(v)).digest('hex')}` : undefined;
  };
  fc.assert(
    fc.property(plainData({ withDate: true, withNullPrototype: false }), (v) => {
      assert.is(normalDigest(v), reference(v));
      // Members in sorted order, as the normalized forms have them: the JSON.stringify path.
      assert.is(normalDigest(sortedCopy(v)), reference(v));
    }),
    { numRuns: 500 },
  );
  assert.is(normalDigest({ a: [1, -0] }), undefined);
  assert.is(normalDigest({ a: undefined }), undefined);
  let deep: unknown = { leaf: 1 };
  for (let i = 0; i < 50_000; i++) deep = [deep];
  assert.is(normalDigest(deep), `sha256:${createHash('sha256').update(canonicalIterative(deep)).digest('hex')}`);
  assert.is(normalDigest([deep, NaN]), undefined);
});

test.run();
