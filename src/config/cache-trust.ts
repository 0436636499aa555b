/**
 * What lets the parse cache trust a pack (cache.ts): a key only this machine's user holds, which
 * authenticates every pack written here, and git not tracking the pack (a committed pack is someone else's).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, mkdirSync, openSync, readSync, writeSync, constants } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import type { Env } from './interpolate.ts';

/** Where the machine key lives: $XDG_CACHE_HOME/steward, else $HOME/.cache/steward; undefined without either. */
export function keyDir(env: Env): string | undefined {
  const xdg = env['XDG_CACHE_HOME'];
  if (xdg && xdg.startsWith('/')) return join(xdg, 'steward');
  const home = env['HOME'];
  if (home && home.startsWith('/')) return join(home, '.cache', 'steward');
  return undefined;
}

const KEY_FILE = 'cache.key';
const KEY_BYTES = 32;
const keys = new Map<string, Buffer | undefined>();

/**
 * The machine key, created on first use (32 random bytes, mode 0600, in a 0700 folder). undefined when it
 * cannot be made or read, or when the file is not a regular file of ours that only we can read and write:
 * then there is no cache.
 */
export function machineKey(env: Env): Buffer | undefined {
  const dir = keyDir(env);
  if (!dir) return undefined;
  const path = join(dir, KEY_FILE);
  if (keys.has(path)) return keys.get(path);
  let key: Buffer | undefined;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    let fd: number;
    try {
      fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
      try {
        writeSync(fd, randomBytes(KEY_BYTES));
      } finally {
        closeSync(fd);
      }
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    try {
      const st = fstatSync(fd);
      const uid = userInfo().uid;
      const mine = uid < 0 || st.uid === uid;
      if (st.isFile() && mine && (st.mode & 0o077) === 0 && st.size === KEY_BYTES) {
        const buf = Buffer.alloc(KEY_BYTES);
        if (readSync(fd, buf, 0, KEY_BYTES, 0) === KEY_BYTES) key = buf;
      }
    } finally {
      closeSync(fd);
    }
  } catch {
    key = undefined;
  }
  keys.set(path, key);
  return key;
}

/** Whether git tracks `file` in `dir` (false when git is missing or `dir` is not in a repository). */
export function gitTracks(dir: string, file: string, env: Env): boolean {
  try {
    execFileSync('git', ['-C', dir, 'ls-files', '--error-unmatch', '--', file], {
      stdio: 'ignore',
      timeout: 5000,
      env: { PATH: env['PATH'] ?? '/usr/bin:/bin' },
    });
    return true;
  } catch {
    return false;
  }
}
