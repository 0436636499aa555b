import { accessSync, constants, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../atomic-write.ts';
import { CliError } from '../errors.ts';
import type { StateFile } from '../plan/types.ts';

export const EMPTY_STATE: StateFile = { formatVersion: 1, alerts: {} };

/** Reads the state file; a missing file is an empty state, a damaged one is an error (never silently reset). */
export function readState(path: string): StateFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return structuredClone(EMPTY_STATE);
    throw new CliError(`cannot read state file ${path}: ${(e as Error).message}`, { code: 'config', cause: e });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new CliError(
      `state file ${path} is not valid JSON (${(e as Error).message}); restore it from version control or the CI artifact, or move it away to start without records`,
      { code: 'config', cause: e },
    );
  }
  const s = parsed as Partial<StateFile>;
  if (!s || typeof s !== 'object' || s.formatVersion !== 1 || typeof s.alerts !== 'object' || s.alerts === null) {
    throw new CliError(`state file ${path} is not a steward state file (formatVersion 1 with an alerts object expected)`, { code: 'config' });
  }
  const applied = Array.isArray(s.appliedPlans) ? s.appliedPlans.filter((p) => p && typeof p.digest === 'string' && typeof p.at === 'string') : [];
  return { formatVersion: 1, alerts: s.alerts as StateFile['alerts'], ...(applied.length > 0 ? { appliedPlans: applied } : {}) };
}

const MAX_APPLIED_PLANS = 200;

export function writeState(path: string, state: StateFile): void {
  const sorted: StateFile = { formatVersion: 1, alerts: {} };
  for (const id of Object.keys(state.alerts).sort()) sorted.alerts[id] = state.alerts[id]!;
  // The latest saved plans applied: enough to refuse a replay, never growing without bound.
  if (state.appliedPlans?.length) sorted.appliedPlans = state.appliedPlans.slice(-MAX_APPLIED_PLANS);
  writeFileAtomic(path, JSON.stringify(sorted, null, 2) + '\n');
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
    mkdirSync(dir, { recursive: true });
    writeFileSync(probe, '');
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
