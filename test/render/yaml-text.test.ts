/**
 * yamlText (src/render/yaml-text.ts): the YAML steward writes (import's files, render's output) holds no raw
 * C1 control, separator, bidirectional override or invisible character, and reads back as the same strings,
 * through `yaml` and through steward's own loader.
 */
import { Document, parse } from 'yaml';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { processFile } from '../../src/config/resources.ts';
import { renderDashboardYaml } from '../../src/render/dashboard-yaml.ts';
import { yamlText } from '../../src/render/yaml-text.ts';
import type { LiveDashboardInput } from '../../src/plan/types.ts';

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

// Strings a YAML 1.1 reader (yamllint, PyYAML, Ansible, Helm) takes for booleans, numbers, times or null.
const YAML11 = ['yes', 'No', 'on', 'OFF', '2026-11-27', '12:30', '0o12', '1_000', '0b101', '~', '190:20:30', '.5', '+12'];

test("files steward writes read the same under YAML 1.1: string values 1.1 reads otherwise are quoted, keys (a tile's y) stay plain", () => {
  const live = {
    id: '65f5e4a3b9e77c001a000001',
    name: 'yes',
    tags: YAML11,
    tiles: [{ id: 't1', name: 'on', x: 0, y: 0, w: 6, h: 3, series: [{ type: 'time', aggFn: 'count', where: 'off', groupBy: ['No'] }] }],
  };
  const { text, value } = renderDashboardYaml(live as unknown as LiveDashboardInput, {
    metadataName: 'yes',
    markerTag: 'm',
    schemaPath: 's.json',
    pinId: false,
  });
  assert.equal(parse(text), value);
  // Only the key y reads otherwise under the strict 1.1 schema (as true; PyYAML keeps it a string).
  const { true: _y, ...tile11 } = parse(text, { version: '1.1' }).spec.tiles[0];
  const { y: _y12, ...tile12 } = parse(text).spec.tiles[0];
  assert.equal(tile11, tile12, text);
  assert.equal(parse(text, { version: '1.1' }).spec.tags, YAML11, text);
  assert.match(text, /\n +y: 0\n/, "a tile's y stays a plain key");
  for (const s of YAML11) {
    const doc = new Document({ name: s, list: [s], [s]: 1 });
    const written = yamlText(doc);
    assert.equal(parse(written), { name: s, list: [s], [s]: 1 }, `${s}: ${written}`);
    assert.equal(parse(written, { version: '1.1' }).name, s, `${s}: ${written}`);
    assert.equal(parse(written, { version: '1.1' }).list, [s], `${s}: ${written}`);
  }
});

test.run();
