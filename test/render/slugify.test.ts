/** slugify (src/render/dashboard-yaml.ts): the key `steward import` names a file and its metadata.name with. */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { slugify } from '../../src/render/dashboard-yaml.ts';

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

test.run();
