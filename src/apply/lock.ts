import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, lstatSync, openSync, rmdirSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { CliError } from '../errors.ts';
import { makeDirs, readRegularFile } from '../shared/files.ts';

/** Who holds the lock: written into the lock file, read by whoever finds it taken. */
export interface LockOwner {
  pid: number;
  host: string;
  /** ISO time the holder took the lock. */
  since: string;
  /** The command line, for people (`steward apply --auto-approve`). */
  command: string;
  /** Random, so a holder only ever removes its own lock. */
  nonce: string;
  /**
   * When the holder process started, as its host counts it (Linux: clock ticks since boot, /proc/<pid>/stat):
   * fixed for the process's life whatever the wall clock does, so a later process given its pid is told apart.
   */
  started?: string;
}

/** What the caller (the CLI, the only code that reads the process) tells the lock about itself. */
export interface LockEnv {
  pid: number;
  host: string;
  command: string;
  /** When this process started, where the host says (LockOwner.started); written into the lock. */
  started?: string | undefined;
  now(): Date;
  /**
   * Whether the holder still runs on this host: a process with this id exists (`process.kill(pid, 0)`) and is
   * the holder, not a later process given its pid: it started when the lock says (`started`), or, for a
   * lock without it, not after the lock was taken.
   */
  isAlive(pid: number, since: string, started?: string): boolean;
  /**
   * Whether git tracks the file at this path. A committed lock is never a live run's (each run makes its own
   * and removes it): it is a pull request's, or a mistake, and is refused at once rather than waited for.
   */
  isTracked(path: string): boolean;
  /** Waits between tries while --lock-timeout lasts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export interface Lock {
  readonly path: string;
  readonly owner: LockOwner;
  /** Set when a stale lock was taken over: who held it. */
  readonly tookOverFrom: LockOwner | undefined;
  /** Removes the lock file if it is still ours. Safe to call more than once. */
  release(): void;
}

/** Refused: somebody else holds the lock. Exit code 1. */
export class LockedError extends CliError {
  readonly holder: LockOwner | undefined;
  constructor(message: string, holder: LockOwner | undefined) {
    super(message, { code: 'config', exitCode: 1 });
    this.holder = holder;
  }
}

/** A lock file whose content cannot be read is treated as being written until it is this old. */
const UNREADABLE_GRACE_MS = 5_000;
/** A lock file this young whose content cannot be read is being written: read it again. */
const BEING_WRITTEN_MS = 1_000;
/** Between tries while waiting for the lock. */
const POLL_MS = 100;

/**
 * Takes the lock at `path` with an exclusive create (`wx`): one JSON object with pid, host, start time and
 * command. A lock left by a dead process of this host is stale: it is named (tookOverFrom) and taken over.
 * A live holder (or one on another host, which cannot be checked) makes this wait up to `timeoutMs`
 * (0: refuse at once) and then refuse with one line saying who holds it.
 */
