import { accessSync, constants, unlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../atomic-write.ts';
import { MAX_RESPONSE_DEPTH, nestsDeeperThan } from '../clients/depth.ts';
import { CliError } from '../errors.ts';
import type { AlertRecord, StateFile } from '../plan/types.ts';
import { makeDirs, readRegularFile } from '../shared/files.ts';
import { mib, parseRoom } from '../shared/json.ts';
import { isObject } from '../shared/object.ts';
import { jsonText } from '../render/escape.ts';
import { redactStrings } from '../shared/redact-strings.ts';

export const EMPTY_STATE: StateFile = { formatVersion: 1, alerts: {} };

/** A state file larger than this is refused: it records one entry per alert, so this is far beyond any real one. */
const MAX_STATE_BYTES = 64 * 1024 * 1024;

/**
 * Reads the state file; a missing file is an empty state, a damaged one is an error (never silently reset).
 * Only a regular file is read (a device or fifo named in spec.state cannot hang or flood steward), and every
 * record is checked, so a hand-edited file gives a message, not a crash or "undefined" in a plan.
 */
export function readState(path: string): StateFile {
  let text: string;
  try {
    const bytes = readRegularFile(path, MAX_STATE_BYTES);
    if (bytes.length > MAX_STATE_BYTES) throw new Error(`larger than ${MAX_STATE_BYTES / 1048576} MiB`);
    // Counted before JSON.parse, as a response body and a saved plan are: the file is in the work tree, and 60 MiB
    // of `{},` in it stopped plan out of heap with a native stack trace on a 1 GiB heap (red team, round 16).
    const room = parseRoom(bytes);
    if (room) {
      throw new Error(
        `its ${mib(bytes.length)} hold ${room.values.toLocaleString('en-US')} JSON values or more, which would take about ${mib(room.need)} to read, more than the ${mib(room.free)} this process has left (no state file steward writes is so dense; restore it from version control or the CI artifact)`,
      );
    }
    text = bytes.toString('utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return structuredClone(EMPTY_STATE);
    throw new CliError(`cannot read state file ${path}: ${(e as Error).message}`, { code: 'config', cause: e });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // The parser's message quotes the text: never echo what a file named in spec.state holds.
    throw new CliError(`state file ${path} is not valid JSON; restore it from version control or the CI artifact, or move it away to start without records`, {
      code: 'config',
    });
  }
  const bad = (why: string) =>
    new CliError(`state file ${path} is not a steward state file: ${why}; restore it from version control or the CI artifact`, { code: 'config' });
  if (!isObject(parsed) || parsed['formatVersion'] !== 1 || !isObject(parsed['alerts'])) throw bad('formatVersion 1 with an alerts object expected');
  // An alert as sent nests as deep as the service's answers may (three levels above it: the file, alerts, the
  // id): 20,000 levels in a record's `sent` (120 KB) overflowed the stack comparing it with the files, an
  // internal error on every plan (red team, round 18).
  if (nestsDeeperThan(parsed, MAX_RESPONSE_DEPTH + 3))
    throw bad(`it nests deeper than ${MAX_RESPONSE_DEPTH + 3} levels, which no state file steward writes does`);
  const alerts: StateFile['alerts'] = {};
  for (const [id, record] of Object.entries(parsed['alerts'])) {
    if (id === '' || id === '__proto__' || id === 'constructor' || id === 'prototype' || /[\u0000-\u001f]/.test(id))
      throw bad(`${JSON.stringify(id)} is not an alert id`);
    if (!isObject(record) || !isObject(record['sent']) || typeof record['appliedAt'] !== 'string') {
      throw bad(`the record of alert ${JSON.stringify(id)} needs "sent" (the alert as last sent) and "appliedAt"`);
    }
    alerts[id] = record as unknown as AlertRecord;
  }
  const plans = parsed['appliedPlans'];
  if (plans !== undefined && !Array.isArray(plans)) throw bad('appliedPlans must be a list');
  const applied = (plans ?? []).filter(
    (p): p is { digest: string; at: string } => isObject(p) && typeof p['digest'] === 'string' && typeof p['at'] === 'string',
  );
  return { formatVersion: 1, alerts, ...(applied.length > 0 ? { appliedPlans: applied } : {}) };
}

const MAX_APPLIED_PLANS = 200;

export function writeState(path: string, state: StateFile, redact?: (s: string) => string): void {
  const sorted: StateFile = { formatVersion: 1, alerts: {} };
  // What was sent holds whatever the files read, a prefixed ${DASH_API_KEY} included, and the state file is
  // committed after apply: every secret value is written as [redacted], and plan compares an alert with its
  // record the same way (src/plan/alerts.ts; red team, round 11).
  for (const id of Object.keys(state.alerts).sort()) sorted.alerts[id] = redact ? redactStrings(state.alerts[id]!, redact) : state.alerts[id]!;
  // The latest saved plans applied: enough to refuse a replay, never growing without bound.
  if (state.appliedPlans?.length) sorted.appliedPlans = state.appliedPlans.slice(-MAX_APPLIED_PLANS);
  writeFileAtomic(path, jsonText(sorted) + '\n');
}

/**
 * Checks, before the first remote write, that the state file can be written: its folder takes a new file
 * and the file itself (when it exists) is writable. Otherwise apply would change the service and lose the
 * records of what it changed.
 */
export function checkStateWritable(path: string): void {
  const dir = dirname(path);
  const probe = join(dir, `.state-probe-${randomBytes(6).toString('hex')}`);
  try {
    makeDirs(dir);
    writeFileSync(probe, '', { flag: 'wx' }); // a new file, never one that was there
    unlinkSync(probe);
    try {
      accessSync(path, constants.W_OK);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  } catch (e) {
    throw new CliError(
      `the state file ${path} cannot be written (${(e as NodeJS.ErrnoException).code ?? (e as Error).message}); nothing was changed: fix its permissions or spec.state, then apply again`,
      { code: 'config', cause: e },
    );
  }
}
