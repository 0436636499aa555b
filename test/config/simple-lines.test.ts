/**
 * simpleLines (src/config/fast-parse.ts), the line screen of the fast parse path, skips runs of plain
 * characters for speed (issue 15). It must answer exactly as the plain one-character-at-a-time loop it
 * replaced, kept here as the reference: over random texts of the characters it looks at (most answers of
 * random text are false, so lines are also built from pieces that keep a line simple), and every example file.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { simpleLines } from '../../src/config/fast-parse.ts';
import { budget } from '../fuzz/arbitraries.ts';
import { EXAMPLES } from '../helpers/project.ts';
import { yamlFilesUnder } from '../helpers/tree.ts';

const runs = budget({ chars: 3000, pieces: 3000 });

/** The loop simpleLines was before issue 15's rewrite, one character at a time. */
function reference(text: string): boolean {
  let lineStart = 0;
  let depth = 0;
  const open: number[] = [];
  let entry = false;
  let quote = 0;
  let spaces = false;
  let other = false;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : 10;
    if (c === 10) {
      if (i - lineStart > 1000 || quote !== 0 || depth !== 0 || (spaces && !other)) return false;
      lineStart = i + 1;
      spaces = other = entry = false;
      continue;
    }
    if (c === 9) return false;
    if (c === 32) spaces = true;
    else if (c !== 13) other = true;
    if (quote === 34) {
      if (c === 34) quote = 0;
      else if (c === 92) {
        const next = text.charCodeAt(i + 1);
        if (next === 10 || next === 13 || next === 85) return false;
        i++;
        other = true;
      }
      continue;
    }
    if (quote === 39) {
      if (c === 39) {
        if (text.charCodeAt(i + 1) === 39) i++;
        else quote = 0;
      }
      continue;
    }
    const prev = i === lineStart ? 32 : text.charCodeAt(i - 1);
    const startsEntry = entry;
    if (c !== 32) entry = false;
    switch (c) {
      case 35:
        if (prev === 34 || prev === 39 || prev === 93 || prev === 125) return false;
        if (prev === 32) {
          const nl = text.indexOf('\n', i);
          i = (nl === -1 ? text.length : nl) - 1;
        }
        break;
      case 34:
      case 39:
        if (prev === 32 || prev === 91 || prev === 123 || prev === 44 || prev === 58) quote = c;
        break;
      case 91:
      case 123:
        if (startsEntry && open[open.length - 1] === 123) return false;
        open.push(c);
        depth++;
        entry = true;
        break;
      case 93:
      case 125:
        if (--depth < 0 || open.pop() !== c - 2) return false;
        break;
      case 44:
        if (depth > 0) entry = true;
        break;
      case 124:
      case 62: {
        if (prev !== 32) break;
        let j = i + 1;
        let d = text.charCodeAt(j);
        if (d === 43 || d === 45) d = text.charCodeAt(++j);
        if (d >= 48 && d <= 57) return false;
        break;
      }
    }
  }
  return true;
}

const CHARS = [' ', ' ', '\n', '\t', '\r', '#', '"', "'", '[', ']', '{', '}', ',', '|', '>', ':', '-', '+', '\\', 'U', 'a', '1', '7', 'é', '\u2028', '😀', '?'];
const anyChars = fc.array(fc.constantFrom(...CHARS), { maxLength: 40 }).map((cs) => cs.join(''));
/** Pieces of lines a simple file is made of, so that many texts pass the screen and deep paths run. */
const PIECES = [
  '  ',
  'key: ',
  'a b',
  '- ',
  '"q \\" x"',
  "'it''s'",
  '{ a: 1, b: [x, y] }',
  '[a, {b: c}]',
  ' # note',
  '|',
  '>-',
  '|2',
  '\n',
  '\n',
  'x'.repeat(995),
];
const anyPieces = fc.array(fc.constantFrom(...PIECES), { maxLength: 30 }).map((ps) => ps.join(''));

test('simpleLines answers as the one-character loop on random texts', () => {
  fc.assert(
    fc.property(anyChars, (text) => assert.is(simpleLines(text), reference(text), JSON.stringify(text))),
    runs.chars,
  );
});

test('simpleLines answers as the one-character loop on texts made of line pieces (many pass the screen)', () => {
  let passed = 0;
  fc.assert(
    fc.property(anyPieces, (text) => {
      const expected = reference(text);
      if (expected) passed++;
      assert.is(simpleLines(text), expected, JSON.stringify(text));
    }),
    runs.pieces,
  );
  // Both answers must occur often, or the property proves little.
  assert.ok(passed > runs.pieces.numRuns! / 10, `only ${passed} texts passed the screen`);
  assert.ok(passed < runs.pieces.numRuns! * 0.9, `${passed} texts passed the screen`);
});

test('simpleLines answers as the one-character loop on every example file', () => {
  const files = yamlFilesUnder(EXAMPLES);
  assert.ok(files.length > 5);
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    assert.is(simpleLines(text), reference(text), f);
  }
});

test.run();
