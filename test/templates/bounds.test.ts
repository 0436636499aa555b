/**
 * What template files cost, whatever they hold (red team, round 12): problems name a bounded number of the
 * names they could list, and (below) what instances stamp is bounded in size, not only in count.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { nodeFileSystem } from '../../src/config/fs.ts';
import { loadWorkspace } from '../../src/config/load.ts';
import { MAX_STAMPED_SIZE } from '../../src/templates/stamp.ts';
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

// What one small pair of files can make instances stamp: the count of stamps stays small, their size does not.
const list = (items: number, width: number) => `[${Array.from({ length: items }, (_, i) => `${i}`.padEnd(width, 'l')).join(', ')}]`;
const OVER =
  /^this instance would stamp more than 64 MiB of documents \(as JSON text\)(, after [\d.]+ MiB stamped by other instances)?: templates stamp at most that in a project/;

const sizes: Array<{ name: string; template: string; instance: string }> = [
  {
    // 100 KB of list used 1,000 times: 100 MB stamped from 115 KB of YAML.
    name: 'a list parameter used in many places',
    template: `{ parameters: { l: { type: list, default: ${list(100, 1000)} } }, dashboards: [{ spec: { name: x, tags: [${Array(1000).fill('$(params.l)').join(', ')}] } }] }`,
    instance: '{ template: t }',
  },
  {
    // A text of 6,000 references to a 100 KB string is 600 MB, past what one string can hold in V8 (so the
    // old code failed with "Invalid string length", an internal error).
    name: 'a long string written into a text many times',
    template: `{ parameters: { s: { type: string, default: ${'s'.repeat(100_000)} } }, dashboards: [{ spec: { name: "${Array(6000).fill('$(params.s)').join(' ')}" } }] }`,
    instance: '{ template: t }',
  },
  {
    // 2,000 tiles of markdown stamped for 300 items: about 120 MB.
    name: 'a large template stamped for many items',
    template: `{ key: k, parameters: { k: { type: string } }, dashboards: [{ spec: { name: "d $(params.k)", tiles: [${Array.from(
      { length: 2000 },
      (_, i) => `{ name: t${i}, x: 0, y: ${i}, w: 1, h: 1, config: { displayType: markdown, markdown: "${'m'.repeat(150)}" } }`,
    ).join(', ')}] } }] }`,
    instance: `{ template: t, forEach: [${Array.from({ length: 300 }, (_, i) => `{ k: k${i} }`).join(', ')}] }`,
  },
];

for (const c of sizes) {
  test(`stamps past ${MAX_STAMPED_SIZE / 1048576} MiB are refused at the instance, nothing stamped: ${c.name}`, async () => {
    const loaded = await load({ 't.yaml': doc('Template', 't', c.template), 'i.yaml': doc('TemplateInstance', 'i', c.instance) });
    const errors = loaded.issues.filter((i) => i.severity === 'error');
    assert.equal(
      errors.map((e) => [e.file.endsWith('i.yaml'), OVER.test(e.message)]),
      [[true, true]],
      errors.map((e) => e.message.slice(0, 200)).join('\n'),
    );
    assert.is(loaded.resources.filter((r) => r.kind === 'Dashboard').length, 0);
  });
}

test('an instance refused for its size does not count against the next one', async () => {
  const loaded = await load({
    't.yaml': doc('Template', 't', sizes[0]!.template) + doc('Template', 'small', '{ dashboards: [{ spec: { name: small } }] }'),
    'i.yaml': doc('TemplateInstance', 'i', '{ template: t }') + doc('TemplateInstance', 'j', '{ template: small }'),
  });
  assert.equal(
    loaded.issues.filter((i) => i.severity === 'error').map((e) => OVER.test(e.message) && !e.message.includes('after')),
    [true],
  );
  assert.equal(
    loaded.resources.filter((r) => r.kind === 'Dashboard').map((r) => r.name),
    ['small/j'],
  );
});

test.run();
