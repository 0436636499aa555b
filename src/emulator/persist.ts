import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { EmulatorError, readRegularText } from './seed.ts';

/** The marker at the top of a persisted state file. */
export const PERSIST_FORMAT = 'steward-emulator-state/1';

/**
 * Keeps dashboards and alerts in a JSON file. Writes are atomic (a temp file beside it, then rename) and
 * coalesced: a write requested while one runs is folded into one follow-up write that reads the state when it
 * starts, so every caller's change is on disk when its promise resolves.
 */
export class Persister {
  private running: Promise<void> | undefined;
  private queued: Promise<void> | undefined;

  constructor(
    readonly path: string,
    private readonly read: () => object,
  ) {}

  /** The persisted state, or undefined when the file does not exist yet. It is seed-format data. */
  load(): Record<string, unknown> | undefined {
    if (!existsSync(this.path)) return undefined;
    let text: string;
    try {
      text = readRegularText(this.path);
    } catch (err) {
      throw new EmulatorError(`cannot read persisted state ${this.path}: ${(err as Error).message}`, { cause: err });
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (err) {
      throw new EmulatorError(`persisted state ${this.path} is not valid JSON: ${(err as Error).message}`, { cause: err });
    }
    if (typeof parsed !== 'object' || parsed === null || (parsed as Record<string, unknown>)['$format'] !== PERSIST_FORMAT) {
      throw new EmulatorError(`persisted state ${this.path} is not an emulator state file (no "$format": "${PERSIST_FORMAT}")`);
    }
    return parsed as Record<string, unknown>;
  }

  /** Writes the current state; resolves once a write that includes it has finished. */
  save(): Promise<void> {
    if (this.queued) return this.queued;
    if (!this.running) return this.start();
    const queued = this.running
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.start();
      });
    this.queued = queued;
    return queued;
  }

  /** Resolves when no write is running or queued (errors are the callers' to see, not this one's). */
  async idle(): Promise<void> {
    while (this.queued ?? this.running) await (this.queued ?? this.running)!.catch(() => undefined);
  }

  private start(): Promise<void> {
    const p = this.write().finally(() => {
      if (this.running === p) this.running = undefined;
    });
    this.running = p;
    return p;
  }

  private async write(): Promise<void> {
    const body = JSON.stringify({ $format: PERSIST_FORMAT, ...this.read() }, null, 2) + '\n';
    const tmp = `${this.path}.${randomBytes(6).toString('hex')}.tmp`;
    const dir = dirname(this.path);
    try {
      await makeFolders(dir);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new EmulatorError(
        `cannot write persisted state ${this.path}: its folder ${dir} cannot be made (${code === 'EEXIST' || code === 'ENOTDIR' ? 'a file stands on its path' : (code ?? (err as Error).message)}); name a file in a folder this user can write`,
        { cause: err },
      );
    }
    try {
      await writeFile(tmp, body);
      await rename(tmp, this.path);
    } catch (err) {
      // Under a file (ENOTDIR) or a folder that could not be made, the temp file's name cannot even be
      // looked at: rm's own error would hide the one to report.
      await rm(tmp, { force: true }).catch(() => undefined);
      throw new EmulatorError(`cannot write persisted state ${this.path}: ${(err as Error).message}`, { cause: err });
    }
  }
}

/**
 * `mkdir(dir, { recursive: true })`, which ends: Node 20's recursive mkdir loops forever where a parent
 * exists and refuses the child with ENOENT, so `steward emulator --persist /proc/x/y.json` spun at 100% CPU
 * at start, and SIGTERM could not stop it. Each folder is tried once, parents first when it is missing; the
 * error of the one that cannot be made is thrown. (src/shared/files.ts has the same for the CLI; the
 * emulator imports nothing from the rest.)
 */
export async function makeFolders(dir: string): Promise<void> {
  try {
    await mkdir(dir);
    return;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST' && (await isFolder(dir))) return;
    if (code !== 'ENOENT' || dirname(dir) === dir) throw err;
  }
  await makeFolders(dirname(dir));
  try {
    await mkdir(dir);
  } catch (err) {
    // Made by someone else in between: as good.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST' || !(await isFolder(dir))) throw err;
  }
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
