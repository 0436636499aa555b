/**
 * `steward import --template FILE` writes a HyperDX dashboard template (a JSON file from the internet) as a
 * steward Template in the repository, for review in a pull request. Every other YAML steward writes holds no
 * bidirectional override or invisible character raw (yamlText: "Trojan Source"), but this one was written
 * with the yaml library alone, and its `# note:` comment lines escaped only control characters: a template
 * whose name, tile name or file name held U+202E reordered the line in the review (red team, round 17). Now the file is
 * written through yamlText and the comment lines escape the same characters; it still reads back as the
 * very same strings.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAllDocuments } from 'yaml';
import { UNSAFE_BEYOND_C0 } from '../../src/render/escape.ts';
import { importHyperdxTemplate } from '../../src/templates/import-hyperdx.ts';
import { EXAMPLES } from '../helpers/project.ts';

const RLO = '\u202e';
const HIDDEN = `${RLO}gnp.exe\u200b\u2066\u{e0041}\u00ad`;

function hostileTemplate(): Record<string, unknown> {
  const file = join(EXAMPLES, '../test/fixtures/hyperdx-templates/go-runtime.json');
  const t = JSON.parse(readFileSync(file, 'utf8')) as { name: string; description?: string; tiles: Array<{ config: { name: string } }> };
  t.name = `Go runtime ${HIDDEN}`;
  t.description = `about ${HIDDEN}`;
  t.tiles[0]!.config.name = `CPU ${HIDDEN}`;
  return t;
}

test('import --template: no bidirectional override or invisible character raw, in values or comment lines', () => {
  const r = importHyperdxTemplate(hostileTemplate(), { name: 'go', schemaPath: '../schemas/template.schema.json', sourceFile: `go${RLO}.json` });
  const bad = r.text.split('\n').filter((l) => UNSAFE_BEYOND_C0.test(l));
  assert.equal(bad, []);
  // The comment naming the file it was made from: escaped as a value is.
  assert.ok(
    r.text.split('\n').some((l) => l.startsWith('# Imported from') && l.includes('go\\u202e.json')),
    r.text.slice(0, 2000),
  );
});

test('import --template: the escaped file reads back as the same strings', () => {
  const r = importHyperdxTemplate(hostileTemplate(), { name: 'go', schemaPath: '../schemas/template.schema.json', sourceFile: 'go.json' });
  const [doc] = parseAllDocuments(r.text);
  const js = doc!.toJS() as { metadata: { description: string }; spec: { dashboards: Array<{ spec: { name: string; tiles: Array<{ name: string }> } }> } };
  assert.is(js.metadata.description, `about ${HIDDEN}`);
  assert.is(js.spec.dashboards[0]!.spec.name, `Go runtime ${HIDDEN} ($(params.service))`);
  assert.is(js.spec.dashboards[0]!.spec.tiles[0]!.name, `CPU ${HIDDEN}`);
});

test.run();
