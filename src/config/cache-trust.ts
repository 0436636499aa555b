/**
 * What lets the caches trust their files (the parse pack, cache.ts; the live memo, live-memo.ts): a key only
 * this machine's user holds, which authenticates every file written here, and git not tracking the file (a
 * committed one is someone else's).
 */
import { execFileSync } from 'node:child_process';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { closeSync, fstatSync, lstatSync, openSync, readSync, writeSync, constants } from 'node:fs';
import { userInfo } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import type { FileSystem } from './fs.ts';
import type { Env } from './interpolate.ts';
import { makeDirs } from '../shared/files.ts';

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
    makeDirs(dir, 0o700);
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

/**
 * Whether git tracks `file` in `dir` (false when git is missing or `dir` is not in a repository).
 *
 * git is never left to find its repository: from a folder a commit controls it would take that folder for
 * one (a committed `HEAD`, `objects/`, `refs/` and `config` make a repository whose config runs commands,
 * e.g. `core.fsmonitor`; red team, round 4). The repository is the nearest `.git` above `dir` (no commit
 * can hold a path named `.git`), named explicitly, with the hooks git could run switched off.
 */
export function gitTracks(dir: string, file: string, env: Env): boolean {
  const root = worktreeRoot(dir);
  if (root === undefined) return false;
  try {
    execFileSync(
      'git',
      [
        '--git-dir',
        join(root, '.git'),
        '--work-tree',
        root,
        '-c',
        'core.fsmonitor=false',
        '-c',
        'core.hooksPath=/dev/null',
        'ls-files',
        '--error-unmatch',
        '--',
        relative(root, join(dir, file)),
      ],
      { cwd: root, stdio: 'ignore', timeout: 5000, env: { PATH: env['PATH'] ?? '/usr/bin:/bin' } },
    );
    return true;
  } catch {
    return false;
  }
}

/** The nearest folder at or above `dir` that has a `.git` (a folder, or a worktree's or submodule's file). */
function worktreeRoot(dir: string): string | undefined {
  for (let d = resolve(dir); ; d = dirname(d)) {
    try {
      lstatSync(join(d, '.git'));
      return d;
    } catch {
      // not here: one folder up
    }
    if (dirname(d) === d) return undefined;
  }
}

/**
 * The authentication code of a cache file: HMAC-SHA256 under the machine key, of the file's kind (`magic`,
 * so one kind of file can never be taken for another), the code identity and the body (text: as UTF-8).
 */
export function authCode(key: Buffer, magic: string, id: string, body: Buffer | string): string {
  return createHmac('sha256', key).update(`${magic}\u0000${id}\u0000`).update(body).digest('hex');
}

/**
 * The body of a cache file written by this code on this machine (`<magic> <id> <code> <count>` then a
 * newline and the body), or undefined: a missing, foreign, stale, damaged, unauthenticated or git-tracked
 * file has none. `tracked` is asked only of an authentic file (it runs git).
 */
export function readAuthenticated(fs: FileSystem, path: string, magic: string, id: string, key: Buffer, tracked: () => boolean): Buffer | undefined {
  if (!fs.stat(path)?.isFile) return undefined;
  try {
    const buf = fs.readFile(path);
    const nl = buf.indexOf(10);
    if (nl === -1) return undefined;
    const [fileMagic, fileId, sum] = buf.subarray(0, nl).toString('utf8').split(' ');
    if (fileMagic !== magic || fileId !== id) return undefined;
    const body = buf.subarray(nl + 1);
    const want = Buffer.from(authCode(key, magic, id, body), 'utf8');
    const got = Buffer.from(sum ?? '', 'utf8');
    if (got.length !== want.length || !timingSafeEqual(got, want)) return undefined;
    // Authentic, but committed: what a checkout holds is not this machine's to trust (and must not be shared).
    if (tracked()) return undefined;
    return body;
  } catch {
    return undefined;
  }
}

/**
 * The same file as chunks of text, for a body made of many parts (the parse pack): the MAC is computed over
 * the parts in one pass and they are handed to the write in a second, in ~1 MiB chunks, so the body is never
 * one string (three copies of 27 MB at the end of a cold load, with the live list beside them).
 */
export function* authenticatedChunks(magic: string, id: string, key: Buffer, parts: () => Iterable<string>, count: number): Iterable<string> {
  const mac = createHmac('sha256', key).update(`${magic}\u0000${id}\u0000`);
  for (const p of parts()) mac.update(p);
  yield `${magic} ${id} ${mac.digest('hex')} ${count}\n`;
  let chunk = '';
  for (const p of parts()) {
    chunk += p;
    if (chunk.length >= 1 << 20) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk) yield chunk;
}

/** The text of a cache file that `readAuthenticated` accepts (body given as text, so it is encoded once by the write). */
export function authenticatedText(magic: string, id: string, key: Buffer, body: string, count: number): string {
  return `${magic} ${id} ${authCode(key, magic, id, body)} ${count}\n${body}`;
}
