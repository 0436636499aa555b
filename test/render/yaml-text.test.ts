/**
 * yamlText (src/render/yaml-text.ts): the YAML steward writes (import's files, render's output) holds no raw
 * C1 control, separator, bidirectional override or invisible character, and reads back as the same strings,
 * through `yaml` and through steward's own loader.
 */
import { Document, parse } from 'yaml';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { processFile } from '../../src/config/resources.ts';
import { yamlText } from '../../src/render/yaml-text.ts';

const RAW = /[\u007f-\u009f\u00ad\u2028\u2029\u202a-\u202e\u2066-\u2069\u200b\u200e\u200f\ufeff\u{e0000}-\u{e007f}]/u;

const STRINGS = [
  'CSI \u009b31m red',
  'DEL \u007f (yaml writes it raw)',
  'NEL \u0085 next line',
  'Trojan \u202egnp.exe',
  'isolates \u2066a\u2069 and marks \u200e\u200f',
  'separators \u2028 and \u2029',
  'invisible \u200b\u00ad\ufeff',
  'tag characters \u{e0041}\u{e0042}',
  // The private-use characters yamlText marks with: present in the text, so it picks others.
  'marks \ue000\ue001 \uf8fe\uf8ff with \u202e',
  'plain text stays plain',
  'joiners stay: \u{1F468}\u200d\u{1F469}',
];

test('yamlText: no raw unsafe character; the same strings read back, values and keys; the document left as it was', () => {
  for (const s of STRINGS) {
    const value = { apiVersion: 'steward/v1', kind: 'Dashboard', metadata: { name: 'd' }, spec: { name: s, tags: [s], tiles: [], [`key ${s}`]: 1 } };
    const doc = new Document(value);
    const text = yamlText(doc);
    assert.not.match(text, RAW, `${JSON.stringify(s)}:\n${text}`);
    assert.equal(parse(text), value, JSON.stringify(s));
    assert.equal(doc.toJS(), value, 'the document is unchanged');
  }
  // Text with nothing to escape is what yaml writes.
  const doc = new Document({ a: 'plain', b: ['x', 1] });
  assert.is(yamlText(doc), doc.toString({ lineWidth: 0 }));
});

test("yamlText: steward's loader reads the escapes as yaml does (the fast path steps aside for them)", () => {
  for (const s of STRINGS) {
    const value = { apiVersion: 'steward/v1', kind: 'Dashboard', metadata: { name: 'd' }, spec: { name: s, tiles: [] } };
    const r = processFile('/p/dashboards/d.yaml', Buffer.from(yamlText(new Document(value))), {}, { isProjectFile: false });
    assert.equal(r.issues, [], JSON.stringify(s));
    assert.equal(r.resources[0]!.doc, value, JSON.stringify(s));
  }
});

test.run();
