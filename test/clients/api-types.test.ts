/**
 * The API schemas and the TypeScript types made from them: no drift, tolerant where steward reads,
 * closed where steward writes, and the real services' documented examples pass.
 */
import { readFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Ajv2020 } from 'ajv/dist/2020.js';
import ajvFormats from 'ajv-formats';
import { apiSchemasForTest, checkRequest, checkResponse, loadApiSchema, type ResponseShape } from '../../src/clients/validate.ts';
import { generateApiTypes, TYPES_FILE } from '../../scripts/gen-api-types.ts';

test('src/clients/api-types.ts is what the schemas generate (regenerate: npm run generate)', async () => {
  const fresh = await generateApiTypes();
  const committed = readFileSync(TYPES_FILE, 'utf8');
  assert.fixture(committed, fresh);
});

type Node = Record<string, unknown>;

/** Every object-typed subschema, with its JSON pointer. */
function objectNodes(schema: unknown, at = ''): Array<{ at: string; node: Node }> {
  const out: Array<{ at: string; node: Node }> = [];
  const visit = (v: unknown, p: string) => {
    if (Array.isArray(v)) return v.forEach((x, i) => visit(x, `${p}/${i}`));
    if (typeof v !== 'object' || v === null) return;
    const n = v as Node;
    const t = n['type'];
    if (t === 'object' || (Array.isArray(t) && t.includes('object'))) out.push({ at: p, node: n });
    for (const [k, x] of Object.entries(n)) if (k !== 'examples' && k !== 'default') visit(x, `${p}/${k}`);
  };
  visit(schema, at);
  return out;
}

const RESPONSE_SCHEMAS = ['dashboard', 'alert', 'ingestPipe', 'reversePrivateEndpoint', 'backup'] as const;
const REQUEST_SCHEMAS = ['dashboardCreate', 'alertUpdate'] as const;

test('response schemas are tolerant: every object accepts unknown members', () => {
  for (const name of RESPONSE_SCHEMAS) {
    const nodes = objectNodes(loadApiSchema(name));
    assert.ok(nodes.length > 0);
    for (const { at, node } of nodes) {
      assert.is.not(node['additionalProperties'], false, `${name}${at} must not close additionalProperties`);
    }
  }
});

test('request schemas are closed: steward sends only what the contract names', () => {
  for (const name of REQUEST_SCHEMAS) {
    for (const { at, node } of objectNodes(loadApiSchema(name))) {
      assert.is(node['additionalProperties'], false, `${name}${at} must set additionalProperties: false`);
    }
  }
  assert.equal(
    checkRequest('dashboardCreate', { name: 'x', tiles: [{ name: 't', x: 0, y: 0, w: 6, h: 3, series: [{ type: 'time', aggFn: 'count', groupBy: [] }] }] }),
    [],
  );
  assert.equal(checkRequest('dashboardCreate', { name: 'x', tiles: [{ id: 'no', name: 't', x: 0, y: 0, w: 1, h: 1 }] }), [
    { field: 'tiles[0]', message: 'must NOT have additional properties' },
  ]);
  assert.equal(
    checkRequest('alertUpdate', { threshold: 1, thresholdType: 'beyond' }).map((p) => p.field),
    ['thresholdType'],
  );
  assert.equal(checkRequest('alertUpdate', { threshold: 1, thresholdType: 'between', thresholdMax: 2 }), []);
});

test('every API schema and envelope passes the draft 2020-12 meta-schema (the client skips that check at run time)', () => {
  const ajv = new Ajv2020({ allErrors: true, strict: true, allowUnionTypes: true });
  ajvFormats.default(ajv, ['date-time']);
  const { files, envelopes } = apiSchemasForTest();
  assert.ok(files.length >= 10 && envelopes.length >= 14);
  for (const s of files) {
    assert.ok(ajv.validateSchema(s), `${String(s['$id'])}: ${ajv.errorsText()}`);
    ajv.addSchema(s);
  }
  for (const e of envelopes) {
    assert.ok(ajv.validateSchema(e), `${JSON.stringify(e).slice(0, 200)}: ${ajv.errorsText()}`);
    ajv.compile(e);
  }
  // And a schema that breaks the meta-schema is caught here.
  assert.not.ok(ajv.validateSchema({ type: 'objekt' }));
});

test('schemas use draft 2020-12 and carry a title (the generated type name)', () => {
  for (const name of [...RESPONSE_SCHEMAS, ...REQUEST_SCHEMAS]) {
    const s = loadApiSchema(name);
    assert.is(s['$schema'], 'https://json-schema.org/draft/2020-12/schema');
    assert.type(s['title'], 'string');
  }
});

interface Example {
  source: string;
  shape: ResponseShape;
  body: unknown;
}

test('the documented examples of every HyperDX API version pass the response schemas', () => {
  const file = JSON.parse(readFileSync(new URL('./fixtures/contract-examples.json', import.meta.url), 'utf8')) as {
    examples: Example[];
  };
  assert.ok(file.examples.length >= 10);
  for (const ex of file.examples) {
    assert.equal(checkResponse(ex.shape, ex.body), [], ex.source);
  }
});

test.run();
