/**
 * The OpenAPI files the conformance suite mocks, as copies in the repository (CI clones it alone, without
 * the shared `contracts/` folder beside it): `test/fixtures/contracts/openapi/`.
 *
 * - HyperDX's three files are copied byte for byte.
 * - ClickHouse Cloud's two files (0.7 and 1.2 MB, 51 and 80 paths) are cut to the service itself (its GET
 *   gives the state the report reads) and the paths under a service that steward's profiles use
 *   (`clickpipes`, `clickpipesReversePrivateEndpoints`, `backups`, `clickstack/...`),
 *   every method and response of those paths, examples included, and every component they reach, copied
 *   unchanged. A request to a path outside the cut is refused (404), so the cut can only make the suite
 *   stricter. It also halves prism's start-up.
 *
 * When the shared folder exists, a test checks that the copies are what this file extracts from it;
 * `UPDATE_CONTRACTS=1` rewrites them (see test/conformance/contracts.test.ts).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

type Json = any;

/** The shared vendored contracts (read-only), when present: `STEWARD_CONTRACTS` or `../shared/contracts`. */
export const SHARED_CONTRACTS = process.env['STEWARD_CONTRACTS'] ?? fileURLToPath(new URL('../../../shared/contracts/', import.meta.url));
export const FIXTURE_CONTRACTS = fileURLToPath(new URL('../fixtures/contracts/openapi/', import.meta.url));

/** The service itself (its state, read by the report) and the paths under it that the profiles use. */
const SERVICE_PATHS =
  /^\/v1\/organizations\/\{organizationId\}\/services\/\{serviceId\}(\/(clickpipes|clickpipesReversePrivateEndpoints|backups|clickstack)(\/|$)|$)/;

export interface ContractFile {
  /** The file under the shared contracts folder. */
  shared: string;
  /** The copy under test/fixtures/contracts/openapi/. */
  fixture: string;
  /** Paths kept (all when undefined: the copy is the file itself). */
  paths?: RegExp;
}

export const CONTRACT_FILES = {
  'hyperdx-2025-11-21': { shared: 'hyperdx/openapi.2025-11-21.e3643ccf.json', fixture: 'hyperdx-openapi.2025-11-21.e3643ccf.json' },
  'hyperdx-2026-01-30': { shared: 'hyperdx/openapi.2026-01-30.4c287b16.json', fixture: 'hyperdx-openapi.2026-01-30.4c287b16.json' },
  'hyperdx-2026-08-21': { shared: 'hyperdx/openapi.2026-08-21.dc29d57f.json', fixture: 'hyperdx-openapi.2026-08-21.dc29d57f.json' },
  'clickhouse-cloud-2026-04-14': {
    shared: 'clickhouse-cloud/clickhouse_cloud_openapi.2026-04-14.f6aa8d0.json',
    fixture: 'clickhouse_cloud_openapi.2026-04-14.f6aa8d0.service-paths.json',
    paths: SERVICE_PATHS,
  },
  'clickhouse-cloud-2026-07-31': {
    shared: 'clickhouse-cloud/clickhouse_cloud_openapi.2026-07-31.9e4bf41.json',
    fixture: 'clickhouse_cloud_openapi.2026-07-31.9e4bf41.service-paths.json',
    paths: SERVICE_PATHS,
  },
} as const satisfies Record<string, ContractFile>;

export type ContractName = keyof typeof CONTRACT_FILES;

/** The copy prism loads for a contract. */
export function contractPath(name: ContractName): string {
  return join(FIXTURE_CONTRACTS, CONTRACT_FILES[name].fixture);
}

/** Whether the shared folder is here (so the copies can be checked or rewritten). */
export function haveSharedContracts(): boolean {
  return existsSync(join(SHARED_CONTRACTS, CONTRACT_FILES['hyperdx-2025-11-21'].shared));
}

/** The text a copy should have, extracted from the shared file. */
export function extractContract(name: ContractName): string {
  const c: ContractFile = CONTRACT_FILES[name];
  const text = readFileSync(join(SHARED_CONTRACTS, c.shared), 'utf8');
  if (!c.paths) return text;
  return JSON.stringify(cutToPaths(JSON.parse(text), c.paths), null, 1) + '\n';
}

/** The document with only the matching paths and the components they reach (anything else unchanged). */
export function cutToPaths(doc: Json, keep: RegExp): Json {
  const paths = Object.fromEntries(Object.entries(doc.paths as Record<string, Json>).filter(([p]) => keep.test(p)));
  const wanted = new Map<string, Set<string>>();
  const visit = (v: Json): void => {
    if (Array.isArray(v)) return v.forEach(visit);
    if (!v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string') {
        const m = /^#\/components\/([^/]+)\/(.+)$/.exec(x);
        if (!m) continue;
        const [, section, name] = m as unknown as [string, string, string];
        const seen = wanted.get(section) ?? new Set<string>();
        if (seen.has(name)) continue;
        seen.add(name);
        wanted.set(section, seen);
        visit(doc.components?.[section]?.[name]);
      } else visit(x);
    }
  };
  visit(paths);
  visit(doc.security);
  const components: Record<string, Json> = {};
  for (const [section, entries] of Object.entries((doc.components ?? {}) as Record<string, Record<string, Json>>)) {
    // Security schemes are named by `security`, not by $ref: keep them all.
    const keepAll = section === 'securitySchemes';
    const kept = Object.fromEntries(Object.entries(entries).filter(([n]) => keepAll || wanted.get(section)?.has(n)));
    if (Object.keys(kept).length > 0) components[section] = kept;
  }
  const { 'x-tagGroups': _groups, tags: _tags, ...rest } = doc;
  return { ...rest, paths, components };
}
