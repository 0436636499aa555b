import jsonpatch from 'fast-json-patch';
import type { CloudServiceSpec } from '../schema/kinds.ts';
import { formatBytes, formatDuration, formatTime, round1 } from './format.ts';
import { backupStart, orderBackups, parseTime } from './order.ts';
import { isSecretKey } from './redact.ts';
import type {
  BackupSummary,
  Finding,
  FindingObject,
  ObservedBackup,
  ObservedEndpoint,
  ObservedPipe,
  ObservedService,
  PatchOperation,
  ReadPart,
  Severity,
} from './types.ts';

/**
 * Pipe states that mean "on its way somewhere": a pipe in one of them is in progress (`pipe.in-progress`,
 * info), not drift. From the API's list: Provisioning, Setup, Snapshot (initial load), Modifying, Resync,
 * Stopping, Pausing; Starting and Resuming are not in it but read the same way if a server sends them.
 * Completed is not transitional: a one-shot object-storage pipe stays Completed, so declare it if you expect it.
 */
export const TRANSITIONAL_PIPE_STATES: readonly string[] = ['Provisioning', 'Setup', 'Snapshot', 'Modifying', 'Resync', 'Starting', 'Stopping', 'Pausing', 'Resuming'];

/** Every pipe state the real API names (2026-07 OpenAPI), plus Starting/Resuming. Others are "unknown". */
export const KNOWN_PIPE_STATES: readonly string[] = [
  'Unknown', 'Provisioning', 'Running', 'Degraded', 'Stopping', 'Stopped', 'Failed', 'Completed', 'InternalError',
  'Setup', 'Snapshot', 'Paused', 'Pausing', 'Modifying', 'Resync', 'Starting', 'Resuming',
];

/** States reported as `pipe.state` (warning) even when the file declares no state. */
export const UNHEALTHY_PIPE_STATES: readonly string[] = ['Failed', 'InternalError', 'Degraded'];

/** Source kinds the real API names; a pipe whose source holds none of these gets `pipe.unknown-source-kind`. */
export const KNOWN_SOURCE_KINDS: readonly string[] = ['kafka', 'objectStorage', 'kinesis', 'pubsub', 'postgres', 'mysql', 'bigquery', 'mongodb'];

/** Endpoint statuses that mean "waiting" (for provisioning or for someone to accept): warning, not error. */
export const WAITING_ENDPOINT_STATUSES: readonly string[] = ['Provisioning', 'Pending', 'PendingAcceptance'];

export const DEFAULT_ENDPOINT_STATUS = 'Ready';
export const DEFAULT_REPORT_UNLISTED_PIPES = true;
export const DEFAULT_REPORT_UNLISTED_ENDPOINTS = false;

/** The pipe fields a file may declare and that are compared as a subset. */
const DECLARED_PIPE_FIELDS = ['scaling', 'destination', 'source', 'settings'] as const;

const SEVERITY_RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };
const KIND_RANK: Record<FindingObject['kind'], number> = { service: 0, backup: 1, pipe: 2, endpoint: 3 };

/**
 * Checks one service's observed state against its CloudService spec. Pure: `now` is the only clock. Never
 * throws on what a server sends; anything unexpected becomes a finding. Findings come back sorted by
 * severity, then by what they concern (service, backups oldest first, pipes in file order then unlisted
 * ones by name, endpoints likewise).
 */
export function checkService(spec: CloudServiceSpec, observed: ObservedService, now: Date): Finding[] {
  const findings: Finding[] = [];
  for (const f of observed.failures) findings.push(readFailed(spec, f.part, f.message));
  if (observed.backups) findings.push(...checkBackups(spec.backups ?? {}, observed.backups, now));
  if (observed.pipes) findings.push(...checkPipes(spec.pipes ?? {}, observed.pipes));
  if (observed.endpoints) findings.push(...checkEndpoints(spec.reversePrivateEndpoints ?? {}, observed.endpoints));
  return sortFindings(findings);
}

/** Stable sort: severity, then object kind; within those, the order the checks emitted (see checkService). */
export function sortFindings(findings: readonly Finding[]): Finding[] {
  return findings
    .map((f, i) => ({ f, i }))
    .sort((a, b) => SEVERITY_RANK[a.f.severity] - SEVERITY_RANK[b.f.severity] || KIND_RANK[a.f.object.kind] - KIND_RANK[b.f.object.kind] || a.i - b.i)
    .map((x) => x.f);
}

