/**
 * A plan is rendered without the redacting copy when no string in it holds a credential (issue 15): the
 * value itself then, and always what the copy would give (src/cli/context.ts `redactForRender`, the
 * sink's `keepsAll`).
 */
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { redactForRender, redactValue, type CommandContext } from '../../src/cli/context.ts';
import { createSecretSink } from '../../src/cli/secrets.ts';
import type { Resource } from '../../src/model/resource.ts';
import { computePlan } from '../../src/plan/plan.ts';
import { OBSERVABILITY_PROFILES } from '../../src/clients/profiles.ts';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.ts';
import { renderPlanText } from '../../src/render/plan-text.ts';
import { dashboard, DIR, emptyState, liveOf, MARKER, NOW } from '../plan/fixtures.ts';

const SECRET = 'canary-secret-0123456789';

function ctxWith(values: string[] = [SECRET]): CommandContext {
  const secrets = createSecretSink({});
  secrets.add(values);
  return { secrets } as unknown as CommandContext;
}

interface Case {
  name: string;
  value: unknown;
  /** The value itself comes back (no copy made). */
  same: boolean;
  secrets?: string[];
}

const plan = (extra: Record<string, unknown> = {}) => ({
  formatVersion: 1,
  items: [{ kind: 'Dashboard', name: 'a', action: 'noop', patch: [], digest: 'sha256:00', ignoredFields: undefined, ...extra }],
  summary: { create: 0, noop: 1 },
});

const CASES: Case[] = [
  { name: 'no credential anywhere', value: plan(), same: true },
  { name: 'no secrets known', value: plan({ message: SECRET }), same: true, secrets: [] },
  { name: 'raw in a nested string', value: plan({ after: { tiles: { t: { series: [{ where: `x ${SECRET} y` }] } } } }), same: false },
  { name: 'JSON-escaped form in a string', value: plan({ message: JSON.stringify(`"${SECRET}"`) }), same: false, secrets: [`"${SECRET}"`] },
  { name: 'URL-encoded in a string', value: plan({ message: encodeURIComponent(`a/${SECRET}`) }), same: false, secrets: [`a/${SECRET}`] },
  { name: 'base64 in a string', value: plan({ message: Buffer.from(SECRET).toString('base64') }), same: false },
  { name: 'split over two strings (the copy does not find it either)', value: plan({ wayOut: [SECRET.slice(0, 10), SECRET.slice(10)] }), same: true },
  { name: 'in a key only (keys are redacted too: a renderer may wrap them)', value: plan({ after: { [SECRET]: 1 } }), same: false },
  {
    name: 'in a nested key, URL-encoded',
    value: plan({ after: { a: [{ [`k ${encodeURIComponent(`a/${SECRET}`)}`]: 1 }] } }),
    same: false,
    secrets: [`a/${SECRET}`],
  },
  { name: 'NaN: not plain JSON, copied', value: plan({ after: { x: Number.NaN } }), same: false },
  { name: '-0: not plain JSON, copied', value: plan({ after: { x: -0 } }), same: false },
  { name: 'undefined in an array: copied', value: plan({ wayOut: ['a', undefined] }), same: false },
  { name: 'a Date: copied', value: plan({ at: new Date(0) }), same: false },
  { name: 'a secret holding a NUL: checked string by string', value: plan({ message: 'ab\u0000cd-secret' }), same: false, secrets: ['ab\u0000cd-secret'] },
  { name: 'a secret holding a NUL, absent', value: plan({ message: 'ab' }), same: true, secrets: ['ab\u0000cd-secret'] },
];

for (const c of CASES) {
  test(`redactForRender: ${c.name}`, () => {
    const ctx = ctxWith(c.secrets);
    const out = redactForRender(ctx, c.value);
    assert.is(out === c.value, c.same);
    assert.is(JSON.stringify(out), JSON.stringify(redactValue(ctx, c.value)));
  });
}

