/**
 * `utf8Text` (src/shared/text.ts), which reads response bodies and cache files: always the string
 * `toString('utf8')` gives, whether the bytes are ASCII (read as Latin-1) or not.
 */
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { utf8Text } from '../../src/shared/text.ts';
import { anyCodePoint } from '../fuzz/arbitraries.ts';

test('the same string as the UTF-8 decoder, for any bytes: ASCII, multi-byte, invalid, a view into a larger buffer', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.uint8Array({ maxLength: 300 }),
        fc.string({ unit: anyCodePoint }).map((s) => new Uint8Array(Buffer.from(s, 'utf8'))),
      ),
      fc.nat(5),
      (bytes, skip) => {
        const start = Math.min(skip, bytes.length);
        const view = bytes.subarray(start);
        assert.is(utf8Text(view), Buffer.from(view).toString('utf8'));
        assert.is(utf8Text(Buffer.from(view)), Buffer.from(view).toString('utf8'));
      },
    ),
    { numRuns: 1000 },
  );
  for (const s of ['', 'plain {"json": 1}', 'é', '\u00ff', '\u{1F600}', '\u007f\u0080']) assert.is(utf8Text(Buffer.from(s, 'utf8')), s);
  // 0x80-0xff alone are not UTF-8: replaced, as the decoder does (never read as Latin-1).
  assert.is(utf8Text(Buffer.from([0x61, 0xe9, 0x62])), 'a\ufffdb');
});

test.run();
