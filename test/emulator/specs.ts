/**
 * The vendored OpenAPI files of the profiles the emulator serves (HyperDX 2026-08-21 for `hyperdx`, ClickHouse
 * Cloud 2026-07-31 for `clickstack-cloud` and the real cloud paths), cut down to the paths the emulator serves:
 *
 * - `extractPathSpecs()`: those paths (every method, every documented response) and the component schemas they
 *   reach, without examples and prose. Copied to `test/fixtures/contracts/*.paths.json` so CI (which clones the
 *   repository alone) checks against the same text; `UPDATE_CONTRACTS=1 npm test` rewrites the copies.
 * - `extractRequestSchemas()`: the request-body schemas the emulator validates with, as the source of
 *   `src/emulator/spec-schemas.ts` (same update rule).
 * - `specChecker()`: checks one answer (method, path, status, body) against the response schema the spec
 *   gives for that operation and status.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { FIXTURES_DIR, SHARED_DIR } from './contracts.ts';

type Json = any;

export const HYPERDX_2026_FILE = 'hyperdx/openapi.2026-08-21.dc29d57f.json';
export const CLOUD_2026_FILE = 'clickhouse-cloud/clickhouse_cloud_openapi.2026-07-31.9e4bf41.json';
export const HYPERDX_PATHS_FIXTURE = 'hyperdx-2026-08-21.paths.json';
export const CLOUD_PATHS_FIXTURE = 'clickhouse-cloud-2026-07-31.paths.json';
export const REQUEST_SCHEMAS_SOURCE = new URL('../../src/emulator/spec-schemas.ts', import.meta.url);

const HYPERDX_PATHS = /^\/api\/v2\/(dashboards|alerts|sources|webhooks)(\/|$)/;
const SVC = '/v1/organizations/{organizationId}/services/{serviceId}';
const CLOUD_PATHS = new RegExp(
  `^${SVC.replace(/[{}]/g, '\\$&')}/(clickstack/(dashboards|alerts|sources|webhooks)(/\\{[A-Za-z]+\\}|/validate)?|clickpipes(/\\{clickPipeId\\})?|clickpipesReversePrivateEndpoints(/\\{reversePrivateEndpointId\\})?|backups(/\\{backupId\\})?)$`,
);

/** The request schemas the emulator validates bodies with, per profile. */
export const HYPERDX_REQUEST_ROOTS = ['CreateDashboardRequest', 'UpdateDashboardRequest', 'CreateAlertRequest', 'UpdateAlertRequest'];
export const CLICKSTACK_REQUEST_ROOTS = [
  'ClickStackCreateDashboardRequest',
  'ClickStackUpdateDashboardRequest',
  'ClickStackCreateAlertRequest',
  'ClickStackUpdateAlertRequest',
];

/** Drops examples and prose (never a property that happens to be called `description`). */
function strip(v: Json, inProperties = false): Json {
  if (Array.isArray(v)) return v.map((x) => strip(x));
  if (!v || typeof v !== 'object') return v;
  const out: Json = {};
  for (const [k, x] of Object.entries(v)) {
    if (!inProperties && (k === 'example' || k === 'examples' || k === 'description' || k === 'summary' || k === 'x-badges')) continue;
    out[k] = strip(x, !inProperties && k === 'properties');
  }
  return out;
}

function reachable(schemas: Record<string, Json>, from: Json[]): Record<string, Json> {
  const out: Record<string, Json> = {};
  const visit = (v: Json): void => {
    if (Array.isArray(v)) v.forEach(visit);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === '$ref' && typeof x === 'string' && x.startsWith('#/components/schemas/')) add(x.slice('#/components/schemas/'.length));
        else visit(x);
      }
    }
  };
  const add = (name: string) => {
    if (out[name] !== undefined) return;
    if (schemas[name] === undefined) throw new Error(`schema ${name} not in the OpenAPI file`);
    out[name] = strip(schemas[name]);
    visit(schemas[name]);
  };
  from.forEach(visit);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

function readShared(file: string): Json {
  return JSON.parse(readFileSync(new URL(file, SHARED_DIR), 'utf8'));
}

