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
  { name: 'in a key only (the copy leaves keys)', value: plan({ after: { [SECRET]: 1 } }), same: true },
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
      fc.dictionary(fc.string(), tie('v'), { maxKeys: 4 }),
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

test('keepsAll: across the chunks a long list is checked in', () => {
  const sink = createSecretSink({});
  sink.add([SECRET]);
  const many = Array.from({ length: 40_000 }, (_, i) => `${i}`.padEnd(1000, 'x'));
  assert.ok(sink.keepsAll(many));
  many[39_999] = `..${SECRET}..`;
  assert.not.ok(sink.keepsAll(many));
});

test.run();
