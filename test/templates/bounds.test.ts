/**
 * What template files cost, whatever they hold (red team, round 12): problems name a bounded number of the
 * names they could list, and (below) what instances stamp is bounded in size, not only in count.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { nodeFileSystem } from '../../src/config/fs.ts';
import { loadWorkspace } from '../../src/config/load.ts';
import { tmpProject } from '../helpers/tmp.ts';

const PROJECT = `apiVersion: steward/v1
kind: Project
spec:
  resources: ["**/*.yaml"]
  observability: { api: hyperdx, url: "http://127.0.0.1:1", token: { env: T } }
`;

async function load(files: Record<string, string>) {
  const p = tmpProject({ 'steward.yaml': PROJECT, ...files });
  try {
    return await loadWorkspace({ fs: nodeFileSystem, env: {}, cwd: p.dir }, {});
  } finally {
    p.cleanup();
  }
}

const doc = (kind: string, name: string, spec: string) => `---\napiVersion: steward/v1\nkind: ${kind}\nmetadata: { name: ${name} }\nspec: ${spec}\n`;
const long = (prefix: string, i: number) => `${prefix}-${i}-`.padEnd(240, 'x');

// Each case: files whose problems could each list every one of N names (N problems × N names × 240 characters).
const lists: Array<{ name: string; files: () => Record<string, string>; message: RegExp }> = [
  {
    name: '300 instances of unknown templates among 300 templates',
    files: () => ({
      't.yaml': Array.from({ length: 300 }, (_, i) => doc('Template', long('t', i), '{ dashboards: [{ spec: { name: x } }] }')).join(''),
      'i.yaml': Array.from({ length: 300 }, (_, i) => doc('TemplateInstance', `i${i}`, `{ template: nope-${i} }`)).join(''),
    }),
    message: /^unknown template "nope-\d+": no Template has that metadata.name \(templates: .*, … and 290 more\)$/,
  },
  {
    name: '300 items outside an enum of 300 values',
    files: () => ({
      't.yaml': doc(
        'Template',
        't',
        `{ key: k, parameters: { k: { type: enum, values: [${Array.from({ length: 300 }, (_, i) => long('v', i)).join(', ')}] } }, dashboards: [{ spec: { name: x } }] }`,
      ),
      'i.yaml': doc('TemplateInstance', 'i', `{ template: t, forEach: [${Array.from({ length: 300 }, (_, i) => `{ k: w${i} }`).join(', ')}] }`),
    }),
    message: /^parameter "k" of template "t" must be one of .*, … and 290 more, found the string "w\d+"$/,
  },
  {
    name: '300 unknown parameters of a template with 300',
    files: () => ({
      't.yaml': doc(
        'Template',
        't',
        `{ parameters: { ${Array.from({ length: 300 }, (_, i) => `${`p_${i}_`.padEnd(240, 'x')}: { type: string, default: a }`).join(', ')} }, dashboards: [{ spec: { name: x } }] }`,
      ),
      'i.yaml': doc('TemplateInstance', 'i', `{ template: t, parameters: { ${Array.from({ length: 300 }, (_, i) => `q${i}: 1`).join(', ')} } }`),
    }),
    message: /^template "t" has no parameter "q\d+" \(parameters: .*, … and 290 more\)$/,
  },
];

for (const c of lists) {
  test(`a problem names ten of the names it could list: ${c.name}`, async () => {
    const loaded = await load(c.files());
    const errors = loaded.issues.filter((i) => i.severity === 'error');
    assert.ok(errors.length > 0);
    for (const e of errors) {
      assert.ok(e.message.length < 4_000, `${e.message.length} characters: ${e.message.slice(0, 200)}…`);
      assert.match(e.message.replace(/; and \d+ more like it$/, ''), c.message, e.message.slice(0, 300));
    }
  });
}

test.run();
