import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import type { Alert, Dashboard, EmulatorState, JsonObject, OrganizationState, ServiceState, Tile } from './types.ts';
import { BadRequest, OBJECT_ID_PATTERN, parseChannel, parseDashboardInput, parseInterval, parseSource, parseThresholdType } from './validate.ts';

/** A problem with the emulator's options or seed data: the message says what and where. */
export class EmulatorError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'EmulatorError';
  }
}

export const UUID_PATTERN = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
const RELATIVE_TIME = /^([+-])?((?:\d+(?:\.\d+)?(?:ms|d|h|m|s))+)$/;
const RELATIVE_PART = /(\d+(?:\.\d+)?)(ms|d|h|m|s)/g;
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
/**
 * ClickHouse Cloud's Service.state values (both spec snapshots). The emulator imports nothing from the rest of
 * steward, so the list is its own (src/report/check-service.ts holds the report's).
 */
export const SERVICE_STATES: readonly string[] = [
  'starting',
  'stopping',
  'terminating',
  'softdeleting',
  'awaking',
  'partially_running',
  'provisioning',
  'running',
  'stopped',
  'terminated',
  'softdeleted',
  'degraded',
  'failed',
  'idle',
];

/** The time fields that may be written relative to the clock at start. */
const TIME_FIELDS = new Set(['createdAt', 'updatedAt', 'startedAt', 'finishedAt']);

/**
 * Resolves a seed time: `now`, a relative offset such as `-36h`, `-1d6h30m` or `+15m` (units d, h, m, s,
 * ms; no sign means the past), or an absolute ISO 8601 date. Returns ISO 8601 UTC with milliseconds.
 * @throws EmulatorError naming `where` when the value is neither.
 */
export function resolveTime(value: unknown, anchor: Date, where: string): string {
  if (typeof value !== 'string') throw new EmulatorError(`${where}: must be a time string, got ${JSON.stringify(value)}`);
  if (value === 'now') return anchor.toISOString();
  const rel = RELATIVE_TIME.exec(value);
  if (rel) {
    let ms = 0;
    for (const m of rel[2]!.matchAll(RELATIVE_PART)) ms += Number(m[1]) * UNIT_MS[m[2]!]!;
    const sign = rel[1] === '+' ? 1 : -1;
    return new Date(anchor.getTime() + sign * Math.round(ms)).toISOString();
  }
  const t = Date.parse(value);
  if (Number.isNaN(t) || !/^\d{4}-\d{2}-\d{2}/.test(value)) {
    throw new EmulatorError(`${where}: ${JSON.stringify(value)} is neither an ISO 8601 date nor a relative time like -36h`);
  }
  return new Date(t).toISOString();
}

/**
 * The text of a regular file: a fifo (which hung the emulator at start, unkillable by Ctrl-C) or a device
 * named by --data or --persist is refused, opened without blocking and checked on the open descriptor.
 */
