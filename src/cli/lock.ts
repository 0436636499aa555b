import { hostname } from 'node:os';
import { UsageError } from '../errors.ts';
import type { CommandContext } from './context.ts';

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
      now: () => new Date(),
      isAlive,
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
  if (lock.tookOverFrom) ctx.io.stderr(`steward: ${describeTakeover(lock.path, lock.tookOverFrom)}\n`);
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

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, owned by someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The yargs option every locking command takes. */
export const LOCK_TIMEOUT_OPTION = {
  type: 'string',
  describe: 'Wait this long for another steward holding the lock in the state folder (30s, 2m; default 0: refuse at once)',
} as const;
