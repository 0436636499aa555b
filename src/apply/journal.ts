import { closeSync, fdatasyncSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { CliError } from '../errors.ts';

/** One confirmed write. Append-only; read by people and by recovery, never rewritten. */
export interface JournalEntry {
  at: string;
  run: string;
  op: 'dashboard.create' | 'dashboard.update' | 'dashboard.delete' | 'alert.update' | 'alert.create' | 'alert.delete';
  /** metadata.name of the resource. */
  name: string;
  /** The id the service assigned or updated. */
  id: string;
  /** How the write was confirmed: its own response, or a list after an unknown outcome. */
  confirmedBy: 'response' | 'list-after-unknown-outcome';
  /** Tile ids the service assigned, by tile name (dashboard creates). */
  tiles?: Record<string, string>;
}

export interface Journal {
  append(entry: JournalEntry): void;
  close(): void;
}

/**
 * Opens the journal for appending. Each entry is one JSON line, written and flushed to disk before the
 * next write is sent, so a crash leaves at most a half line at the very end (readers skip it).
 */
export function openJournal(path: string): Journal {
  let fd: number;
  try {
    mkdirSync(dirname(path), { recursive: true });
    fd = openSync(path, 'a', 0o644);
  } catch (e) {
    throw new CliError(`cannot open the journal ${path}: ${(e as Error).message}`, { cause: e });
  }
  return {
    append(entry) {
      writeSync(fd, JSON.stringify(entry) + '\n');
      fdatasyncSync(fd);
    },
    close() {
      closeSync(fd);
    },
  };
}

/** Parses journal text, skipping a torn last line. */
export function parseJournal(text: string): JournalEntry[] {
  const out: JournalEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line) as JournalEntry);
    } catch {
      // a line cut by a crash: the write it describes was not confirmed
    }
  }
  return out;
}

/** A journal that keeps entries in memory (tests, dry runs). */
export function memoryJournal(): Journal & { entries: JournalEntry[] } {
  const entries: JournalEntry[] = [];
  return { entries, append: (e) => void entries.push(e), close: () => {} };
}