const PART_LABEL: Record<ReadPart, string> = {
  pipes: 'list ingest pipes',
  endpoints: 'list reverse private endpoints',
  backups: 'list backups',
  'newest-backup': 'get the newest backup',
};

const PART_EFFECT: Record<ReadPart, string> = {
  pipes: 'pipe checks skipped',
  endpoints: 'endpoint checks skipped',
  backups: 'backup checks skipped',
  'newest-backup': 'backup checks use the list',
};

function readFailed(spec: CloudServiceSpec, part: ReadPart, message: string): Finding {
  return {
    id: 'read.failed',
    severity: 'error',
    object: { kind: 'service', name: part, id: spec.serviceId },
    actual: { part, error: message },
    message: `could not ${PART_LABEL[part]}: ${message} (${PART_EFFECT[part]})`,
  };
}

// ---------------------------------------------------------------------------------------------- backups

type BackupStatus = BackupSummary['status'];

/**
 * `done`, `error` and `in_progress` as the API spells them (any case, `-` or `_`). A backup without a status
 * (the seed contract has none) is done when it has `finishedAt` and in progress otherwise.
 */
export function backupStatus(b: ObservedBackup): BackupStatus {
  if (b.status === undefined || b.status === null) return parseTime(b.finishedAt) !== undefined ? 'done' : 'in_progress';
  const s = String(b.status).toLowerCase().replace(/-/g, '_');
  return s === 'done' || s === 'error' || s === 'in_progress' ? s : 'unknown';
}

/** Seconds a backup took (or has been running): durationInSeconds, else finishedAt - startedAt, else now - startedAt while running. */
export function backupDuration(b: ObservedBackup, now: Date): number | undefined {
  if (typeof b.durationInSeconds === 'number' && Number.isFinite(b.durationInSeconds)) return b.durationInSeconds;
  const start = parseTime(b.startedAt);
  if (start === undefined) return undefined;
  const end = parseTime(b.finishedAt) ?? (backupStatus(b) === 'in_progress' ? now.getTime() : undefined);
  return end === undefined ? undefined : Math.max(0, (end - start) / 1000);
}

/** When a finished backup finished: finishedAt, else its start plus its duration. */
function backupEnd(b: ObservedBackup): number | undefined {
  const finished = parseTime(b.finishedAt);
  if (finished !== undefined) return finished;
  const start = parseTime(b.startedAt);
  return start !== undefined && typeof b.durationInSeconds === 'number' && Number.isFinite(b.durationInSeconds) ? start + b.durationInSeconds * 1000 : undefined;
}

/** The backups as the report's charts and tables show them, oldest first. */
export function summarizeBackups(backups: readonly ObservedBackup[], now: Date): BackupSummary[] {
  return orderBackups(backups).map((b) => {
    const d = backupDuration(b, now);
    const out: BackupSummary = { id: b.id, status: backupStatus(b) };
    const start = backupStart(b);
    if (start !== undefined) out.startedAt = new Date(start).toISOString();
    const end = parseTime(b.finishedAt);
    if (end !== undefined) out.finishedAt = new Date(end).toISOString();
    if (typeof b.sizeInBytes === 'number' && Number.isFinite(b.sizeInBytes)) out.sizeInBytes = b.sizeInBytes;
    if (d !== undefined) out.durationSeconds = round1(d);
    if (typeof b.type === 'string') out.type = b.type;
    return out;
  });
}

function backupObject(b: ObservedBackup): FindingObject {
  return { kind: 'backup', name: b.id, id: b.id };
}

function backupLabel(b: ObservedBackup): string {
  const start = backupStart(b);
  return start === undefined ? `backup ${b.id}` : `backup of ${formatTime(new Date(start).toISOString())}`;
}

type BackupExpectations = NonNullable<CloudServiceSpec['backups']>;

