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
    "two processes, listed newest first: one process's copies still by counter (both runners keep the same copy)",
    [oid(100, 'aaaaaaaaaa000002'), oid(100, 'bbbbbbbbbb000005'), oid(100, 'aaaaaaaaaa000001')],
    [oid(100, 'aaaaaaaaaa000001'), oid(100, 'bbbbbbbbbb000005'), oid(100, 'aaaaaaaaaa000002')],
  ],
  [
    'three counters of one process a third of the range apart: the widest gap is the wrap, whatever the list order',
    [oid(100, 'ccccccccccaaaaaa'), oid(100, 'cccccccccc000000'), oid(100, 'cccccccccc555555')],
    [oid(100, 'cccccccccc000000'), oid(100, 'cccccccccc555555'), oid(100, 'ccccccccccaaaaaa')],
  ],
  [
    'three copies across a wrap, listed newest first',
    [oid(100, 'aaaaaaaaaa000001'), oid(100, 'aaaaaaaaaaffffff'), oid(100, 'aaaaaaaaaafffffe')],
    [oid(100, 'aaaaaaaaaafffffe'), oid(100, 'aaaaaaaaaaffffff'), oid(100, 'aaaaaaaaaa000001')],
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

/** Every order of a list, for the properties below. */
function permutations<T>(xs: readonly T[]): T[][] {
  if (xs.length <= 1) return [[...xs]];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((p) => [x, ...p]));
}

test('oldestFirst: an order, whatever the list order: one process by counter in its places, idempotent, the same for any part of the list', () => {
  // Two processes in one second, a wrap in one of them, and a copy of another second.
  const ids = [
    oid(100, 'aaaaaaaaaafffffe'),
    oid(100, 'aaaaaaaaaa000003'),
    oid(100, 'bbbbbbbbbb000007'),
    oid(100, 'aaaaaaaaaaffffff'),
    oid(100, 'bbbbbbbbbb000001'),
    oid(99, 'aaaaaaaaaa000009'),
  ];
  const made = [ids[5], ids[0], ids[3], ids[1]]; // process a's copies in the order made
  for (const list of permutations(ids)) {
    const out = oldestFirst(list.map((id) => ({ id }))).map((c) => c.id);
    assert.is(out[0], ids[5], 'the earlier second first');
    assert.equal(
      out.filter((id) => made.includes(id)),
      made,
      `one process's copies in the order made (list ${list.map((id) => id.slice(-2)).join(' ')})`,
    );
    // Its places are the list's: within the second, where the other process's copies are is where the list put them.
    const places = (xs: string[]) => xs.filter((id) => id.startsWith(oid(100, ''))).map((id) => id.slice(8, 18));
    assert.equal(places(out), places(list), 'each process keeps the places the list gave it');
    assert.equal(
      oldestFirst(out.map((id) => ({ id }))).map((c) => c.id),
      out,
      'sorting the result again changes nothing',
    );
    const part = out.filter((id) => id !== ids[2]);
    assert.equal(
      oldestFirst(part.map((id) => ({ id }))).map((c) => c.id),
      part,
      'a part of the sorted list sorts as it stands (duplicates.ts sorts a filtered list again)',
    );
  }
});

test.run();
