/**
 * The published API schemas the emulator's answers are checked against. They come from the OpenAPI files in
 * `../shared/contracts/` (beside the repository) when that folder exists, and otherwise from the subsets
 * copied into `test/fixtures/contracts/` (CI clones the repository alone). `UPDATE_CONTRACTS=1 npm test`
 * rewrites the copies from the shared files.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export const SHARED_DIR = new URL('../../../shared/contracts/', import.meta.url);
export const FIXTURES_DIR = new URL('../fixtures/contracts/', import.meta.url);

const HYPERDX_FILE = 'hyperdx/openapi.2025-11-21.e3643ccf.json';
const CLOUD_FILE = 'clickhouse-cloud/clickhouse_cloud_openapi.2026-07-31.9e4bf41.json';
export const HYPERDX_FIXTURE = 'hyperdx-2025-11-21.schemas.json';
export const CLOUD_FIXTURE = 'clickhouse-cloud-2026-07-31.schemas.json';

const HYPERDX_ROOTS = ['AlertResponse', 'DashboardResponse', 'DashboardsListResponse', 'Error', 'CreateDashboardRequest', 'UpdateAlertRequest'];
const CLOUD_ROOTS = ['ClickPipe', 'ReversePrivateEndpoint', 'Backup', 'Service'];
/** Our paths say ingestpipes where the cloud's say clickpipes. */
const CLOUD_PATHS: Record<string, string> = {
  service: '/v1/organizations/{organizationId}/services/{serviceId}',
  endpoints: '/v1/organizations/{organizationId}/services/{serviceId}/clickpipesReversePrivateEndpoints',
  pipes: '/v1/organizations/{organizationId}/services/{serviceId}/clickpipes',
  backups: '/v1/organizations/{organizationId}/services/{serviceId}/backups',
  backup: '/v1/organizations/{organizationId}/services/{serviceId}/backups/{backupId}',
};

type Json = any;

/** Every `#/components/schemas/X` reachable from `roots`, copied unchanged. */
function collect(schemas: Record<string, Json>, roots: string[], extra: Json[] = []): Record<string, Json> {
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
    out[name] = schemas[name];
    visit(schemas[name]);
  };
  roots.forEach(add);
  extra.forEach(visit);
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The subsets, extracted from the shared OpenAPI files. */
export function extractContracts(): { hyperdx: Json; cloud: Json } {
  const hx = JSON.parse(readFileSync(new URL(HYPERDX_FILE, SHARED_DIR), 'utf8'));
  const cc = JSON.parse(readFileSync(new URL(CLOUD_FILE, SHARED_DIR), 'utf8'));
  const responses: Record<string, Json> = {};
  for (const [name, path] of Object.entries(CLOUD_PATHS)) {
    const r = cc.paths[path].get.responses;
    responses[`${name} 200`] = r['200'].content['application/json'].schema;
    responses[`${name} 400`] = r['400'].content['application/json'].schema;
  }
  return {
    hyperdx: {
      _source: `${HYPERDX_FILE} in ../shared/contracts (github.com/hyperdxio/hyperdx packages/api/openapi.json at e3643ccfc0240720fab6fba8ebf5454a4e35a4c1, MIT): components.schemas reachable from ${HYPERDX_ROOTS.join(', ')}`,
      openapi: hx.openapi,
      components: { schemas: collect(hx.components.schemas, HYPERDX_ROOTS) },
    },
    cloud: {
      _source: `${CLOUD_FILE} in ../shared/contracts (github.com/ClickHouse/clickhousectl crates/clickhouse-cloud-api/clickhouse_cloud_openapi.json at 9e4bf4138375c03c6855082de4d4ebf38ef6cf1d, Apache-2.0): components.schemas reachable from ${CLOUD_ROOTS.join(', ')}, and the 200/400 response schemas of GET ${Object.values(CLOUD_PATHS).join(', ')}`,
      openapi: cc.openapi,
      components: { schemas: collect(cc.components.schemas, CLOUD_ROOTS, Object.values(responses)) },
      responses,
    },
  };
}

export function sharedContractsPresent(): boolean {
  return existsSync(new URL(HYPERDX_FILE, SHARED_DIR)) && existsSync(new URL(CLOUD_FILE, SHARED_DIR));
}

export function readFixture(name: string): Json {
  return JSON.parse(readFileSync(new URL(name, FIXTURES_DIR), 'utf8'));
}

export function writeFixtures(c: { hyperdx: Json; cloud: Json }): void {
  writeFileSync(fileURLToPath(new URL(HYPERDX_FIXTURE, FIXTURES_DIR)), JSON.stringify(c.hyperdx, null, 2) + '\n');
  writeFileSync(fileURLToPath(new URL(CLOUD_FIXTURE, FIXTURES_DIR)), JSON.stringify(c.cloud, null, 2) + '\n');
}

/** The contracts, from the shared folder when present, else from the fixtures. */
export function loadContracts(): { hyperdx: Json; cloud: Json; from: 'shared' | 'fixtures' } {
  if (sharedContractsPresent()) return { ...extractContracts(), from: 'shared' };
  return { hyperdx: readFixture(HYPERDX_FIXTURE), cloud: readFixture(CLOUD_FIXTURE), from: 'fixtures' };
}

export interface ContractValidators {
  /** Observability: validate against `#/components/schemas/<name>` of the HyperDX 2025-11-21 file. */
  hyperdx(name: string): ValidateFunction;
  /** Cloud: a component schema by name, or a response schema (`backups 200`, `pipes 400`...). */
  cloud(name: string): ValidateFunction;
  from: 'shared' | 'fixtures';
}

/**
 * ajv validators. The HyperDX file is OpenAPI 3.0 (draft-07-like, `nullable`), the cloud file OpenAPI 3.1
 * (JSON Schema 2020-12, `type: [..., "null"]`). Each components object is added as a schema with an $id so
 * that `#/components/schemas/...` references resolve inside it.
 */
export function contractValidators(): ContractValidators {
  const c = loadContracts();
  const hx = new Ajv({ strict: false, allErrors: true });
  addFormats.default(hx);
  hx.addSchema({ $id: 'hyperdx.json', components: c.hyperdx.components }, 'hyperdx.json');
  const cc = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(cc);
  cc.addSchema({ $id: 'cloud.json', components: c.cloud.components, responses: c.cloud.responses }, 'cloud.json');
  const cache = new Map<string, ValidateFunction>();
  const get = (ajv: Ajv | Ajv2020, ref: string) => {
    let v = cache.get(ref);
    if (!v) {
      v = ajv.compile({ $ref: ref });
      cache.set(ref, v);
    }
    return v;
  };
  return {
    hyperdx: (name) => get(hx, `hyperdx.json#/components/schemas/${name}`),
    cloud: (name) => get(cc, name.includes(' ') ? `cloud.json#/responses/${encodeURIComponent(name)}` : `cloud.json#/components/schemas/${name}`),
    from: c.from,
  };
}

/** Throws with ajv's messages when `value` does not satisfy `validate`. */
export function assertValid(validate: ValidateFunction, value: unknown, what: string): void {
  if (!validate(value)) {
    throw new Error(`${what} does not match the published schema:\n${JSON.stringify(validate.errors, null, 2).slice(0, 2000)}`);
  }
}
