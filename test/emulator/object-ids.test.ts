/** The emulator's ids are ObjectIds as one MongoDB process makes them, which apply's race rules read. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { oldestFirst } from '../../src/apply/oldest.ts';
import { createSeededRandom, objectIds } from '../../src/emulator/random.ts';

test('objectIds: the second, one process value, a counter that counts up; in one second the counter orders them', () => {
  const next = objectIds(createSeededRandom(7));
  const at = new Date(Date.UTC(2026, 10, 27, 12, 0, 0, 250));
  const ids = Array.from({ length: 5 }, () => next(at));
  for (const id of ids) assert.match(id, /^[0-9a-f]{24}$/);
  assert.ok(ids.every((id) => id.slice(0, 8) === (Date.UTC(2026, 10, 27, 12) / 1000).toString(16)));
  assert.is(new Set(ids.map((id) => id.slice(8, 18))).size, 1, 'one process value');
  const counters = ids.map((id) => parseInt(id.slice(18), 16));
  for (let i = 1; i < counters.length; i++) assert.is(counters[i], (counters[i - 1]! + 1) & 0xffffff);
  // Listed newest first: the oldest is still the first made.
  assert.equal(
    oldestFirst([...ids].reverse().map((id) => ({ id }))).map((c) => c.id),
    ids,
  );
});

test('objectIds: the same seed gives the same ids; another seed another process value', () => {
  const at = new Date(0);
  const a = objectIds(createSeededRandom(1));
  const b = objectIds(createSeededRandom(1));
  const c = objectIds(createSeededRandom(2));
  assert.is(a(at), b(at));
  assert.is.not(a(at).slice(8, 18), c(at).slice(8, 18));
});

test.run();