function checkBackups(exp: BackupExpectations, list: readonly ObservedBackup[], now: Date): Finding[] {
  const out: Finding[] = [];
  const backups = orderBackups(list);
  const status = new Map(backups.map((b) => [b, backupStatus(b)] as const));
  const done = backups.filter((b) => status.get(b) === 'done');

  // backup.stale: the newest finished backup, by when it finished.
  if (exp.maxAgeHours !== undefined) {
    let newest: { b: ObservedBackup; end: number } | undefined;
    for (const b of done) {
      const end = backupEnd(b);
      if (end !== undefined && (newest === undefined || end >= newest.end)) newest = { b, end };
    }
    if (!newest) {
      out.push({
        id: 'backup.stale',
        severity: 'error',
        object: { kind: 'backup', name: '(none)' },
        expected: { maxAgeHours: exp.maxAgeHours },
        actual: null,
        message: `no finished backup${backups.length ? ` among ${backups.length} listed` : ''}; expected one within ${exp.maxAgeHours}h`,
      });
    } else {
      const ageHours = (now.getTime() - newest.end) / 3_600_000;
      // Exactly maxAgeHours old is still fresh: the limit is "older than".
      if (ageHours > exp.maxAgeHours) {
        out.push({
          id: 'backup.stale',
          severity: 'error',
          object: backupObject(newest.b),
          expected: { maxAgeHours: exp.maxAgeHours },
          actual: { finishedAt: new Date(newest.end).toISOString(), ageHours: round1(ageHours) },
          message: `newest finished backup is ${round1(ageHours)}h old (finished ${formatTime(new Date(newest.end).toISOString())}); expected under ${exp.maxAgeHours}h`,
        });
      }
    }
  }

  // backup.too-few: only finished backups can be restored, so only they count.
  if (exp.minCount !== undefined && done.length < exp.minCount) {
    out.push({
      id: 'backup.too-few',
      severity: 'warning',
      object: { kind: 'backup', name: '(all)' },
      expected: { minCount: exp.minCount },
      actual: { count: done.length, listed: backups.length },
      message: `${done.length} finished backup${done.length === 1 ? '' : 's'}${backups.length !== done.length ? ` (${backups.length} listed)` : ''}; expected at least ${exp.minCount}`,
    });
  }

  const newestDoneStart = done.length ? backupStart(done[done.length - 1]!) : undefined;
  for (const b of backups) {
    const s = status.get(b)!;
    const duration = backupDuration(b, now);

    if (s === 'error') {
      // A failure that a later successful backup superseded is a warning; one with nothing good after it is an error.
      const start = backupStart(b);
      const superseded = newestDoneStart !== undefined && start !== undefined && newestDoneStart > start;
      out.push({
        id: 'backup.failed',
        severity: superseded ? 'warning' : 'error',
        object: backupObject(b),
        expected: { status: 'done' },
        actual: { status: b.status ?? null, startedAt: b.startedAt ?? null },
        message: `${backupLabel(b)} failed${superseded ? ' (a later backup succeeded)' : ' and no later backup succeeded'}`,
      });
    } else if (s === 'in_progress') {
      out.push({
        id: 'backup.in-progress',
        severity: 'info',
        object: backupObject(b),
        actual: { status: b.status ?? null, startedAt: b.startedAt ?? null, ...(duration !== undefined ? { runningSeconds: round1(duration) } : {}) },
        message: `${backupLabel(b)} is in progress${duration !== undefined ? ` (running for ${formatDuration(duration)})` : ''}`,
      });
    } else if (s === 'unknown') {
      out.push({
        id: 'backup.unknown-status',
        severity: 'warning',
        object: backupObject(b),
        expected: { status: ['done', 'error', 'in_progress'] },
        actual: { status: b.status },
        message: `${backupLabel(b)} has status ${JSON.stringify(b.status)}, which steward does not know; it is left out of the other backup checks`,
      });
    }

    // backup.slow: finished backups over the limit, and running ones already past it.
    if (exp.maxDurationMinutes !== undefined && duration !== undefined && (s === 'done' || s === 'in_progress') && duration > exp.maxDurationMinutes * 60) {
      out.push({
        id: 'backup.slow',
        severity: 'warning',
        object: backupObject(b),
        expected: { maxDurationMinutes: exp.maxDurationMinutes },
        actual: { durationMinutes: round1(duration / 60), status: s },
        message: `${backupLabel(b)} ${s === 'done' ? 'took' : 'is still running after'} ${formatDuration(duration)}; expected at most ${formatDuration(exp.maxDurationMinutes * 60)}`,
      });
    }
  }

  // backup.size-jump: consecutive finished backups of the same type (a full backup after incrementals is not a jump).
  if (exp.maxSizeChangePercent !== undefined) {
    const previous = new Map<string, ObservedBackup>();
    for (const b of done) {
      if (typeof b.sizeInBytes !== 'number' || !Number.isFinite(b.sizeInBytes)) continue;
      const type = typeof b.type === 'string' ? b.type : '';
      const prev = previous.get(type);
      previous.set(type, b);
      if (!prev || typeof prev.sizeInBytes !== 'number' || prev.sizeInBytes <= 0) continue;
      const change = ((b.sizeInBytes - prev.sizeInBytes) / prev.sizeInBytes) * 100;
      if (Math.abs(change) > exp.maxSizeChangePercent) {
        out.push({
          id: 'backup.size-jump',
          severity: 'warning',
          object: backupObject(b),
          expected: { maxSizeChangePercent: exp.maxSizeChangePercent },
          actual: { changePercent: round1(change), sizeInBytes: b.sizeInBytes, previousSizeInBytes: prev.sizeInBytes, previousId: prev.id },
          message: `${backupLabel(b)} is ${formatBytes(b.sizeInBytes)}, ${change > 0 ? '+' : ''}${round1(change)}% against the previous ${formatBytes(prev.sizeInBytes)}; expected within ±${exp.maxSizeChangePercent}%`,
        });
      }
    }
  }
  return out;
}

