import { closeSync, fdatasyncSync, fstatSync, mkdirSync, openSync, readSync, writeSync } from 'node:fs';
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
    repairTornTail(path, fd);
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

/**
 * A crash mid-append leaves a last line without its newline; the next entry appended to it would be glued
 * to the torn half and lost with it. End that line first (readers skip it as unparseable).
 */
function repairTornTail(path: string, appendFd: number): void {
  const size = fstatSync(appendFd).size;
  if (size === 0) return;
  const last = Buffer.alloc(1);
  const rfd = openSync(path, 'r');
  try {
    readSync(rfd, last, 0, 1, size - 1);
  } finally {
    closeSync(rfd);
  }
  if (last[0] !== 0x0a) {
    writeSync(appendFd, '\n');
    fdatasyncSync(appendFd);
  }
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
