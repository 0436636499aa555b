import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, mkdirSync, openSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { CliError } from './errors.ts';

/**
 * Writes a file atomically: a temp file beside it (a random name, so two runs never share one), flushed to
 * disk, then renamed over the target. A kill at any instant leaves the old file or the new one, never half.
 * @throws CliError naming the file when it cannot be written.
 */
export function writeFileAtomic(path: string, content: string | Uint8Array): void {
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    mkdirSync(dirname(path), { recursive: true });
    const fd = openSync(tmp, 'w', 0o644);
    try {
      writeFileSync(fd, content);
      fsyncSync(fd);
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
