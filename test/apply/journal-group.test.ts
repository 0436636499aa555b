/**
 * The journal's group commit (issue 15): entries confirmed in the same turn share one fdatasync, and an
 * append resolves only after the sync that covers its entry; close waits for a sync still due.
 */
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { openJournal, parseJournal, type JournalEntry } from '../../src/apply/journal.ts';
import { CliError } from '../../src/errors.ts';

const entry = (i: number): JournalEntry => ({
  at: '2026-11-24T12:00:00.000Z',
  run: 'r',
  op: 'dashboard.create',
  name: `d${i}`,
  id: `id${i}`,
  confirmedBy: 'response',
});

function withDir(f: (dir: string) => Promise<void>) {
  const dir = mkdtempSync(join(tmpdir(), 'steward-journal-'));
  return f(dir).finally(() => rmSync(dir, { recursive: true, force: true }));
}

test('entries of one turn share one sync; each append resolves after the sync that covers it', () =>
  withDir(async (dir) => {
    const path = join(dir, 'journal.jsonl');
    const synced: number[] = [];
    let covered = 0;
    const j = openJournal(path, { onSync: (n) => (synced.push(n), (covered += n)) });
    const resolvedAfter: number[] = [];
    const all = Array.from({ length: 10 }, (_, i) => Promise.resolve(j.append(entry(i))).then(() => resolvedAfter.push(covered)));
    await Promise.all(all);
    assert.equal(synced, [10]);
    // Every append resolved only once its sync had run.
    assert.ok(resolvedAfter.every((c) => c >= 10));
    // Entries written while a sync runs go to the next one (never to none).
    const a = j.append(entry(10));
    await new Promise((r) => setImmediate(r));
    const b = j.append(entry(11));
    await Promise.all([a, b]);
    assert.is(
      synced.reduce((x, y) => x + y, 0),
      12,
    );
    j.close();
    assert.equal(
      parseJournal(readFileSync(path, 'utf8')).map((e) => e.name),
      Array.from({ length: 12 }, (_, i) => `d${i}`),
    );
  }));

test("an entry is one line whatever the server's names hold (U+2028, C1), and reads back the same", () =>
  withDir(async (dir) => {
    const path = join(dir, 'journal.jsonl');
    const j = openJournal(path);
    const odd = { ...entry(0), name: 'a\u2028b\u2029c\u0085d\u009b31m', id: 'x\u202ey', tiles: { 't\u2028': 'i' } };
    await j.append(odd);
    await j.append(entry(1));
    j.close();
    const text = readFileSync(path, 'utf8');
    assert.not.match(text, /[\u0080-\u009f\u2028\u2029\u202e]/);
    // Python's splitlines() and other readers break lines at U+2028 and U+0085 too: none is there.
    assert.is(text.split(/\r\n|[\n\r\u2028\u2029\u0085]/).filter(Boolean).length, 2);
    assert.equal(parseJournal(text), [odd, entry(1)]);
  }));

test('close waits for a sync still due; an append after close is refused', () =>
  withDir(async (dir) => {
    const path = join(dir, 'journal.jsonl');
    let syncs = 0;
    const j = openJournal(path, { onSync: () => syncs++ });
    const pending = j.append(entry(1));
    j.close();
    await pending;
    assert.is(syncs, 1);
    assert.is(parseJournal(readFileSync(path, 'utf8')).length, 1);
    let refused = false;
    await Promise.resolve(j.append(entry(2))).catch(() => (refused = true));
    assert.ok(refused);
  }));

test('a journal that is a link (to the project file, to a fifo) or not a regular file is refused, nothing written through it', () =>
  withDir(async (dir) => {
    const project = join(dir, 'steward.yaml');
    writeFileSync(project, 'apiVersion: steward/v1\n');
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    const CASES: Array<[string, (path: string) => void, string]> = [
      ['a link to the project file', (path) => symlinkSync(project, path), 'it is a symbolic link'],
      ['a link to a fifo', (path) => symlinkSync(fifo, path), 'it is a symbolic link'],
      ['a fifo', (path) => execFileSync('mkfifo', [path]), 'it is not a regular file'],
      ['a folder', (path) => mkdirSync(path), 'it is not a regular file'],
    ];
    for (const [i, [name, plant, says]] of CASES.entries()) {
      const path = join(dir, `journal-${i}.jsonl`);
      plant(path);
      assert.throws(
        () => openJournal(path),
        (e: Error) => e instanceof CliError && e.message === `cannot open the journal ${path}: ${says}, which steward never makes; remove it`,
        name,
      );
    }
    assert.is(readFileSync(project, 'utf8'), 'apiVersion: steward/v1\n');
  }));

test('a journal that is a hard link (to the project file, to a file outside) is refused, nothing appended through it', () =>
  withDir(async (dir) => {
    // GIVEN a journal committed (or unpacked) as a second name of steward.yaml, or of a file elsewhere
    // WHEN the journal is opened THEN it is refused in one line: O_NOFOLLOW stops symbolic links only.
    const project = join(dir, 'steward.yaml');
    writeFileSync(project, 'apiVersion: steward/v1\n');
    const outside = mkdtempSync(join(dir, 'outside-'));
    const secret = join(outside, 'notes.txt');
    writeFileSync(secret, 'kept\n');
    for (const [i, target] of [project, secret].entries()) {
      const path = join(dir, `journal-${i}.jsonl`);
      linkSync(target, path);
      assert.throws(
        () => openJournal(path),
        (e: Error) =>
          e instanceof CliError &&
          e.message ===
            `cannot open the journal ${path}: it is a hard link (one of 2 names of one file), which steward never makes; remove it (steward starts a new journal)`,
        target,
      );
    }
    assert.is(readFileSync(project, 'utf8'), 'apiVersion: steward/v1\n');
    assert.is(readFileSync(secret, 'utf8'), 'kept\n');
    // A journal of its own (one name) is appended to as before.
    const own = join(dir, 'own.jsonl');
    const j = openJournal(own);
    await j.append(entry(1));
    j.close();
    assert.is(statSync(own).nlink, 1);
    assert.is(parseJournal(readFileSync(own, 'utf8')).length, 1);
  }));

test.run();
