/**
 * slugify and fileKey (src/render/dashboard-yaml.ts): the key `steward import` names a file and its
 * metadata.name with; isPortableFileName (src/shared/paths.ts): what Windows can check out.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { fileKey, slugify } from '../../src/render/dashboard-yaml.ts';
import { isPortableFileName } from '../../src/shared/paths.ts';

const CASES: Array<[string, string]> = [
  ['Checkout overview', 'checkout-overview'],
  ['Café latency', 'cafe-latency'],
  ['../../../tmp/pwned', 'tmp-pwned'],
  ['/etc/passwd', 'etc-passwd'],
  ['a/b\\c', 'a-b-c'],
  ['..', 'dashboard'],
  ['', 'dashboard'],
  ['日本語', 'dashboard'],
  ['x'.repeat(100), 'x'.repeat(80)],
  // Windows device names, whatever the extension: con.yaml is the console there.
  ['CON', 'con-dashboard'],
  ['nul', 'nul-dashboard'],
  ['COM1', 'com1-dashboard'],
  ['LPT9', 'lpt9-dashboard'],
  ['Aux', 'aux-dashboard'],
  ['console', 'console'],
  ['com10', 'com10'],
  // A steward.yaml among the dashboards would be taken for the project file there.
  ['.steward', 'steward-dashboard'],
  ['Steward', 'steward-dashboard'],
  ['steward overview', 'steward-overview'],
];

test('slugify: a key of [a-z0-9-], never a path, never a reserved file name', () => {
  for (const [name, key] of CASES) {
    const got = slugify(name);
    assert.is(got, key, name);
    assert.match(got, /^[a-z0-9]+(?:-[a-z0-9]+)*$/, name);
  }
});

// A file name Windows cannot check out: a device name whatever the extension and case, or a trailing dot or space.
const FILE_NAMES: Array<[string, boolean]> = [
  ['checkout.yaml', true],
  ['con.yaml', false],
  ['Nul.yaml', false],
  ['CON', false],
  ['aux.tar.gz', false],
  ['nul.alert.yaml', false],
  ['com1.yaml', false],
  ['COM\u00b9.yaml', false],
  ['lpt9', false],
  ['LPT0.yaml', false],
  ['CONIN$.yaml', false],
  ['con .yaml', false],
  ['x.', false],
  ['y ', false],
  ['x.yaml.', false],
  ['console.yaml', true],
  ['com10.yaml', true],
  ['con-dashboard.yaml', true],
  ['nul-alert.yaml', true],
  ['a.con', true],
];

test('isPortableFileName: Windows device names with or without an extension, and names ending in a dot or space', () => {
  for (const [name, portable] of FILE_NAMES) assert.is(isPortableFileName(name), portable, name);
});

// [the metadata.name a project file declares the live object under, the live name, the key import writes]
const KEYS: Array<[string | undefined, string, string]> = [
  // A declared name is kept (alerts name the dashboard by it)...
  ['checkout-overview', 'Checkout overview', 'checkout-overview'],
  ['team.v2', 'Team', 'team.v2'],
  // ...unless its file could not be checked out on Windows (metadata.name allows these) or is steward.yaml
  ['con', 'Checkout overview', 'con-dashboard'],
  ['nul.alert', 'Checkout errors', 'nul-alert'],
  ['aux.prod', 'Aux', 'aux-prod'],
  ['com1', 'Serial', 'com1-dashboard'],
  ['steward', 'Slow payments', 'steward-dashboard'],
  // Nothing declared: the slug of the live name
  [undefined, 'con.yaml', 'con-yaml'],
  [undefined, 'Nul.yaml', 'nul-yaml'],
  [undefined, 'CON', 'con-dashboard'],
  [undefined, 'aux.', 'aux-dashboard'],
  [undefined, 'x.', 'x'],
  [undefined, 'y ', 'y'],
  [undefined, 'COM\u00b9', 'com1-dashboard'],
  // A declared name too long for a file name (metadata.name allows 253): the slug, cut at 80
  ['a'.repeat(253), 'Long', 'a'.repeat(80)],
  ['b'.repeat(200), 'Long', 'b'.repeat(200)],
];

test('fileKey: a declared name unless reserved, else a slug; every key makes a portable file name', () => {
  for (const [declared, live, key] of KEYS) {
    const got = fileKey(declared, live);
    assert.is(got, key, `${declared} / ${live}`);
    assert.ok(isPortableFileName(`${got}.yaml`), got);
    // What import appends on a collision keeps it portable.
    assert.ok(isPortableFileName(`${got}-2.yaml`), got);
    assert.ok(Buffer.byteLength(`${got}-99.yaml`) <= 255, `${got.length} characters`);
  }
});

test.run();
