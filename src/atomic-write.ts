import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, lstatSync, openSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync, type Stats } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CliError } from './errors.ts';
import { makeDirs } from './shared/files.ts';

/**
 * Writes a file atomically: a temp file beside it (a random name, so two runs never share one), flushed to
 * disk, then renamed over the target. A kill at any instant leaves the old file or the new one, never half.
 * The rename replaces the name, never what it names: a target that is a hard link (a second name of
 * steward.yaml) or a symbolic link is replaced by a file of its own, and the other name keeps its content.
 * Content given as chunks of text is written as it comes (a 27 MB cache pack is never one string).
 * `flush: false` skips the flush, for files whose reader checks what it reads (the caches: after a crash the
 * rename may be on disk before the data, and an empty or torn file fails its MAC and is treated as none).
 * @throws CliError naming the file when it cannot be written.
 */
export function writeFileAtomic(path: string, content: string | Uint8Array | Iterable<string>, opts: { flush?: boolean } = {}): void {
  const existing = assertReplaceable(path);
  // The temp name adds 19 bytes: a long name (file names end at 255 bytes) is cut in it, so every name that
  // can be written can be written atomically (a 240-byte plan name failed with ENAMETOOLONG).
  const name = basename(path);
  const tmp = join(dirname(path), `.${Buffer.byteLength(name) <= 100 ? name : name.slice(0, 25)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    makeDirs(dirname(path));
    // A file replaced keeps its permissions: a plan.json or state file the user made 0600 must not come back
    // readable by every local user after the next write.
    // Exclusive: the temp file is always a new file (never a link or a file that was there, written through).
    const fd = openSync(tmp, 'wx', existing?.isFile() ? existing.mode & 0o777 : 0o644);
    try {
      if (typeof content === 'string' || content instanceof Uint8Array) writeFileSync(fd, content);
      else for (const chunk of content) writeSync(fd, chunk);
      if (opts.flush !== false) fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {
      // never created, or already renamed
    }
    throw new CliError(`cannot write ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { cause: e });
  }
}

/**
 * Throws unless `path` is nothing, a regular file, or a link to one (or to nothing): what writeFileAtomic
 * may replace. Callers that write several files as one set (the report) ask it of each before writing any.
 * Returns what the name holds now (not followed), undefined for nothing.
 * @throws CliError naming the file
 */
export function assertReplaceable(path: string): Stats | undefined {
  // The rename would replace whatever the name holds: run as root, `--out /dev/null` turned the device into
  // a file. Only a regular file (or nothing) is replaced.
  let existing: Stats | undefined;
  try {
    existing = lstatSync(path);
  } catch {
    existing = undefined;
  }
  if (existing && !existing.isFile() && !existing.isSymbolicLink()) {
    throw new CliError(
      `refusing to write ${path}: it is ${existing.isDirectory() ? 'a folder' : 'not a regular file (a device, fifo or socket)'}; name a file`,
      { code: 'usage' },
    );
  }
  if (existing?.isSymbolicLink()) {
    let target: Stats | undefined;
    try {
      target = statSync(path);
    } catch {
      target = undefined;
    }
    if (target && !target.isFile())
      throw new CliError(`refusing to write ${path}: it links to something that is not a regular file; name a file`, { code: 'usage' });
  }
  return existing;
}