// ------------------------------------------------------------------------------------------------ pipes

type PipeExpectations = NonNullable<CloudServiceSpec['pipes']>;
type ExpectedPipe = NonNullable<PipeExpectations['expected']>[number];

/** The source members present on a pipe (non-null objects), sorted. */
export function sourceKinds(p: ObservedPipe): string[] {
  const src = p.source;
  if (!isObject(src)) return [];
  return Object.keys(src)
    .filter((k) => isObject(src[k]))
    .sort();
}

const same = (a: string | undefined, b: string | undefined) => a !== undefined && b !== undefined && a.toLowerCase() === b.toLowerCase();
const isIn = (list: readonly string[], s: string | undefined) => s !== undefined && list.some((x) => same(x, s));

function checkPipes(exp: PipeExpectations, list: readonly ObservedPipe[]): Finding[] {
  const out: Finding[] = [];
  const live = [...list].sort((a, b) => cmp(a.name, b.name) || cmp(a.id ?? '', b.id ?? ''));
  const byName = groupBy(live, (p) => p.name);
  const expected = exp.expected ?? [];
  const declared = new Set(expected.map((e) => e.name));

  for (const [name, pipes] of byName) {
    if (pipes.length > 1) {
      out.push({
        id: 'pipe.duplicate-name',
        severity: 'warning',
        object: { kind: 'pipe', name },
        actual: { ids: pipes.map((p) => p.id ?? null) },
        message: `${pipes.length} pipes are named "${name}"; ${declared.has(name) ? 'the checks use the first by id' : 'names should be unique'}`,
      });
    }
  }

  for (const e of expected) {
    const p = byName.get(e.name)?.[0];
    if (!p) {
      out.push({
        id: 'pipe.missing',
        severity: 'error',
        object: { kind: 'pipe', name: e.name },
        expected: e,
        actual: null,
        message: `pipe "${e.name}" is not on the service`,
      });
      continue;
    }
    out.push(...checkPipeState(p, e.state), ...checkPipeFields(p, e), ...checkSourceKind(p));
  }

  const reportUnlisted = exp.reportUnlisted ?? DEFAULT_REPORT_UNLISTED_PIPES;
  for (const [name, pipes] of byName) {
    if (declared.has(name)) continue;
    for (const p of pipes) {
      if (reportUnlisted) {
        out.push({
          id: 'pipe.unlisted',
          severity: 'warning',
          object: pipeObject(p),
          actual: { state: p.state ?? null, sourceKinds: sourceKinds(p) },
          message: `pipe "${name}"${p.state !== undefined ? ` (${p.state})` : ''} is on the service but no file lists it`,
        });
      }
      out.push(...checkSourceKind(p));
    }
  }
  return out;
}

