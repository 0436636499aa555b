/**
 * Names as macOS and Windows compare them (src/shared/path-fold.ts): the checks that keep steward off the
 * project file, the state, the journal, resource files and .git compare folded names, so `STEWARD.yaml`,
 * `.GIT` or an NFD spelling is caught, while names that differ in more than that stay distinct.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { comparePaths, foldedNote, foldName, foldPath, gitFolderName, inGitFolder, isGitName, showName, unicodeFold } from '../../src/shared/path-fold.ts';

const NFC_E = 'caf\u00e9.yaml';
const NFD_E = 'cafe\u0301.yaml';

const COMPARE: Array<[string, string, string, 'same' | 'folded' | undefined]> = [
  ['equal as written', '/p/steward.yaml', '/p/steward.yaml', 'same'],
  ['upper case', '/p/STEWARD.yaml', '/p/steward.yaml', 'folded'],
  ['mixed case in a folder', '/p/.Steward/state.json', '/p/.steward/state.json', 'folded'],
  ['NFD and NFC (macOS takes both for one name)', `/p/${NFD_E}`, `/p/${NFC_E}`, 'folded'],
  ['NFD upper and NFC lower', '/p/CAFE\u0301.yaml', `/p/${NFC_E}`, 'folded'],
  ['a trailing dot (Windows drops it)', '/p/steward.yaml.', '/p/steward.yaml', 'folded'],
  ['a trailing space and dot', '/p/steward.yaml .', '/p/steward.yaml', 'folded'],
  ['a code point HFS+ ignores', '/p/stew\u200card.yaml', '/p/steward.yaml', 'folded'],
  ['a byte-order mark HFS+ ignores', '/p/\ufeffsteward.yaml', '/p/steward.yaml', 'folded'],
  ['the Kelvin sign and k', '/p/\u212a.json', '/p/k.json', 'folded'],
  ['final and medial sigma', '/p/\u039f\u0394\u039f\u03a3', '/p/\u03bf\u03b4\u03bf\u03c3', 'folded'],
  ['a backslash as Windows separates', '/p/.steward\\STATE.json', '/p/.steward/state.json', 'folded'],
  // NTFS reads `name:stream` as a stream of the file `name`, `name::$DATA` as its content.
  ['the content stream of the project file (NTFS)', '/p/steward.yaml::$DATA', '/p/steward.yaml', 'folded'],
  ['a named stream of the state (NTFS)', '/p/.steward/state.json:x', '/p/.steward/state.json', 'folded'],
  ['a stream of a folder on the way (NTFS)', '/p/.steward::$INDEX_ALLOCATION/state.json', '/p/.steward/state.json', 'folded'],
  ['a stream name, a trailing dot and another case together', '/p/Steward.yaml.::$DATA', '/p/steward.yaml', 'folded'],
  ['capital sharp s, sharp s and ss (full case folding)', '/p/stra\u1e9ee.json', '/p/strasse.json', 'folded'],
  // Distinct everywhere: never refused as one file.
  ['another extension', '/p/steward.yml', '/p/steward.yaml', undefined],
  ['the lock beside the state', '/p/.steward/state.json.lock', '/p/.steward/state.json', undefined],
  ['another folder', '/p/a/state.json', '/p/b/state.json', undefined],
  ['a dot inside, not at the end', '/p/a.b', '/p/ab', undefined],
  ['an accent that is no other form', '/p/cafe.yaml', `/p/${NFC_E}`, undefined],
  ['.. kept as a name', '/p/../x', '/p/x', undefined],
  ['a hyphen for a separator', '/p/dashboards-x.yaml', '/p/dashboards/x.yaml', undefined],
  ['a drive letter is no stream', 'C:\\p\\steward.yaml', 'C:\\p\\steward.yml', undefined],
];

for (const [name, a, b, want] of COMPARE) {
  test(`comparePaths: ${name}`, () => {
    assert.is(comparePaths(a, b), want);
    assert.is(comparePaths(b, a), want, 'either way round');
    assert.is(foldPath(a) === foldPath(b), want !== undefined);
  });
}

const GIT: Array<[string, boolean]> = [
  ['.git', true],
  ['.GIT', true],
  ['.Git', true],
  ['.git.', true],
  ['.git ', true],
  ['.git. .', true],
  ['git~1', true],
  ['GIT~1', true],
  ['.g\u200cit', true],
  ['\ufeff.git', true],
  ['.git::$INDEX_ALLOCATION', true],
  ['.github', false],
  ['.gitignore', false],
  ['.gitmodules', false],
  ['git', false],
  ['.git2', false],
  ['a.git', false],
  ['git~2', false],
  ['.steward', false],
  ['..', false],
  ['', false],
];

for (const [name, want] of GIT) {
  test(`isGitName(${JSON.stringify(name)}) is ${want}`, () => {
    assert.is(isGitName(name), want);
  });
}

const IN_GIT: Array<[string, string | undefined]> = [
  ['.git/config', '.git'],
  ['a/.GIT/hooks/pre-push', '.GIT'],
  ['.steward\\..\\.Git\\config', '.Git'],
  ['git~1/config', 'git~1'],
  ['.github/workflows/ci.yaml', undefined],
  ['.steward/state.json', undefined],
  ['', undefined],
];

for (const [rel, want] of IN_GIT) {
  test(`gitFolderName(${JSON.stringify(rel)}) is ${JSON.stringify(want)}`, () => {
    assert.is(gitFolderName(rel), want);
    assert.is(inGitFolder(rel), want !== undefined);
  });
}

test('an ASCII name folds by its own path exactly as the full Unicode fold would', () => {
  const ascii = fc.string({ unit: fc.integer({ min: 0, max: 127 }).map((c) => String.fromCharCode(c)), maxLength: 24 });
  const nameLike = fc.constantFrom('.git', 'GIT~1', 'Steward.YAML', '.steward', 'a:b', 'x. .', ' . ', '..', '.');
  fc.assert(
    fc.property(
      fc.oneof(
        ascii,
        nameLike,
        fc.tuple(nameLike, ascii).map(([a, b]) => a + b),
      ),
      (name) => {
        const full = name === '.' || name === '..' ? name : unicodeFold(name);
        const want = name === '.' || name === '..' || /^[. ]+$/.test(full) ? full : full.replace(/[. ]+$/, '');
        assert.is(foldName(name), want);
      },
    ),
    { numRuns: 5000 },
  );
});

test('the note names both names, says why, and shows an invisible code point as an escape', () => {
  assert.is(
    foldedNote('STEWARD.yaml', 'steward.yaml'),
    '"STEWARD.yaml" differs from "steward.yaml" only in case, Unicode form or trailing dots, so macOS and Windows take them for one file; refused on every system',
  );
  assert.is(
    foldedNote('steward.yaml::$DATA', 'steward.yaml'),
    '"steward.yaml::$DATA" is "steward.yaml" on Windows, where a name\'s ":stream" suffix names a stream of that file ("::$DATA" its content); refused on every system',
  );
  assert.is(showName('.g\u200cit'), '".g\\u200cit"');
  assert.is(showName('\u202e.git'), '"\\u202e.git"');
});

test.run();
