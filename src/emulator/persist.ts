import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
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
    try {
      await mkdir(dirname(this.path), { recursive: true });
      await writeFile(tmp, body);
      await rename(tmp, this.path);
    } catch (err) {
      await rm(tmp, { force: true });
      throw new EmulatorError(`cannot write persisted state ${this.path}: ${(err as Error).message}`, { cause: err });
    }
  }
}
