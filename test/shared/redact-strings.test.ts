/** redactedForJson: the same JSON text as redactStrings, without the copy when nothing is redacted. */
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createRedactor } from '../../src/clients/redact.ts';
import { jsonText } from '../../src/render/escape.ts';
import { redactedForJson, redactStrings } from '../../src/shared/redact-strings.ts';
import { plainData } from '../helpers/arbitraries.ts';

const data = plainData({ withDate: true, withNullPrototype: true });

/** Every string and key in `v`, for secrets that are really there. */
function texts(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      out.push(k);
      texts(x, out);
    }
  }
  return out;
}

test('property: serialized, redactedForJson and redactStrings give the same text (secrets in the data or not, with and without patterns)', () => {
  fc.assert(
    fc.property(data, fc.nat(), fc.nat(), fc.array(fc.string({ minLength: 4 }), { maxLength: 2 }), fc.boolean(), (v, pick, cut, more, patterns) => {
      if (v === undefined) return;
      const found = texts(v).filter((t) => t.length >= 4);
      // A secret that is a part of one of the value's texts, so redaction has something to do.
      const inData = found.length > 0 ? found[pick % found.length]!.slice(cut % 2, (cut % 2) + 4 + (cut % 5)) : undefined;
      const r = createRedactor([inData, ...more], { patterns });
      assert.is(jsonText(redactedForJson(v, r), 0), jsonText(redactStrings(v, r), 0));
    }),
    { numRuns: 400 },
  );
});

test('a journal entry without a secret is written as it is (no copy); one with a secret in a key or a value is copied, redacted', () => {
  const r = createRedactor(['s3cr3t-token'], { patterns: false });
  const entry = { at: '2026-11-28T05:00:00.000Z', run: 'r1', op: 'dashboard.create', name: 'checkout', id: 'a'.repeat(24), tiles: { Errors: 'b'.repeat(24) } };
  assert.is(redactedForJson(entry, r), entry);
  for (const [what, e] of [
    ['a value', { ...entry, name: 'checkout s3cr3t-token' }],
    ['a key', { ...entry, tiles: { 'Errors s3cr3t-token': 'b'.repeat(24) } }],
    ['an array item', { ...entry, list: ['x', 's3cr3t-token'] }],
  ] as const) {
    const out = redactedForJson(e, r);
    assert.is.not(out, e, what);
    assert.not.match(jsonText(out, 0), /s3cr3t-token/, what);
    assert.match(jsonText(out, 0), /\[redacted\]/, what);
  }
  // A date and a class instance take the copy (their toJSON decides what is written).
  const dated = { at: new Date(0) };
  assert.is.not(redactedForJson(dated, r), dated);
  assert.is(jsonText(redactedForJson(dated, r), 0), '{"at":"1970-01-01T00:00:00.000Z"}');
});

test.run();
