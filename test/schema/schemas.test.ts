import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generatePlanValidator, generateResponseValidators, generateTypes, generateValidators } from '../../scripts/generate.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('src/schema/types.gen.ts matches the schemas (run npm run generate after changing a schema)', async () => {
  const current = readFileSync(join(root, 'src/schema/types.gen.ts'), 'utf8');
  assert.fixture(current, await generateTypes());
});

/** Each generated file of `dir` is what npm run generate writes now, and no other file is there. */
function sameFiles(dir: string, want: Record<string, string>): void {
  const path = join(root, dir);
  assert.equal(
    readdirSync(path).sort(),
    Object.keys(want)
      .map((k) => `${k}.gen.cjs`)
      .sort(),
    `${dir} holds other files than npm run generate writes`,
  );
  for (const [name, text] of Object.entries(want))
    assert.ok(readFileSync(join(path, `${name}.gen.cjs`), 'utf8') === text, `${dir}/${name}.gen.cjs is out of date`);
}

test('src/schema/validators/<Kind>.gen.cjs match the schemas, one per kind and no other (run npm run generate after changing a schema)', () => {
  sameFiles('src/schema/validators', generateValidators());
});

test('src/apply/plan-validator.gen.ts matches schemas/plan.schema.json (run npm run generate after changing it)', () => {
  const current = readFileSync(join(root, 'src/apply/plan-validator.gen.ts'), 'utf8');
  assert.ok(current === generatePlanValidator(), 'plan-validator.gen.ts is out of date');
});

test('src/clients/response-validators/<name>.gen.cjs match schemas/api/ and the envelopes (run npm run generate after changing them)', () => {
  sameFiles('src/clients/response-validators', generateResponseValidators());
});

test('every schema sets additionalProperties: false on the objects steward owns', () => {
  for (const f of readdirSync(join(root, 'schemas')).filter((n) => n.endsWith('.schema.json') && n !== 'steward.schema.json')) {
    const schema = JSON.parse(readFileSync(join(root, 'schemas', f), 'utf8'));
    const open: string[] = [];
    const inAllOf = new Set<string>();
    // A dispatcher (if displayType is X then variant X) is closed by the variant every branch leads to.
    const isDispatcher = (o: Record<string, unknown>) =>
      Array.isArray(o['allOf']) && (o['allOf'] as Array<Record<string, unknown>>).every((p) => p['if'] !== undefined && p['then'] !== undefined);
    JSON.stringify(schema, (k, v) => {
      if (k === 'allOf' && Array.isArray(v)) for (const p of v) if (typeof p?.$ref === 'string') inAllOf.add(`${f}/$defs/${p.$ref.split('/').pop()}`);
      return v;
    });
    const walk = (s: unknown, path: string) => {
      if (!s || typeof s !== 'object') return;
      const o = s as Record<string, unknown>;
      // Free-form subsets of the server's pipe source/settings are the only open objects, on purpose.
      // HyperDX's tile config ($defs, generated from its spec) is closed with unevaluatedProperties on each
      // variant; the parts of an allOf stay open so that the variant they compose can close them.
      const closed =
        o['additionalProperties'] === false || o['unevaluatedProperties'] === false || /\/allOf\/\d+$/.test(path) || inAllOf.has(path) || isDispatcher(o);
      if (o['type'] === 'object' && o['properties'] && !closed) open.push(path);
      for (const [k, v] of Object.entries(o)) walk(v, `${path}/${k}`);
    };
    walk(schema, f);
    assert.equal(open, [], `open objects in ${f}`);
  }
});

test('every example file starts with a yaml-language-server line that resolves to the schema of its kind', () => {
  const ex = join(root, 'examples');
  const files: string[] = [];
  const list = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory() && !e.name.startsWith('.')) list(join(d, e.name));
      else if (e.name.endsWith('.yaml')) files.push(join(d, e.name));
    }
  };
  list(ex);
  assert.ok(files.length >= 8, `found ${files.length} example files`);
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    const m = /^# yaml-language-server: \$schema=(\S+)\n/.exec(text);
    assert.ok(m, `${f} starts with the schema line`);
    const target = resolve(dirname(f), m![1]!);
    const schema = JSON.parse(readFileSync(target, 'utf8'));
    const kinds = [...text.matchAll(/^kind: (\w+)$/gm)].map((k) => k[1]);
    for (const k of kinds) assert.is(schema.properties.kind.const, k, `${f}: kind ${k} matches ${m![1]}`);
  }
});

test.run();
