import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { processFile } from '../../src/config/resources.ts';

const doc = (name: string) => `apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: d }\nspec:\n  name: ${name}\n`;
const nameOf = (yaml: string, env: Record<string, string>) => {
  const r = processFile('x.yaml', Buffer.from(yaml), env, { isProjectFile: false });
  const d = r.resources[0];
  return d?.kind === 'Dashboard' ? d.doc.spec.name : r.issues.map((i) => i.message).join('; ');
};

// Files without "$" skip the interpolation walk; a reference spelt with a double-quoted escape still counts.
test('a reference is expanded however the "$" is written; text without one is left as it is', () => {
  const env = { X: 'ok' };
  assert.is(nameOf(doc('a${X}'), env), 'aok');
  assert.is(nameOf(doc('"a\\x24{X}"'), env), 'aok');
  assert.is(nameOf(doc('"a\\u0024{X}"'), env), 'aok');
  assert.is(nameOf(doc('"a\\U00000024{X}"'), env), 'aok');
  assert.is(nameOf(doc('"a\\x24{MISSING}"'), env), 'environment variable MISSING is not set (use ${MISSING:-default} for a fallback)');
  assert.is(nameOf(doc('a{X}'), env), 'a{X}');
  assert.is(nameOf(doc('"a\\x25{X}"'), env), 'a%{X}');
});

test.run();
