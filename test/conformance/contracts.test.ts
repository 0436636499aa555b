/**
 * The repository's copies of the vendored OpenAPI files (test/fixtures/contracts/openapi/) are what
 * test/helpers/prism-contracts.ts extracts from ../shared/contracts, when that folder is here (CI clones the
 * repository alone and uses the copies as they are). `UPDATE_CONTRACTS=1` rewrites them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CONTRACT_FILES, contractPath, cutToPaths, extractContract, haveSharedContracts, type ContractName } from '../helpers/prism-contracts.ts';
import { prepareSpec, SPEC_FIXES } from '../helpers/prism.ts';

for (const name of Object.keys(CONTRACT_FILES) as ContractName[]) {
  test(`copy of ${name} is up to date`, () => {
    if (!haveSharedContracts()) return; // CI: nothing to compare with
    const want = extractContract(name);
    if (process.env['UPDATE_CONTRACTS'] === '1') writeFileSync(contractPath(name), want);
    assert.ok(readFileSync(contractPath(name), 'utf8') === want, `${contractPath(name)} is stale: run UPDATE_CONTRACTS=1 npm test`);
  });
}

test('the cut keeps the paths asked for and every component they reach, nothing else', () => {
  const doc = {
    openapi: '3.1.0',
    tags: [{ name: 'x' }],
    security: [{ basic: [] }],
    paths: {
      '/keep': { get: { responses: { 200: { $ref: '#/components/responses/Ok' } } } },
      '/drop': { get: { responses: { 200: { $ref: '#/components/responses/Other' } } } },
    },
    components: {
      responses: { Ok: { content: { 'application/json': { schema: { $ref: '#/components/schemas/A' } } } }, Other: {} },
      schemas: { A: { properties: { b: { $ref: '#/components/schemas/B' } } }, B: { properties: { a: { $ref: '#/components/schemas/A' } } }, C: {} },
      securitySchemes: { basic: { type: 'http', scheme: 'basic' } },
    },
  };
  const cut = cutToPaths(doc, /^\/keep$/);
  assert.equal(Object.keys(cut.paths), ['/keep']);
  assert.equal(Object.keys(cut.components.responses), ['Ok']);
  assert.equal(Object.keys(cut.components.schemas).sort(), ['A', 'B']);
  assert.equal(cut.components.securitySchemes, doc.components.securitySchemes);
  assert.is(cut.tags, undefined);
});

test('the ClickHouse Cloud fixes turn every "oneOf [X, null]" into anyOf and every string enum of a number into numbers, and touch nothing else', () => {
  const name: ContractName = 'clickhouse-cloud-2026-07-31';
  const original = JSON.parse(readFileSync(contractPath(name), 'utf8'));
  const { file, fixes, cleanup } = prepareSpec(name);
  try {
    assert.equal(fixes, SPEC_FIXES[CONTRACT_FILES[name].fixture]);
    const fixed = JSON.parse(readFileSync(file, 'utf8'));
    let nullableOneOf = 0;
    let numericEnum = 0;
    const walk = (a: any, b: any): void => {
      if (a === null || typeof a !== 'object') return assert.equal(b, a);
      if (a.type === 'number' && Array.isArray(a.enum) && a.enum.every((v: unknown) => typeof v === 'string')) {
        numericEnum++;
        assert.equal(b.enum, a.enum.map(Number));
        const { enum: _e, ...ra } = a;
        const { enum: _f, ...rb } = b;
        return walk(ra, rb);
      }
      if (Array.isArray(a?.oneOf) && a.oneOf.some((x: any) => x?.type === 'null')) {
        nullableOneOf++;
        assert.equal(b.anyOf, a.oneOf);
        assert.is(b.oneOf, undefined);
        const { oneOf: _o, ...ra } = a;
        const { anyOf: _a, ...rb } = b;
        return walk(ra, rb);
      }
      assert.equal(Object.keys(b).sort(), Object.keys(a).sort());
      for (const k of Object.keys(a)) walk(a[k], b[k]);
    };
    walk(original, fixed);
    assert.ok(nullableOneOf > 10, String(nullableOneOf));
    assert.ok(numericEnum >= 1, String(numericEnum));
  } finally {
    cleanup();
  }
});

test.run();
