/**
 * mayHoldHalfCharacter: the byte scan that lets the schema check skip its walk for lone surrogates (src/schema/
 * validator.ts). It may say yes to a file without one; it must never say no to a file with one.
 */
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAllDocuments } from 'yaml';
import { mayHoldHalfCharacter } from '../../src/config/reference-scan.ts';
import { processFile } from '../../src/config/resources.ts';
import { anyResourceDoc, budget, renderDocs, renderStyle } from '../fuzz/arbitraries.ts';

const runs = budget({ docs: 150 });
const bytes = (text: string) => new TextEncoder().encode(text);
const LONE = /\p{Cs}/u;

function holdsHalf(v: unknown): boolean {
  if (typeof v === 'string') return LONE.test(v);
  if (Array.isArray(v)) return v.some(holdsHalf);
  if (v !== null && typeof v === 'object') return Object.entries(v).some(([k, x]) => LONE.test(k) || holdsHalf(x));
  return false;
}

test('the scan, by table: only an escape of a code unit or a reference can make half a character', () => {
  for (const [text, may] of [
    ['name: plain text, é and 😀\n', false],
    ['name: "tab\\t and \\x41"\n', false],
    ['name: "\\ud800"\n', true],
    ['name: "\\U0001F600"\n', true],
    ["name: 'a \\u in single quotes is two characters'\n", true], // a yes without a half: allowed
    ['name: "${HALF}"\n', true],
    ['name: "$\\x7bHALF}"\n', true],
  ] as const) {
    assert.is(mayHoldHalfCharacter(bytes(text)), may, text);
  }
});

test('a variable holding half a character is still refused (the scan says yes to every reference)', () => {
  const text = 'apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: v }\nspec:\n  name: "a ${HALF}"\n  tiles: []\n';
  const r = processFile('/repo/dashboards/v.yaml', bytes(text), { HALF: '\ud800' }, { isProjectFile: false });
  assert.ok(
    r.issues.some((i) => /half a character/.test(i.message) && i.line === 5),
    JSON.stringify(r.issues),
  );
});

/** A document with half a character put into one of its strings (the generator alone makes one rarely). */
const withHalf = fc.tuple(anyResourceDoc, fc.integer({ min: 0xd800, max: 0xdfff }), fc.nat()).map(([doc, unit, pick]) => {
  // Every string's place: its container and key.
  const strings: Array<[Record<string | number, unknown>, string | number]> = [];
  const walk = (v: unknown) => {
    if (v === null || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (typeof x === 'string') strings.push([v as Record<string | number, unknown>, Array.isArray(v) ? Number(k) : k]);
      else walk(x);
    }
  };
  const copy = structuredClone(doc);
  walk(copy);
  const [at, key] = strings[pick % strings.length]!;
  at[key] = `${String(at[key])}${String.fromCharCode(unit)}`;
  return copy;
});

test('fuzz: a file whose documents hold half a character is never passed over by the scan', () => {
  let halves = 0;
  fc.assert(
    fc.property(fc.array(fc.oneof(anyResourceDoc, withHalf), { minLength: 1, maxLength: 3 }), renderStyle, (docs, style) => {
      // The file as steward reads it: its bytes (a half written raw becomes U+FFFD there, and is no half).
      const file = bytes(renderDocs(docs, { ...style, lineWidth: 0 }));
      const text = new TextDecoder().decode(file);
      const values = parseAllDocuments(text).map((d) => d.toJS({ maxAliasCount: 100 }) as unknown);
      if (!values.some(holdsHalf)) return;
      halves++;
      assert.ok(mayHoldHalfCharacter(file), text);
    }),
    runs.docs,
  );
  // Not a property of the scan: that the generator made such files at all, so the check above ran.
  assert.ok(halves > 0, 'no generated file held half a character');
});

test.run();