test('redactForRender: what the copy gives, for any JSON value and strings holding the secret anywhere', () => {
  const str = fc.oneof(
    fc.string(),
    fc.constant(SECRET),
    fc.string().map((s) => `${s}${SECRET}${s}`),
    fc.constant(Buffer.from(SECRET).toString('hex')),
  );
  const value = fc.letrec((tie) => ({
    v: fc.oneof(
      { depthSize: 'small' },
      str,
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('v'), { maxLength: 4 }),
      fc.dictionary(str, tie('v'), { maxKeys: 4 }),
    ),
  })).v;
  fc.assert(
    fc.property(value, (v) => {
      const ctx = ctxWith();
      const out = redactForRender(ctx, v);
      assert.is(JSON.stringify(out), JSON.stringify(redactValue(ctx, v)));
      if (out === v) assert.not.match(JSON.stringify(v) ?? '', SECRET);
    }),
    { numRuns: 500 },
  );
});

test('redactValue: keys holding a credential are redacted, two that meet both kept, __proto__ stays a member', () => {
  const ctx = ctxWith();
  const value = JSON.parse(`{"a":{"${SECRET}":1,"x-${SECRET}":2,"[redacted]":3,"__proto__":{"${SECRET}":4}},"b":["${SECRET}"]}`);
  const out = redactValue(ctx, value) as Record<string, Record<string, unknown>>;
  assert.equal(Object.keys(out['a']!), ['[redacted]', 'x-[redacted]', '[redacted] #2', '__proto__']);
  assert.equal(Object.values(out['a']!).slice(0, 3), [1, 2, 3]);
  assert.equal(Object.keys(Object.getOwnPropertyDescriptor(out['a'], '__proto__')!.value as object), ['[redacted]']);
  assert.equal(Object.getPrototypeOf(out['a']), Object.prototype);
  assert.not.match(JSON.stringify(out), SECRET);
});

test('a plan whose drift is a value with credential keys: the text and Markdown, lines joined again, hold none', () => {
  // GIVEN a live filter member whose keys are the token (no string value holds it), long enough to be wrapped
  const filter = { type: 'QUERY_EXPRESSION', name: 'Environment', expression: 'environment' };
  const resources = [dashboard('d1')];
  Object.assign((resources[0] as Resource<'Dashboard'>).doc.spec, { filters: [filter] });
  const nested = Object.fromEntries(Array.from({ length: 12 }, (_, i) => ['k'.repeat(i + 1), { [SECRET]: 1 }]));
  // (A member steward does not know is not drift on its own: the expression differs too, and the update shows
  // the unknown member going with it.)
  const live = [liveOf('d1', '65f5e4a3b9e77c001a000001', { filters: [{ ...filter, expression: 'env', id: 'f1', nested }] } as never)];
  const computed = computePlan({
    resources,
    live,
    state: emptyState,
    markerTag: MARKER,
    now: NOW,
    projectDir: DIR,
    capabilities: OBSERVABILITY_PROFILES.hyperdx.capabilities,
  });
  assert.equal(
    computed.items.map((i) => i.action),
    ['update'],
  );
  // WHEN it is redacted for rendering and rendered narrow
  const out = redactForRender(ctxWith(), computed);
  for (const text of [renderPlanText(out, { color: false, columns: 60 }), renderPlanMarkdown(out)]) {
    // THEN the removed value is shown, and no line break hides the token from a sink of the finished text
    assert.match(text, 'nested');
    assert.not.match(text.replace(/\n[ \-|>]*/g, ''), SECRET);
  }
});

test('keepsAll: across the chunks a long list is checked in', () => {
  const sink = createSecretSink({});
  sink.add([SECRET]);
  const many = Array.from({ length: 40_000 }, (_, i) => `${i}`.padEnd(1000, 'x'));
  assert.ok(sink.keepsAll(many));
  many[39_999] = `..${SECRET}..`;
  assert.not.ok(sink.keepsAll(many));
});

test.run();