export async function acquireLock(path: string, env: LockEnv, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<Lock> {
  const owner: LockOwner = {
    pid: env.pid,
    host: env.host,
    since: env.now().toISOString(),
    command: env.command,
    nonce: randomBytes(8).toString('hex'),
    ...(env.started !== undefined ? { started: env.started } : {}),
  };
  const deadline = env.now().getTime() + Math.max(0, opts.timeoutMs);
  let tookOverFrom: LockOwner | undefined;
  // The folders this run makes for its lock, deepest first: removed again at release when they are still
  // empty, so a run that ends before it writes anything (Ctrl-C while the files parse, a refused plan)
  // leaves no trace in the checkout.
  const made = missingFolders(dirname(path));
  const makeFolder = () => {
    try {
      makeDirs(dirname(path));
    } catch (e) {
      throw new CliError(`cannot create the folder of the lock ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, {
        code: 'config',
        cause: e,
      });
    }
  };
  makeFolder();
  let trackedChecked = false;
  let remade = 0;
  for (;;) {
    const created = tryCreate(path, owner);
    if (created === 'no folder') {
      // Another run's release removed the (empty) folder between our mkdir and our create.
      if (++remade > 5) throw new CliError(`cannot create the lock ${path}: its folder keeps disappearing`, { code: 'config' });
      makeFolder();
      continue;
    }
    if (created) break;
    const held = readOwner(path);
    if (held.kind === 'gone') continue;
    if (!trackedChecked) {
      // Asked once (it runs git), before any wait or takeover: a lock file a commit put here would block
      // every apply of every checkout until someone noticed (a hostile pull request stops deploys), and a
      // takeover would delete a tracked file from the checkout. Refused, not ignored: ignoring it would
      // leave runs in this checkout with no lock at all, since the path stays taken.
      trackedChecked = true;
      if (env.isTracked(path)) {
        throw new LockedError(
          `the lock ${path} is committed to git, so no steward run holds it: remove it from the repository (git rm --cached ${path}, commit) and add it to .gitignore`,
          undefined,
        );
      }
    }
    if (held.kind === 'owner' && held.owner.host === env.host && !env.isAlive(held.owner.pid, held.owner.since, held.owner.started)) {
      if (takeOver(path, held.text, env)) tookOverFrom = held.owner;
      continue;
    }
    if (held.kind === 'unreadable' && env.now().getTime() - held.mtimeMs < BEING_WRITTEN_MS) {
      // Created a moment ago and not written yet: its holder is writing it. Read it again shortly, so that
      // the refusal can name the holder.
      await env.sleep(10, opts.signal);
      if (opts.signal?.aborted) throw opts.signal.reason;
      continue;
    }
    if (held.kind === 'unreadable' && env.now().getTime() - held.mtimeMs > UNREADABLE_GRACE_MS) {
      // A holder that died between creating the file and writing it: nobody can hold it any more.
      takeOver(path, held.text, env);
      continue;
    }
    if (env.now().getTime() >= deadline) throw lockedError(path, held, env);
    await env.sleep(Math.min(POLL_MS, Math.max(1, deadline - env.now().getTime())), opts.signal);
    if (opts.signal?.aborted) throw opts.signal.reason;
  }
  let released = false;
  return {
    path,
    owner,
    tookOverFrom,
    release() {
      if (released) return;
      released = true;
      const now = readOwner(path);
      if (now.kind === 'owner' && now.owner.nonce === owner.nonce) {
        try {
          unlinkSync(path);
        } catch {
          // already gone
        }
      }
      for (const dir of made) {
        try {
          rmdirSync(dir);
        } catch {
          // Not empty (the state, the journal, another run's lock) or gone: kept as it is.
          break;
        }
      }
    },
  };
}

/** `dir` and those of its parents that do not exist yet, deepest first. */
function missingFolders(dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; !existsSync(d) && dirname(d) !== d; d = dirname(d)) out.push(d);
  return out;
}

/** One line for a stale lock that was taken over. */
export function describeTakeover(path: string, from: LockOwner): string {
  return `took over a stale lock ${path}: pid ${from.pid} on ${from.host} (since ${from.since}, ${from.command}) is no longer running`;
}

function tryCreate(path: string, owner: LockOwner): boolean | 'no folder' {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o644);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'no folder';
    throw new CliError(`cannot create the lock ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { code: 'config', cause: e });
  }
  try {
    writeSync(fd, JSON.stringify(owner) + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

type Held = { kind: 'gone' } | { kind: 'owner'; owner: LockOwner; text: string } | { kind: 'unreadable'; text: string; mtimeMs: number };

/** A lock file is a few hundred bytes: more is not steward's, and is not read whole. */
const MAX_LOCK_BYTES = 64 * 1024;

function readOwner(path: string): Held {
  let text: string;
  let mtimeMs: number;
  try {
    // Not followed, not read past a bound: a committed link to /dev/zero or a fifo would read forever or hang.
    const st = lstatSync(path);
    if (!st.isFile()) {
      throw new CliError(
        `the lock ${path} is ${st.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}, which steward never makes: remove it (when no steward command runs here)`,
        { code: 'config' },
      );
    }
    mtimeMs = st.mtimeMs;
    text = readRegularFile(path, MAX_LOCK_BYTES, { noFollow: true }).toString('utf8');
  } catch (e) {
    if (e instanceof CliError) throw e;
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'gone' };
    throw new CliError(`cannot read the lock ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { code: 'config', cause: e });
  }
  try {
    const o = JSON.parse(text) as Partial<LockOwner>;
    if (
      o &&
      typeof o.pid === 'number' &&
      typeof o.host === 'string' &&
      typeof o.since === 'string' &&
      typeof o.command === 'string' &&
      typeof o.nonce === 'string'
    ) {
      const { started, ...owner } = o as LockOwner;
      return { kind: 'owner', owner: typeof started === 'string' ? { ...owner, started } : owner, text };
    }
  } catch {
    // being written, or torn by a crash
  }
  return { kind: 'unreadable', text, mtimeMs };
}

/**
 * Removes a stale lock so that the next exclusive create decides who gets it. A second lock file guards
 * the removal: without it, two takers could both read the stale lock, and the slower one would remove the
 * fresh lock the faster one had just made. Returns whether this call removed it.
 */
function takeOver(path: string, staleText: string, env: LockEnv): boolean {
  const guard = `${path}.takeover`;
  let fd: number;
  try {
    fd = openSync(guard, 'wx', 0o644);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST')
      throw new CliError(`cannot create ${guard}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { code: 'config', cause: e });
    // Somebody is taking it over; a guard left by a crash is removed once old.
    try {
      if (env.now().getTime() - statSync(guard).mtimeMs > UNREADABLE_GRACE_MS) unlinkSync(guard);
    } catch {
      // gone meanwhile
    }
    return false;
  }
  closeSync(fd);
  try {
    let text: string | undefined;
    try {
      text = readRegularFile(path, MAX_LOCK_BYTES, { noFollow: true }).toString('utf8');
    } catch {
      return false;
    }
    if (text !== staleText) return false;
    unlinkSync(path);
    return true;
  } finally {
    try {
      unlinkSync(guard);
    } catch {
      // removed as stale by another taker
    }
  }
}

function lockedError(path: string, held: Held, env: LockEnv): LockedError {
  if (held.kind === 'owner') {
    const o = held.owner;
    const where = o.host === env.host ? `pid ${o.pid} on this host` : `pid ${o.pid} on ${o.host}`;
    const after = o.host === env.host ? '' : `; if that process is gone, delete ${path}`;
    return new LockedError(`another steward holds the lock ${path}: ${where}, since ${o.since}, running \`${o.command}\`${after}`, o);
  }
  return new LockedError(`another steward holds the lock ${path} (being written; try again, or delete it if no steward runs)`, undefined);
}

/**
 * A duration for people: `30s`, `2m`, `500ms`, `1h`, or a number of seconds. Throws on anything else.
 */
export function parseDuration(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = m[2] ?? 's';
  return Math.round(n * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit]!);
}
