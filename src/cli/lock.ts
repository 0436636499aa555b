import { readFileSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname } from 'node:path';
import { gitTracks } from '../config/cache-trust.ts';
import { UsageError } from '../errors.ts';
import type { CommandContext } from './context.ts';
import { escapeTerminal } from '../render/escape.ts';

/**
 * Takes the lock beside the state file for a command that writes (apply, import). The CLI is the only
 * place that reads the process, so the pid, host name and liveness check are given to the lock from here.
 */
export async function takeStateLock(ctx: CommandContext, statePath: string, command: string, lockTimeout: string | undefined) {
  const { acquireLock, describeTakeover, parseDuration } = await import('../apply/lock.ts');
  const timeoutMs = lockTimeout === undefined ? 0 : parseDuration(lockTimeout);
  if (timeoutMs === undefined) throw new UsageError(`--lock-timeout ${lockTimeout}: write a duration like 30s, 2m or 500ms`);
  const lock = await acquireLock(
    `${statePath}.lock`,
    {
      pid: process.pid,
      host: hostname(),
      command,
      started: startedTicks(process.pid),
      now: () => new Date(),
      isAlive,
      isTracked: (path) => gitTracks(dirname(path), basename(path), process.env),
      sleep: (ms, signal) =>
        new Promise<void>((resolve) => {
          const t = setTimeout(done, ms);
          function done() {
            clearTimeout(t);
            signal?.removeEventListener('abort', done);
            resolve();
          }
          signal?.addEventListener('abort', done, { once: true });
        }),
    },
    { timeoutMs, signal: ctx.signal },
  );
  // The lock file's text is anyone's who can write the state folder: shown escaped, never as terminal codes.
  if (lock.tookOverFrom) ctx.io.stderr(`steward: ${escapeTerminal(describeTakeover(lock.path, lock.tookOverFrom))}\n`);
  held.set(ctx.signal, [...(held.get(ctx.signal) ?? []), lock]);
  return lock;
}

/** Locks taken per run (keyed by the run's signal); main releases them whatever way the command ends. */
const held = new WeakMap<AbortSignal, Array<{ release(): void }>>();

/** Releases every lock the run with this signal took and still holds (safe after their own release). */
export function releaseLocks(signal: AbortSignal): void {
  for (const lock of held.get(signal) ?? []) lock.release();
  held.delete(signal);
}

function isAlive(pid: number, since: string, started?: string): boolean {
  // Not a process: kill(0, 0) asks about this process's group and kill(-1, 0) about every process, both
  // always there, so a lock file saying pid 0 or -1 held the lock for good (red team, round 18).
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch (e) {
    // EPERM: it exists, owned by someone else.
    if ((e as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  // The holder wrote when it started (clock ticks since boot): the process with its pid is the holder only
  // if it started then. Neither the wall clock (stepped back or forward by NTP) nor /proc's file times enter.
  const now = started === undefined ? undefined : startedTicks(pid);
  if (now !== undefined) return now === started;
  // A lock without it (an older steward): where /proc tells when a process started (Linux), a process that
  // started after the lock was taken holds a reused pid (a container's steward is often pid 7 run after run).
  // The time of /proc/<pid> is only when the kernel made that entry, which it may make again (after reclaiming
  // memory) long after the process started: hence `started` above.
  try {
    const startedAt = statSync(`/proc/${pid}`).ctimeMs;
    const taken = Date.parse(since);
    if (Number.isFinite(taken) && startedAt > taken + PID_START_SLACK_MS) return false;
  } catch {
    // no /proc: the pid alone decides
  }
  return true;
}

/**
 * When process `pid` started, in clock ticks since boot (field 22 of /proc/<pid>/stat, Linux): the same for
 * the whole life of the process, and different for a later process given the same pid. Undefined elsewhere.
 */
function startedTicks(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces or parentheses itself:
    // state (field 3) first, starttime (field 22) twentieth.
    const ticks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    return ticks !== undefined && /^\d+$/.test(ticks) ? ticks : undefined;
  } catch {
    return undefined;
  }
}

/** Clock granularity between a process's start and the time it writes in its lock. */
const PID_START_SLACK_MS = 2_000;

/** The yargs option every locking command takes. */
export const LOCK_TIMEOUT_OPTION = {
  type: 'string',
  describe: 'Wait this long for another steward holding the lock in the state folder (30s, 2m; default 0: refuse at once)',
} as const;
