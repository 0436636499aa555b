/**
 * Fuzzing one file at a time through `processFile` (parse, interpolate, schema check): valid documents of
 * every kind load without a problem and come back equal; mutated ones never throw, and every problem names
 * the file, a line and column inside it, and says something. The rendered problem list keeps one line per
 * problem in every format.
 *
 *   npm test                                                   400 cases (and 150 in workspace.test.ts)
 *   FUZZ_RUNS=20000 node --import tsx test/fuzz/documents.test.ts   the soak run (npm run soak runs all)
 *   FUZZ_SEED=<seed> …                                         replays a failure
 */
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { processFile } from '../../src/config/resources.ts';
import { renderValidate } from '../../src/render/validate.ts';
import { anyCodePoint, anyResourceDoc, budget, projectDoc, renderDocs, renderStyle, type RenderStyle } from './arbitraries.ts';
import { assertIssuesWellFormed, mutateText, mutateValue, textMutation, valueMutation } from './mutate.ts';

/** Cases per property in `npm test`; FUZZ_RUNS=N spreads N over them in these proportions. */
const runs = budget({ valid: 80, project: 30, values: 120, text: 120, both: 50 });

const FILE = '/repo/dashboards/fuzz.yaml';

// Nothing may print behind steward's back: a library's process warning would reach the user's stderr.
// Listened to from this file's first test to its last (uvu runs other files' tests in this process too).
const warnings: string[] = [];
const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
test.before(() => void process.on('warning', onWarning));
const ENV = { STEWARD_OBS_URL: 'http://127.0.0.1:1' };

/** The strict part of every property: no throw, well-formed issues, renderable in every format. */
function check(bytes: Uint8Array, isProjectFile: boolean, context: () => string) {
  const r = processFile(FILE, bytes, ENV, { isProjectFile });
  assertIssuesWellFormed(r.issues, new Map([[FILE, bytes]]), context);
  const result = { files: 1, counts: { dashboard: r.resources.length }, issues: r.issues };
  const textOut = renderValidate(result, 'text', { color: false });
  const github = renderValidate(result, 'github', { color: false });
  JSON.parse(renderValidate(result, 'json', { color: false }));
  // One line per problem, plus the verdict (and a blank line in text).
  assert.is(github.trimEnd().split('\n').length, r.issues.length + 1, `github annotations are not one line each: ${github}\n${context()}`);
  assert.is(
    textOut.trimEnd().split('\n').length,
    r.issues.length === 0 ? 1 : r.issues.length + 2,
    `text lines are not one per problem: ${textOut}\n${context()}`,
  );
  return r;
}

/**
 * The yaml package folds long double-quoted strings at any UTF-16 unit, even between the two halves of an
 * astral character, which then cannot be written as UTF-8. Folding is off where the text must round-trip
 * (steward's own writer, `steward import`, never folds either).
 */
const unfolded = (style: RenderStyle): RenderStyle => ({ ...style, lineWidth: 0 });

test('valid documents of every resource kind load without a problem and equal what was written', () => {
  fc.assert(
    fc.property(fc.array(anyResourceDoc, { minLength: 1, maxLength: 4 }), renderStyle, (docs, style) => {
      const yaml = renderDocs(docs, unfolded(style));
      const r = check(Buffer.from(yaml), false, () => yaml);
      assert.equal(r.issues, [], yaml);
      assert.is(r.resources.length, docs.length);
      r.resources.forEach((res, i) => assert.equal(res.doc, docs[i], yaml));
    }),
    runs.valid,
  );
});

test('valid Project documents load in the project file (connection settings left for connect time)', () => {
  fc.assert(
    fc.property(projectDoc, renderStyle, (doc, style) => {
      const yaml = renderDocs([doc], unfolded(style));
      const r = check(Buffer.from(yaml), true, () => yaml);
      assert.equal(r.issues, [], yaml);
      assert.is(r.projects.length, 1);
      assert.equal(r.projects[0]!.doc, doc, yaml);
    }),
    runs.project,
  );
});

test('mutated values (types, keys, nesting, unicode, huge strings, kinds): no throw, every problem located', () => {
  fc.assert(
    fc.property(
      fc.oneof(anyResourceDoc, projectDoc as fc.Arbitrary<Record<string, unknown>>),
      fc.array(valueMutation, { minLength: 1, maxLength: 4 }),
      renderStyle,
      fc.boolean(),
      (doc, muts, style, isProjectFile) => {
        const mutated = mutateValue(doc, muts);
        let yaml: string;
        try {
          yaml = renderDocs([mutated], style);
        } catch {
          return; // stringify refuses some values (e.g. a key it cannot write): nothing to load
        }
        check(Buffer.from(yaml), isProjectFile, () => `${JSON.stringify(muts).slice(0, 400)}\n${yaml.slice(0, 2000)}`);
      },
    ),
    runs.values,
  );
});

test('mutated text (truncation, stray characters, duplicate keys, anchors, aliases, broken UTF-8): no throw, every problem located', () => {
  fc.assert(
    fc.property(
      fc.array(anyResourceDoc, { minLength: 1, maxLength: 3 }),
      renderStyle,
      fc.array(textMutation, { minLength: 1, maxLength: 5 }),
      fc.boolean(),
      (docs, style, muts, isProjectFile) => {
        const bytes = mutateText(renderDocs(docs, style), muts);
        check(bytes, isProjectFile, () => `${JSON.stringify(muts)}\n${JSON.stringify(bytes.toString('utf8').slice(0, 2000))}`);
      },
    ),
    runs.text,
  );
});

test('both at once, and whole files of arbitrary text: no throw, every problem located', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.tuple(anyResourceDoc, fc.array(valueMutation, { maxLength: 2 }), fc.array(textMutation, { maxLength: 3 }), renderStyle).map(([d, vm, tm, style]) => {
          try {
            return mutateText(renderDocs([mutateValue(d, vm)], style), tm);
          } catch {
            return Buffer.from('');
          }
        }),
        fc.string({ unit: anyCodePoint, maxLength: 300 }).map((s) => Buffer.from(s)),
        fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)),
      ),
      (bytes) => {
        check(bytes, false, () => JSON.stringify(bytes.toString('utf8').slice(0, 2000)));
      },
    ),
    runs.both,
  );
});

test('no process warning was emitted while loading any of them', async () => {
  await new Promise((r) => setImmediate(r));
  process.off('warning', onWarning);
  assert.equal(warnings, []);
});

test.run();