function pipeObject(p: ObservedPipe): FindingObject {
  return p.id !== undefined ? { kind: 'pipe', name: p.name, id: p.id } : { kind: 'pipe', name: p.name };
}

function checkPipeState(p: ObservedPipe, expectedState: string | undefined): Finding[] {
  const actual = typeof p.state === 'string' ? p.state : undefined;
  if (expectedState !== undefined && same(actual, expectedState)) return [];
  const obj = pipeObject(p);
  if (isIn(TRANSITIONAL_PIPE_STATES, actual)) {
    return [
      {
        id: 'pipe.in-progress',
        severity: 'info',
        object: obj,
        ...(expectedState !== undefined ? { expected: expectedState } : {}),
        actual,
        message: `pipe "${p.name}" is ${actual}, in progress${expectedState !== undefined ? ` (expected ${expectedState} once it settles)` : ''}`,
      },
    ];
  }
  const unknown = actual !== undefined && !isIn(KNOWN_PIPE_STATES, actual);
  const shown = actual === undefined ? 'reports no state' : `is ${actual}${unknown ? ' (a state steward does not know)' : ''}`;
  if (expectedState !== undefined) {
    return [{ id: 'pipe.state', severity: 'error', object: obj, expected: expectedState, actual: actual ?? null, message: `pipe "${p.name}" ${shown}; expected ${expectedState}` }];
  }
  if (isIn(UNHEALTHY_PIPE_STATES, actual) || unknown) {
    return [{ id: 'pipe.state', severity: 'warning', object: obj, actual, message: `pipe "${p.name}" ${shown} (the file declares no state)` }];
  }
  return [];
}

/**
 * Subset match: only what the file declares is compared, recursively through objects; arrays and scalars are
 * compared whole. Credential fields are never compared (nor shown): they are dropped from the declaration first.
 */
function checkPipeFields(p: ObservedPipe, e: ExpectedPipe): Finding[] {
  const want: Record<string, unknown> = {};
  const have: Record<string, unknown> = {};
  for (const field of DECLARED_PIPE_FIELDS) {
    const declared = withoutSecrets(e[field], [field]);
    if (declared === undefined) continue;
    want[field] = declared;
    const picked = pickSubset(field === 'settings' ? settingsAsDeclared(p.settings, declared) : p[field], declared);
    if (picked !== undefined) have[field] = picked;
  }
  if (Object.keys(want).length === 0) return [];
  const patch = jsonpatch.compare(have, want) as PatchOperation[];
  if (patch.length === 0) return [];
  const paths = patch.map((op) => op.path);
  return [
    {
      id: 'pipe.field-drift',
      severity: 'warning',
      object: pipeObject(p),
      expected: want,
      actual: have,
      patch,
      message: `pipe "${p.name}" differs from its file at ${paths.slice(0, 3).join(', ')}${paths.length > 3 ? ` and ${paths.length - 3} more` : ''}`,
    },
  ];
}

/**
 * The seed names ClickPipe engine settings `engine_*`; ClickHouse Cloud (and its docs) say `clickhouse_*`
 * (`engine_max_threads` is `clickhouse_max_threads`). A file may use either spelling with either cloud
 * profile: a declared setting the server sent under the other spelling is read under the file's, so the
 * comparison (and a finding's patch) speaks the file's language.
 */
function settingsAsDeclared(live: unknown, declared: unknown): unknown {
  if (!isObject(live) || !isObject(declared)) return live;
  const out: Record<string, unknown> = { ...live };
  for (const k of Object.keys(declared)) {
    if (Object.prototype.hasOwnProperty.call(live, k)) continue;
    const other = k.startsWith('engine_') ? `clickhouse_${k.slice(7)}` : k.startsWith('clickhouse_') ? `engine_${k.slice(11)}` : undefined;
    if (other !== undefined && Object.prototype.hasOwnProperty.call(live, other)) out[k] = live[other];
  }
  return out;
}