export function sharedSpecsPresent(): boolean {
  return existsSync(new URL(HYPERDX_2026_FILE, SHARED_DIR)) && existsSync(new URL(CLOUD_2026_FILE, SHARED_DIR));
}

function cutPaths(spec: Json, keep: RegExp, file: string, source: string): Json {
  const paths = Object.fromEntries(
    Object.entries(spec.paths as Record<string, Json>)
      .filter(([p]) => keep.test(p))
      .map(([p, ops]) => [p, strip(ops)]),
  );
  return {
    _source: `${file} in ../shared/contracts (${source}): the paths the emulator serves and the schemas they reach, without examples and prose`,
    openapi: spec.openapi,
    paths,
    components: { schemas: reachable(spec.components.schemas, Object.values(paths)) },
  };
}

export function extractPathSpecs(): { hyperdx: Json; cloud: Json } {
  return {
    hyperdx: cutPaths(
      readShared(HYPERDX_2026_FILE),
      HYPERDX_PATHS,
      HYPERDX_2026_FILE,
      'github.com/hyperdxio/hyperdx packages/api/openapi.json at dc29d57f37cf985814f011d10cf05115880d64c8, MIT',
    ),
    cloud: cutPaths(
      readShared(CLOUD_2026_FILE),
      CLOUD_PATHS,
      CLOUD_2026_FILE,
      'github.com/ClickHouse/clickhousectl crates/clickhouse-cloud-api/clickhouse_cloud_openapi.json at 9e4bf4138375c03c6855082de4d4ebf38ef6cf1d, Apache-2.0',
    ),
  };
}

/** The text of src/emulator/spec-schemas.ts, from the shared OpenAPI files. */
export function renderRequestSchemasSource(): string {
  const hx = readShared(HYPERDX_2026_FILE);
  const cc = readShared(CLOUD_2026_FILE);
  const ref = (n: string) => ({ $ref: `#/components/schemas/${n}` });
  const hyperdx = reachable(hx.components.schemas, HYPERDX_REQUEST_ROOTS.map(ref));
  const clickstack = reachable(cc.components.schemas, CLICKSTACK_REQUEST_ROOTS.map(ref));
  return `/**
 * GENERATED from the vendored OpenAPI files (../shared/contracts/): do not edit. \`UPDATE_CONTRACTS=1 npm test\`
 * rewrites it (test/emulator/specs.ts); a test fails when it is stale.
 *
 * The request-body schemas the emulator validates with, and every component schema they reach (examples and
 * prose removed):
 * - HYPERDX_SCHEMAS: ${HYPERDX_2026_FILE} (OpenAPI ${hx.openapi}, github.com/hyperdxio/hyperdx at
 *   dc29d57f37cf985814f011d10cf05115880d64c8, MIT): ${HYPERDX_REQUEST_ROOTS.join(', ')}.
 * - CLICKSTACK_SCHEMAS: ${CLOUD_2026_FILE} (OpenAPI ${cc.openapi}, github.com/ClickHouse/clickhousectl at
 *   9e4bf4138375c03c6855082de4d4ebf38ef6cf1d, Apache-2.0): ${CLICKSTACK_REQUEST_ROOTS.join(', ')}.
 */

export const HYPERDX_SCHEMAS: Record<string, unknown> = ${JSON.stringify(hyperdx, null, 1)};

export const CLICKSTACK_SCHEMAS: Record<string, unknown> = ${JSON.stringify(clickstack, null, 1)};
`;
}

export function readPathFixture(name: string): Json {
  return JSON.parse(readFileSync(new URL(name, FIXTURES_DIR), 'utf8'));
}

export function writePathFixtures(c: { hyperdx: Json; cloud: Json }): void {
  writeFileSync(fileURLToPath(new URL(HYPERDX_PATHS_FIXTURE, FIXTURES_DIR)), JSON.stringify(c.hyperdx, null, 1) + '\n');
  writeFileSync(fileURLToPath(new URL(CLOUD_PATHS_FIXTURE, FIXTURES_DIR)), JSON.stringify(c.cloud, null, 1) + '\n');
}

export function writeRequestSchemasSource(text: string): void {
  writeFileSync(fileURLToPath(REQUEST_SCHEMAS_SOURCE), text);
}

