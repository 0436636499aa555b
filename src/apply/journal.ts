import { closeSync, constants, fdatasync, fdatasyncSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { CliError } from '../errors.ts';
import { jsonText } from '../render/escape.ts';
import { makeDirs } from '../shared/files.ts';
import { redactedForJson } from '../shared/redact-strings.ts';

/** One confirmed write. Append-only and never rewritten: the record a person (or a script) reads after a crash. Steward itself recovers from the live lists and the state file, not from the journal. */
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

/**
 * A create about to be sent (`dashboard.send` / `alert.send`, before its first POST): not a confirmed write.
 * A run killed before it learned the create's outcome (its answer lost, the settle window under way) left no
 * other trace of a copy it may have made; the next apply that takes over its lock reads these (leftover.ts).
 * `title` is the name the service shows (the dashboard's or alert's `name`).
 */
export interface SendEntry {
  at: string;
  run: string;
  op: 'dashboard.send' | 'alert.send';
  name: string;
  title: string;
}

/** A line of the journal. */
export type JournalLine = JournalEntry | SendEntry;

export interface Journal {
  /**
   * Writes a send entry before its create goes out, without waiting for a sync: what it guards against is
   * the process being killed, and the kernel keeps a written line through that (a crash of the machine
   * loses it, as it loses the create's own answer). Optional: a journal without it records no sends.
   */
  note?(entry: SendEntry): void;
  /**
   * Records a confirmed write. A file journal resolves once the entry is on disk (its fdatasync done); a
   * write may be reported as recorded only after that. Rejects when it cannot be written or synced.
   */
  append(entry: JournalEntry): void | Promise<void>;
  close(): void;
}

/**
 * Opens the journal for appending. Each entry is one JSON line, written at once (lines keep the order of
 * the confirmations) and synced by group commit: the entries written in the same turn of the event loop, and
 * those written while a sync is running, share one fdatasync, which runs off the main thread (issue 15: one
 * fdatasync per write cost 3-4 s of a 9 s apply of 1,000 creates). `append` resolves after the sync that
 * covers its entry, so nothing is reported recorded before it is on disk. A crash leaves at most a half line
 * at the very end (readers skip it) and loses only entries whose `append` had not resolved.
 */
export function openJournal(path: string, opts: { onSync?: (entries: number) => void; redact?: (s: string) => string } = {}): Journal {
  let fd: number;
  try {
    makeDirs(dirname(path));
    // Not through a link, never blocking, a regular file only: a committed journal linking to steward.yaml or
    // a fifo would have apply append to the project file or wait forever.
    fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0), 0o644);
    const st = fstatSync(fd);
    // Nor a hard link: O_NOFOLLOW stops symbolic links only, and a journal committed (or unpacked from a
    // tarball) as a second name of steward.yaml or of a file outside the project had every entry appended to
    // that file. Files steward replaces by a rename need no such check: the rename replaces the name only.
    if (!st.isFile() || st.nlink > 1) {
      closeSync(fd);
      throw Object.assign(new Error('not a regular file'), { code: st.isFile() ? 'EHARDLINK' : 'ENOTREG', nlink: st.nlink });
    }
    repairTornTail(path, fd);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? '';
    const why = !['ELOOP', 'ENOTREG', 'ENXIO', 'EISDIR', 'EHARDLINK'].includes(code)
      ? (e as Error).message
      : code === 'EHARDLINK'
        ? `it is a hard link (one of ${(e as { nlink: number }).nlink} names of one file), which steward never makes; remove it (steward starts a new journal)`
        : `it is ${code === 'ELOOP' ? 'a symbolic link' : 'not a regular file'}, which steward never makes; remove it`;
    throw new CliError(`cannot open the journal ${path}: ${why}`, { cause: e });
  }
  // One line whatever the server's names hold: U+2028 is a line break to some readers (Python's splitlines).
  // No secret's value (a tile named with a prefixed variable): CI keeps the journal as an artifact.
  const line = (entry: JournalLine) => jsonText(opts.redact ? redactedForJson(entry, opts.redact) : entry, 0) + '\n';
  type Waiter = { resolve: () => void; reject: (e: unknown) => void };
  /** Entries written and not yet covered by a sync that has started. */
  let waiting: Waiter[] = [];
  let syncing = false;
  let scheduled = false;
  let closing = false;
  let closed = false;
  const closeNow = () => {
    if (closed) return;
    closed = true;
    closeSync(fd);
  };
  const sync = () => {
    scheduled = false;
    if (syncing || waiting.length === 0) {
      if (!syncing && closing) closeNow();
      return;
    }
    syncing = true;
    const batch = waiting;
    waiting = [];
    fdatasync(fd, (err) => {
      syncing = false;
      opts.onSync?.(batch.length);
      for (const w of batch)
        if (err) w.reject(err);
        else w.resolve();
      // Entries written while this sync ran: the next one covers them.
      sync();
    });
  };
  return {
    note(entry) {
      if (closed || closing) return;
      // The next sync covers it too; nothing waits for it.
      writeSync(fd, line(entry));
    },
    append(entry) {
      if (closed || closing) return Promise.reject(new Error('the journal is closed'));
      try {
        writeSync(fd, line(entry));
      } catch (e) {
        return Promise.reject(e);
      }
      return new Promise<void>((resolve, reject) => {
        waiting.push({ resolve, reject });
        if (!scheduled && !syncing) {
          scheduled = true;
          // The end of this turn: every entry confirmed in it shares the sync.
          setImmediate(sync);
        }
      });
    },
    close() {
      // A sync still running or due (an append nobody waited for) ends first; then the file is closed.
      closing = true;
      if (!syncing && waiting.length === 0) closeNow();
      else if (!syncing && !scheduled) sync();
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
  const rfd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
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

const WRITE_OPS: ReadonlySet<string> = new Set<JournalEntry['op']>([
  'dashboard.create',
  'dashboard.update',
  'dashboard.delete',
  'alert.update',
  'alert.create',
  'alert.delete',
]);
const SEND_OPS: ReadonlySet<string> = new Set<SendEntry['op']>(['dashboard.send', 'alert.send']);

/**
 * Whether a parsed line has the shape steward writes. The journal is committed text: a line of another shape
 * (`null`, `[]`, `{"op":5}`, by hand, a merge or another tool) records no write steward made, and read as one
 * it failed the next apply with an internal error.
 */
function isJournalLine(v: unknown): v is JournalLine {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const o = v as Record<string, unknown>;
  if (typeof o['at'] !== 'string' || typeof o['run'] !== 'string' || typeof o['op'] !== 'string' || typeof o['name'] !== 'string') return false;
  if (SEND_OPS.has(o['op'])) return typeof o['title'] === 'string';
  return WRITE_OPS.has(o['op']) && typeof o['id'] === 'string';
}

/** Parses journal text, skipping a torn line and a line of another shape (isJournalLine). */
export function parseJournal(text: string): JournalLine[] {
  const out: JournalLine[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      // a line cut by a crash: the write it describes was not confirmed
      continue;
    }
    if (isJournalLine(parsed)) out.push(parsed);
  }
  return out;
}

/** The confirmed writes among a journal's lines (not the sends before creates). */
export function confirmedEntries(lines: readonly JournalLine[]): JournalEntry[] {
  return lines.filter((e): e is JournalEntry => !e.op.endsWith('.send'));
}

/** A journal that keeps entries in memory (tests, dry runs). */
export function memoryJournal(): Journal & { entries: JournalEntry[]; sends: SendEntry[] } {
  const entries: JournalEntry[] = [];
  const sends: SendEntry[] = [];
  return { entries, sends, note: (e) => void sends.push(e), append: (e) => void entries.push(e), close: () => {} };
}