/** The part of `live` that `declared` names; undefined where live has nothing. */
function pickSubset(live: unknown, declared: unknown): unknown {
  if (!isObject(declared) || !isObject(live)) return live === undefined ? undefined : live;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(declared)) {
    if (!Object.prototype.hasOwnProperty.call(live, k)) continue;
    const v = pickSubset(live[k], declared[k]);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

function withoutSecrets(value: unknown, parents: string[]): unknown {
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (isSecretKey(k, parents)) continue;
    out[k] = withoutSecrets(v, [...parents, k]);
  }
  return out;
}

function checkSourceKind(p: ObservedPipe): Finding[] {
  const kinds = sourceKinds(p);
  const unknown = kinds.filter((k) => !KNOWN_SOURCE_KINDS.includes(k));
  if (kinds.length === 0 || unknown.length < kinds.length) return [];
  return [
    {
      id: 'pipe.unknown-source-kind',
      severity: 'info',
      object: pipeObject(p),
      expected: KNOWN_SOURCE_KINDS,
      actual: unknown,
      message: `pipe "${p.name}" reads from ${unknown.join(', ')}, a source kind steward does not know; its source is not checked`,
    },
  ];
}

// -------------------------------------------------------------------------------------------- endpoints

type EndpointExpectations = NonNullable<CloudServiceSpec['reversePrivateEndpoints']>;

function checkEndpoints(exp: EndpointExpectations, list: readonly ObservedEndpoint[]): Finding[] {
  const out: Finding[] = [];
  const live = [...list].sort((a, b) => cmp(a.description, b.description) || cmp(a.id ?? '', b.id ?? ''));
  const byDescription = groupBy(live, (e) => e.description);
  const expected = exp.expected ?? [];
  const declared = new Set(expected.map((e) => e.description));

  for (const [description, eps] of byDescription) {
    if (eps.length > 1) {
      out.push({
        id: 'endpoint.duplicate-description',
        severity: 'warning',
        object: { kind: 'endpoint', name: description },
        actual: { ids: eps.map((e) => e.id ?? null) },
        message: `${eps.length} reverse private endpoints are described "${description}"; ${declared.has(description) ? 'the checks use the first by id' : 'descriptions should be unique'}`,
      });
    }
  }

  for (const e of expected) {
    const want = e.status ?? DEFAULT_ENDPOINT_STATUS;
    const ep = byDescription.get(e.description)?.[0];
    if (!ep) {
      out.push({
        id: 'endpoint.missing',
        severity: 'error',
        object: { kind: 'endpoint', name: e.description },
        expected: { description: e.description, status: want },
        actual: null,
        message: `reverse private endpoint "${e.description}" is not on the service`,
      });
      continue;
    }
    const actual = typeof ep.status === 'string' ? ep.status : undefined;
    if (same(actual, want)) continue;
    const waiting = isIn(WAITING_ENDPOINT_STATUSES, actual);
    out.push({
      id: 'endpoint.status',
      severity: waiting ? 'warning' : 'error',
      object: endpointObject(ep),
      expected: want,
      actual: actual ?? null,
      message: `reverse private endpoint "${e.description}" ${actual === undefined ? 'reports no status' : `is ${actual}`}; expected ${want}${waiting ? ' (waiting)' : ''}`,
    });
  }

  if (exp.reportUnlisted ?? DEFAULT_REPORT_UNLISTED_ENDPOINTS) {
    for (const [description, eps] of byDescription) {
      if (declared.has(description)) continue;
      for (const ep of eps) {
        out.push({
          id: 'endpoint.unlisted',
          severity: 'warning',
          object: endpointObject(ep),
          actual: { status: ep.status ?? null, type: ep.type ?? null },
          message: `reverse private endpoint "${description}"${ep.status !== undefined ? ` (${ep.status})` : ''} is on the service but no file lists it`,
        });
      }
    }
  }
  return out;
}

function endpointObject(e: ObservedEndpoint): FindingObject {
  return e.id !== undefined ? { kind: 'endpoint', name: e.description, id: e.id } : { kind: 'endpoint', name: e.description };
}

// -------------------------------------------------------------------------------------------- helpers

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const it of items) {
    const k = key(it);
    const arr = m.get(k);
    if (arr) arr.push(it);
    else m.set(k, [it]);
  }
  return m;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
