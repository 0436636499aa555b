/**
 * The schemas steward checks API bodies against: the files in `schemas/api/` and the envelopes that wrap
 * them. `npm run generate` compiles them into src/clients/response-validators/ (ajv standalone, one file each), so a
 * command checks responses without loading ajv or compiling a schema (~50 ms of every command that reads).
 */
import { readFileSync } from 'node:fs';
import { packageFile } from '../shared/package-root.ts';

/** The response bodies steward reads. */
export type ResponseShape =
  | 'observability.dashboards'
  | 'observability.dashboard'
  | 'observability.alert'
  | 'observability.alerts'
  | 'observability.named'
  | 'observability.any'
  | 'clickstack.dashboards'
  | 'clickstack.dashboard'
  | 'clickstack.alert'
  | 'clickstack.alerts'
  | 'clickstack.named'
  | 'clickstack.any'
  | 'observability.validation'
  | 'cloud.list'
  | 'cloud.item';

const SCHEMA_ROOT = packageFile('schemas/api/');
export const BASE_ID = 'https://steward.dev/schemas/api/';

/** Schema files under schemas/api/, by the short name used below. */
export const FILES = {
  dashboard: 'observability/live-dashboard.schema.json',
  alert: 'observability/live-alert.schema.json',
  dashboardCreate: 'observability/dashboard-create.schema.json',
  alertUpdate: 'observability/alert-update.schema.json',
  ingestPipe: 'cloud/ingest-pipe.schema.json',
  reversePrivateEndpoint: 'cloud/reverse-private-endpoint.schema.json',
  backup: 'cloud/backup.schema.json',
  // The real ClickHouse Cloud shapes (cloud.api: clickhouse-cloud): the same members, none required.
  clickPipe: 'cloud/clickpipe.schema.json',
  clickPipesReversePrivateEndpoint: 'cloud/clickpipes-reverse-private-endpoint.schema.json',
  clickhouseCloudBackup: 'cloud/clickhouse-cloud-backup.schema.json',
} as const;

export type SchemaName = keyof typeof FILES;

/** The raw JSON Schema of one API shape (for tests and for other modules that want to reuse it). */
export function loadApiSchema(name: SchemaName): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(FILES[name], SCHEMA_ROOT), 'utf8')) as Record<string, unknown>;
}

const ref = (name: SchemaName) => ({ $ref: BASE_ID + FILES[name] });
const list = (name: SchemaName) => ({ type: 'array', items: ref(name) });
/** Observability bodies: `{data: …}`. */
const data = (inner: object) => ({ type: 'object', required: ['data'], properties: { data: inner } });
/** Cloud bodies: `{status, requestId, result}`; only result is needed. */
const result = (inner: object) => ({
  type: 'object',
  required: ['result'],
  properties: { status: { type: 'number' }, requestId: { type: 'string' }, result: inner },
});

/**
 * A source or webhook. Names in files resolve to its id, but neither is required here: HyperDX 2026-08 makes a
 * source's `id` optional, and one entry without it must not make the whole list unreadable. An entry that a
 * file's name matches but that has no id is a problem at that name (src/plan/names.ts).
 */
const named = { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } };
/** POST /dashboards/validate answers without an envelope. */
const validation = {
  type: 'object',
  required: ['valid'],
  properties: {
    valid: { type: 'boolean' },
    errors: { type: 'array', items: { type: 'object', properties: { path: { type: 'string' }, message: { type: 'string' } } } },
  },
};

export const ENVELOPES: Record<ResponseShape, object> = {
  'observability.alerts': data(list('alert')),
  'observability.named': data({ type: 'array', items: named }),
  'observability.any': {},
  'observability.validation': validation,
  'clickstack.dashboards': result(list('dashboard')),
  'clickstack.dashboard': result(ref('dashboard')),
  'clickstack.alert': result(ref('alert')),
  'clickstack.alerts': result(list('alert')),
  'clickstack.named': result({ type: 'array', items: named }),
  'clickstack.any': {},
  'observability.dashboards': data(list('dashboard')),
  'observability.dashboard': data(ref('dashboard')),
  'observability.alert': data(ref('alert')),
  // The cloud reads check the envelope only; each item is checked on its own (checkItem), so one bad item
  // does not make the whole list unreadable (src/clients/cloud-items.ts).
  'cloud.list': result({ type: 'array' }),
  'cloud.item': result({}),
};

/** Every schema the response and request checks compile (the files and the envelopes), for the meta-schema test. */
export function apiSchemasForTest(): { files: Record<string, unknown>[]; envelopes: object[] } {
  return { files: (Object.keys(FILES) as SchemaName[]).map(loadApiSchema), envelopes: Object.values(ENVELOPES) };
}

/** The generated module's export that checks a response shape or (`file:`) one schema file. */
export function validatorName(key: ResponseShape | `file:${SchemaName}`): string {
  return key.replace(/[^A-Za-z0-9]/g, '_');
}
