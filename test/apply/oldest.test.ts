import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { oldestFirst } from '../../src/apply/oldest.ts';

const oid = (second: number, rest: string) => second.toString(16).padStart(8, '0') + rest;

const CASES: Array<[name: string, ids: string[], expected: string[]]> = [
  ['empty', [], []],
  ['one', ['x'], ['x']],
  ['ObjectIds newest first: by their second', [oid(200, 'a'.repeat(16)), oid(100, 'f'.repeat(16))], [oid(100, 'f'.repeat(16)), oid(200, 'a'.repeat(16))]],
  [
    'the same second: the order listed, not the random bytes',
    [oid(100, 'ffffffffffffffff'), oid(100, '0000000000000000')],
    [oid(100, 'ffffffffffffffff'), oid(100, '0000000000000000')],
  ],
  [
    'the same second and server process (equal random bytes): by the counter, not the order listed',
    [oid(100, 'aaaaaaaaaa000005'), oid(100, 'aaaaaaaaaa000004'), oid(100, 'AAAAAAAAAA000006')],
    [oid(100, 'aaaaaaaaaa000004'), oid(100, 'aaaaaaaaaa000005'), oid(100, 'AAAAAAAAAA000006')],
  ],
  [
    'the counter wrapped within the second: ffffff came before 000001',
    [oid(100, 'aaaaaaaaaa000001'), oid(100, 'aaaaaaaaaaffffff')],
    [oid(100, 'aaaaaaaaaaffffff'), oid(100, 'aaaaaaaaaa000001')],
  ],
  [
    'the same second, two processes: the order listed; the second still first',
    [oid(101, 'aaaaaaaaaa000001'), oid(100, 'bbbbbbbbbb000009'), oid(100, 'aaaaaaaaaa000002')],
    [oid(100, 'bbbbbbbbbb000009'), oid(100, 'aaaaaaaaaa000002'), oid(101, 'aaaaaaaaaa000001')],
  ],
  [
    'upper-case hex is an ObjectId too',
    [oid(9, 'A'.repeat(16)).toUpperCase(), oid(3, 'b'.repeat(16))],
    [oid(3, 'b'.repeat(16)), oid(9, 'A'.repeat(16)).toUpperCase()],
  ],
  [
    'ids of another shape (UUIDs): the order listed',
    ['9f1c4a52-3b7e-4d2a-9c1f-0e5b8a7d6c31', '0f1c4a52-3b7e-4d2a-9c1f-0e5b8a7d6c31'],
    ['9f1c4a52-3b7e-4d2a-9c1f-0e5b8a7d6c31', '0f1c4a52-3b7e-4d2a-9c1f-0e5b8a7d6c31'],
  ],
  [
    'one id not an ObjectId: the order listed for all',
    [oid(200, 'a'.repeat(16)), 'short', oid(100, 'a'.repeat(16))],
    [oid(200, 'a'.repeat(16)), 'short', oid(100, 'a'.repeat(16))],
  ],
];

for (const [name, ids, expected] of CASES) {
  test(`oldestFirst: ${name}`, () => {
    const input = ids.map((id) => ({ id }));
    assert.equal(
      oldestFirst(input).map((c) => c.id),
      expected,
    );
    assert.equal(
      input.map((c) => c.id),
      ids,
      'the list given is not reordered in place',
    );
  });
}

test.run();