export function loadPathSpecs(): { hyperdx: Json; cloud: Json; from: 'shared' | 'fixtures' } {
  if (sharedSpecsPresent()) return { ...extractPathSpecs(), from: 'shared' };
  return { hyperdx: readPathFixture(HYPERDX_PATHS_FIXTURE), cloud: readPathFixture(CLOUD_PATHS_FIXTURE), from: 'fixtures' };
}

/**
 * OpenAPI 3.0 `nullable: true` beside a `$ref`/`allOf` (no `type`, which ajv refuses) as "this, or null"; with a
 * `type`, ajv reads `nullable` itself.
 */
function openapiNullable(v: Json, inProperties = false): Json {
  if (Array.isArray(v)) return v.map((x) => openapiNullable(x));
  if (!v || typeof v !== 'object') return v;
  const out: Json = {};
  for (const [k, x] of Object.entries(v)) out[k] = openapiNullable(x, !inProperties && k === 'properties');
  if (!inProperties && out.nullable === true && out.type === undefined) {
    delete out.nullable;
    return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

export interface Verdict {
  /** The spec's path template, e.g. `/api/v2/dashboards/{id}`. */
  template: string;
  /** Problems: an unknown operation, an undocumented status, or schema errors. Empty when the answer is fine. */
  problems: string[];
}

/** Checks answers against one spec: the response schema of the operation and status, validated with ajv. */
export class SpecChecker {
  private readonly ajv: Ajv | Ajv2020;
  private readonly cache = new Map<string, ValidateFunction>();
  private readonly templates: { template: string; re: RegExp }[];

  constructor(
    readonly spec: Json,
    readonly id: string,
  ) {
    this.ajv = String(spec.openapi).startsWith('3.1') ? new Ajv2020({ strict: false, allErrors: true }) : new Ajv({ strict: false, allErrors: true });
    addFormats.default(this.ajv);
    const doc = openapiNullable({ components: spec.components, paths: spec.paths });
    this.ajv.addSchema({ $id: `${id}.json`, ...doc }, `${id}.json`);
    this.templates = Object.keys(spec.paths).map((template) => ({
      template,
      re: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
    }));
  }

  /** The path template a concrete path belongs to (literal segments win: `/dashboards/validate` over `/{id}`). */
  template(path: string): string | undefined {
    const hits = this.templates.filter((t) => t.re.test(path)).map((t) => t.template);
    hits.sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0));
    return hits[0];
  }

  /** A schema of the spec: `components/schemas/X`, or a JSON pointer into it. */
  validator(pointer: string): ValidateFunction {
    let v = this.cache.get(pointer);
    if (!v) {
      v = this.ajv.compile({ $ref: `${this.id}.json#/${pointer}` });
      this.cache.set(pointer, v);
    }
    return v;
  }

  check(method: string, path: string, status: number, body: unknown): Verdict {
    const template = this.template(path.split('?')[0]!);
    if (!template) return { template: '?', problems: [`${method} ${path}: no such path in the spec`] };
    const op = this.spec.paths[template][method.toLowerCase()];
    if (!op) return { template, problems: [`${method} ${template}: no such operation in the spec`] };
    const key = op.responses[String(status)] ? String(status) : op.responses['default'] ? 'default' : undefined;
    if (!key)
      return { template, problems: [`${method} ${template}: status ${status} is not documented (documented: ${Object.keys(op.responses).join(', ')})`] };
    const content = op.responses[key].content?.['application/json'];
    if (!content?.schema) return { template, problems: [] };
    const ptr = ['paths', template, method.toLowerCase(), 'responses', key, 'content', 'application/json', 'schema']
      .map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1'))
      .map(encodeURIComponent)
      .join('/');
    const v = this.validator(ptr);
    if (v(body)) return { template, problems: [] };
    return { template, problems: [`${method} ${path} ${status}: ${this.ajv.errorsText(v.errors, { separator: '; ' }).slice(0, 1500)}`] };
  }
}

export function specCheckers(): { hyperdx: SpecChecker; cloud: SpecChecker; from: 'shared' | 'fixtures' } {
  const s = loadPathSpecs();
  return { hyperdx: new SpecChecker(s.hyperdx, 'hyperdx-2026'), cloud: new SpecChecker(s.cloud, 'cloud-2026'), from: s.from };
}
