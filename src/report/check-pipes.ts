/** ClickPipe (ingest pipe) checks: presence, state, declared fields, source kind. Pure. */
import jsonpatch from 'fast-json-patch';
import type { CloudServiceSpec } from '../schema/kinds.ts';
import { isSecretKey } from './redact.ts';
import { PIPE_STATES, type ObservedPipe } from '../model/cloud.ts';
import type { Finding, FindingObject, PatchOperation } from './types.ts';
import { isObject } from '../shared/object.ts';
import { compareText as cmp } from '../shared/text.ts';
import { groupBy, isIn, same } from './check-helpers.ts';
import { pushAll } from '../shared/arrays.ts';

/**
 * Pipe states that mean "on its way somewhere": a pipe in one of them is in progress (`pipe.in-progress`,
 * info), not drift. From the API's list: Provisioning, Setup, Snapshot (initial load), Modifying, Resync,
 * Stopping, Pausing; Starting and Resuming are not in it but read the same way if a server sends them.
 * Completed is not transitional: a one-shot object-storage pipe stays Completed, so declare it if you expect it.
 */
const TRANSITIONAL_PIPE_STATES: readonly string[] = ['Provisioning', 'Setup', 'Snapshot', 'Modifying', 'Resync', 'Starting', 'Stopping', 'Pausing', 'Resuming'];

/**
 * Where a transitional state settles, for those whose end the API names: "Stopping" is "transitioning to
 * stopped state" and "Pausing" "transitioning to paused state" (ClickPipe.state, both spec versions); Starting
 * and Resuming end Running. Such a pipe is in progress only towards that state: a pipe Stopping while its file
 * expects Running is on its way away from it, which is drift (pipe.state), not "expected Running once it
 * settles". The others (Provisioning, Setup, Snapshot, Modifying, Resync) have no one end, and stay in progress.
 */
const SETTLES_AT: Readonly<Record<string, string>> = { stopping: 'Stopped', pausing: 'Paused', starting: 'Running', resuming: 'Running' };

/** States reported as `pipe.state` (warning) even when the file declares no state. */
const UNHEALTHY_PIPE_STATES: readonly string[] = ['Failed', 'InternalError', 'Degraded'];

/**
 * The API's own "Unknown" (ClickPipe.state, both spec versions): the service cannot say whether the pipe
 * ingests. Like a state steward does not know, or none at all (the real spec marks `state` optional), it
 * cannot pass as healthy: a warning when the file declares no state, as for unhealthy states.
 */
const STATE_NOT_KNOWN = 'Unknown';

/** Source kinds the real API names; a pipe whose source holds none of these gets `pipe.unknown-source-kind`. */
const KNOWN_SOURCE_KINDS: readonly string[] = ['kafka', 'objectStorage', 'kinesis', 'pubsub', 'postgres', 'mysql', 'bigquery', 'mongodb'];

export const DEFAULT_REPORT_UNLISTED_PIPES = true;

/** The pipe fields a file may declare and that are compared as a subset. */
const DECLARED_PIPE_FIELDS = ['scaling', 'destination', 'source', 'settings'] as const;

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

export function checkPipes(exp: PipeExpectations, list: readonly ObservedPipe[]): Finding[] {
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
        message: `${pipes.length} pipes are named "${name}"; ${declared.has(name) ? 'each is checked against the file' : 'names should be unique'}`,
      });
    }
  }

  for (const e of expected) {
    // Every pipe with the declared name: which one the file means cannot be told, so none may hide another.
    const matching = byName.get(e.name) ?? [];
    if (matching.length === 0) {
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
    for (const p of matching) for (const f of [checkPipeState(p, e.state), checkPipeFields(p, e), checkSourceKind(p)]) pushAll(out, f);
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
      pushAll(out, checkSourceKind(p));
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
  // Own keys only: a state the server names `constructor` is no transitional one (it was an internal error).
  const settlesAt = actual !== undefined && Object.hasOwn(SETTLES_AT, actual.toLowerCase()) ? SETTLES_AT[actual.toLowerCase()] : undefined;
  if (expectedState !== undefined && settlesAt !== undefined && !same(settlesAt, expectedState)) {
    return [
      {
        id: 'pipe.state',
        severity: 'error',
        object: obj,
        expected: expectedState,
        actual,
        message: `pipe "${p.name}" is ${actual}, on its way to ${settlesAt}; expected ${expectedState}`,
      },
    ];
  }
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
  const unknown = actual !== undefined && !isIn(PIPE_STATES, actual); // PIPE_STATES: every state the API names (src/model/cloud.ts)
  const notKnown = actual === undefined || same(actual, STATE_NOT_KNOWN);
  const shown =
    actual === undefined
      ? 'reports no state'
      : `is ${actual}${unknown ? ' (a state steward does not know)' : notKnown ? ' (the service does not know its state)' : ''}`;
  if (expectedState !== undefined) {
    return [
      {
        id: 'pipe.state',
        severity: 'error',
        object: obj,
        expected: expectedState,
        actual: actual ?? null,
        message: `pipe "${p.name}" ${shown}; expected ${expectedState}`,
      },
    ];
  }
  if (isIn(UNHEALTHY_PIPE_STATES, actual) || unknown || notKnown) {
    return [{ id: 'pipe.state', severity: 'warning', object: obj, actual: actual ?? null, message: `pipe "${p.name}" ${shown} (the file declares no state)` }];
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