export function readRegularText(path: string): string {
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    if (!fstatSync(fd).isFile()) throw new Error('not a regular file');
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** Reads seed data given as an object or as the path of a JSON file. */
export function readSeed(data: object | string): unknown {
  if (typeof data !== 'string') return data;
  let text: string;
  try {
    text = readRegularText(data);
  } catch (err) {
    throw new EmulatorError(`cannot read seed data ${data}: ${(err as Error).message}`, { cause: err });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new EmulatorError(`seed data ${data} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function list(v: unknown, where: string): unknown[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new EmulatorError(`${where}: must be an array`);
  return v;
}

function rethrow<T>(where: string, f: () => T): T {
  try {
    return f();
  } catch (err) {
    if (err instanceof BadRequest) throw new EmulatorError(`${where}.${err.message}`);
    throw err;
  }
}

function uuidField(v: unknown, where: string): string {
  if (typeof v !== 'string' || !UUID_PATTERN.test(v)) throw new EmulatorError(`${where}: must be a UUID, got ${JSON.stringify(v)}`);
  return v;
}

/** Copies a cloud object, resolving its time fields (at any depth). */
function resolveTimes(value: unknown, anchor: Date, where: string): unknown {
  if (Array.isArray(value)) return value.map((v, i) => resolveTimes(v, anchor, `${where}[${i}]`));
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    out[k] = TIME_FIELDS.has(k) && typeof v === 'string' ? resolveTime(v, anchor, `${where}.${k}`) : resolveTimes(v, anchor, `${where}.${k}`);
  }
  return out;
}

function cloudObjects(v: unknown, where: string, serviceId: string, anchor: Date, kind: 'endpoint' | 'pipe' | 'backup'): JsonObject[] {
  const seen = new Set<string>();
  return list(v, where).map((item, i) => {
    const w = `${where}[${i}]`;
    if (!isObject(item)) throw new EmulatorError(`${w}: must be an object`);
    const id = uuidField(item['id'], `${w}.id`);
    if (seen.has(id)) throw new EmulatorError(`${w}.id: ${id} appears twice`);
    seen.add(id);
    if (kind === 'pipe' && typeof item['name'] !== 'string') throw new EmulatorError(`${w}.name: a pipe needs a name`);
    if (item['serviceId'] !== undefined && String(item['serviceId']).toLowerCase() !== serviceId.toLowerCase()) {
      throw new EmulatorError(`${w}.serviceId: ${String(item['serviceId'])} is not the service it is listed under (${serviceId}); leave it out`);
    }
    // The owning service is implied by where the object sits; fill it in like the API does.
    const resolved: JsonObject = { id, serviceId, ...(resolveTimes(item, anchor, w) as JsonObject) };
    if (kind === 'backup') {
      const status = resolved['status'];
      if (status === undefined) resolved['status'] = resolved['finishedAt'] === undefined ? 'in_progress' : 'done';
      else if (status !== 'done' && status !== 'error' && status !== 'in_progress') {
        throw new EmulatorError(`${w}.status: must be one of done, error, in_progress; got ${JSON.stringify(status)}`);
      }
      if (resolved['durationInSeconds'] === undefined && typeof resolved['startedAt'] === 'string' && typeof resolved['finishedAt'] === 'string') {
        resolved['durationInSeconds'] = Math.round((Date.parse(resolved['finishedAt']) - Date.parse(resolved['startedAt'])) / 1000);
      }
    }
    return resolved;
  });
}

function seedAlert(v: unknown, where: string, anchor: Date): Alert {
  if (!isObject(v)) throw new EmulatorError(`${where}: must be an object`);
  const id = v['id'];
  if (typeof id !== 'string' || !OBJECT_ID_PATTERN.test(id)) {
    throw new EmulatorError(`${where}.id: must be 24 lowercase hex characters, got ${JSON.stringify(id)}`);
  }
  const str = (k: string): string | undefined => {
    const x = v[k];
    if (x === undefined) return undefined;
    if (typeof x !== 'string') throw new EmulatorError(`${where}.${k}: must be a string`);
    return x;
  };
  const alert: Alert = { id, state: str('state') ?? 'inactive', createdAt: '', updatedAt: '' };
  const name = str('name');
  if (name !== undefined) alert.name = name;
  const message = str('message');
  if (message !== undefined) alert.message = message;
  if (v['threshold'] !== undefined) {
    if (typeof v['threshold'] !== 'number') throw new EmulatorError(`${where}.threshold: must be a number`);
    alert.threshold = v['threshold'];
  }
  rethrow(where, () => {
    if (v['interval'] !== undefined) alert.interval = parseInterval(v['interval'], 'interval');
    if (v['thresholdType'] !== undefined) alert.thresholdType = parseThresholdType(v['thresholdType'], 'thresholdType');
    if (v['source'] !== undefined) alert.source = parseSource(v['source'], 'source');
    if (v['channel'] !== undefined) alert.channel = parseChannel(v['channel'], 'channel');
  });
  for (const k of ['team', 'tileId', 'dashboard'] as const) {
    const x = str(k);
    if (x !== undefined) alert[k] = x;
  }
  for (const k of ['savedSearch', 'groupBy'] as const) {
    const x = v[k];
    if (x === null) alert[k] = null;
    else if (x !== undefined) alert[k] = str(k)!;
  }
  if (v['silenced'] !== undefined) {
    if (typeof v['silenced'] !== 'boolean' && v['silenced'] !== null) throw new EmulatorError(`${where}.silenced: must be a boolean`);
    alert.silenced = v['silenced'];
  }
  alert.createdAt = resolveTime(v['createdAt'] ?? 'now', anchor, `${where}.createdAt`);
  alert.updatedAt = resolveTime(v['updatedAt'] ?? v['createdAt'] ?? 'now', anchor, `${where}.updatedAt`);
  return alert;
}

/**
 * Turns seed data into the emulator's state: validates it (errors name the place, e.g.
 * `seed.organizations[0].services[1].backups[3].id: must be a UUID`), resolves relative times against
 * `anchor`, assigns missing dashboard and tile ids with `newId`, and fills `serviceId` on cloud objects.
 * @throws EmulatorError
 */
export function materializeSeed(seed: unknown, anchor: Date, newId: () => string): EmulatorState {
  if (!isObject(seed)) throw new EmulatorError('seed: must be a JSON object with alerts, dashboards and organizations');
  for (const key of Object.keys(seed)) {
    if (key !== 'alerts' && key !== 'dashboards' && key !== 'organizations' && !key.startsWith('$') && !key.startsWith('_')) {
      throw new EmulatorError(`seed.${key}: unknown member (expected alerts, dashboards, organizations)`);
    }
  }
  const ids = new Set<string>();
  const claim = (id: string, where: string) => {
    if (ids.has(id)) throw new EmulatorError(`${where}: id ${id} is used twice`);
    ids.add(id);
  };

  const alerts = list(seed['alerts'], 'seed.alerts').map((a, i) => {
    const alert = seedAlert(a, `seed.alerts[${i}]`, anchor);
    claim(alert.id, `seed.alerts[${i}].id`);
    return alert;
  });

  const given = (v: unknown, where: string): string | undefined => {
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || !OBJECT_ID_PATTERN.test(v)) throw new EmulatorError(`${where}: must be 24 lowercase hex characters`);
    claim(v, where);
    return v;
  };
  const rawDashboards = list(seed['dashboards'], 'seed.dashboards');
  // Claim every given id before assigning new ones, so an assigned id never collides with a later given one.
  const givenIds = rawDashboards.map((d, i) => {
    const w = `seed.dashboards[${i}]`;
    if (!isObject(d)) throw new EmulatorError(`${w}: must be an object`);
    return {
      id: given(d['id'], `${w}.id`),
      tiles: list(d['tiles'], `${w}.tiles`).map((t, j) => (isObject(t) ? given(t['id'], `${w}.tiles[${j}].id`) : undefined)),
    };
  });
  const fresh = () => {
    let id = newId();
    while (ids.has(id)) id = newId();
    ids.add(id);
    return id;
  };
  const dashboards: Dashboard[] = rawDashboards.map((d, i) => {
    const w = `seed.dashboards[${i}]`;
    const input = (() => {
      try {
        return parseDashboardInput(d, w);
      } catch (err) {
        if (err instanceof BadRequest) throw new EmulatorError(err.message);
        throw err;
      }
    })();
    const g = givenIds[i]!;
    const tiles: Tile[] = input.tiles.map((t, j) => ({ id: g.tiles[j] ?? fresh(), ...t }));
    return { id: g.id ?? fresh(), name: input.name, tiles, tags: input.tags };
  });

  const serviceIds = new Set<string>();
  const organizations: OrganizationState[] = list(seed['organizations'], 'seed.organizations').map((o, i) => {
    const w = `seed.organizations[${i}]`;
    if (!isObject(o)) throw new EmulatorError(`${w}: must be an object`);
    const id = uuidField(o['id'], `${w}.id`);
    const services: ServiceState[] = list(o['services'], `${w}.services`).map((s, j) => {
      const ws = `${w}.services[${j}]`;
      if (!isObject(s)) throw new EmulatorError(`${ws}: must be an object`);
      const sid = uuidField(s['id'], `${ws}.id`);
      if (serviceIds.has(sid.toLowerCase())) throw new EmulatorError(`${ws}.id: service ${sid} appears twice`);
      serviceIds.add(sid.toLowerCase());
      const state = s['state'] ?? 'running';
      if (typeof state !== 'string' || !SERVICE_STATES.includes(state)) {
        throw new EmulatorError(`${ws}.state: must be one of ${SERVICE_STATES.join(', ')}; got ${JSON.stringify(state)}`);
      }
      const service: ServiceState = {
        id: sid,
        state,
        ...(s['createdAt'] !== undefined ? { createdAt: resolveTime(s['createdAt'], anchor, `${ws}.createdAt`) } : {}),
        reversePrivateEndpoints: cloudObjects(s['reversePrivateEndpoints'], `${ws}.reversePrivateEndpoints`, sid, anchor, 'endpoint'),
        pipes: cloudObjects(s['pipes'], `${ws}.pipes`, sid, anchor, 'pipe'),
        backups: cloudObjects(s['backups'], `${ws}.backups`, sid, anchor, 'backup'),
      };
      if (typeof s['name'] === 'string') service.name = s['name'];
      return service;
    });
    const org: OrganizationState = { id, services };
    if (typeof o['name'] === 'string') org.name = o['name'];
    return org;
  });

  return { dashboards, alerts, organizations };
}
