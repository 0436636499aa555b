/**
 * A journal past ~512 MiB (it only grows; or padded by hand, or a sparse file in a hostile pull request):
 * an apply that took over a stale lock read all of it into one string, which Node cannot make, and failed
 * with an internal error (`Cannot create a string longer than 0x1fffffe8 characters`) on every run until the
 * file was moved (red team, round 18). Only the journal's end is read now: the killed run's lines are there.
 */
import { mkdirSync, mkdtempSync, openSync, closeSync, ftruncateSync, rmSync, writeFileSync, appendFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseJournal } from '../../src/apply/journal.ts';
import { readJournalText } from '../../src/apply/leftover.ts';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { DASH, ENV, project } from './project-files.ts';

const line = (name: string) => JSON.stringify({ at: '2026-01-01T00:00:00.000Z', run: 'r', op: 'dashboard.send', name, title: name });

test('readJournalText reads the last whole lines of a journal longer than its bound', () => {
  const dir = mkdtempSync(join(tmpdir(), 'steward-journal-tail-'));
  try {
    const path = join(dir, 'journal.jsonl');
    writeFileSync(path, `${line('first')}\n${line('second')}\n${line('third')}\n`);
    assert.equal(
      parseJournal(readJournalText(path, line('third').length + 10)).map((e) => e.name),
      ['third'],
    );
    assert.equal(
      parseJournal(readJournalText(path)).map((e) => e.name),
      ['first', 'second', 'third'],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an apply taking over a stale lock with a 513 MiB journal: no internal error', async () => {
  const emu = await startEmulator({ seed: 1 });
  const p = tmpProject({ 'steward.yaml': project('    timeoutSeconds: 2\n').replace('http://127.0.0.1:9', emu.url), 'dashboards/d.yaml': DASH });
  try {
    mkdirSync(join(p.dir, '.steward'), { recursive: true });
    const since = new Date(Date.now() - 60_000).toISOString();
    writeFileSync(
      join(p.dir, '.steward/state.json.lock'),
      JSON.stringify({ pid: 2 ** 22 + 19, host: hostname(), since, command: 'apply', nonce: 'n'.repeat(16) }),
    );
    const journal = join(p.dir, '.steward/journal.jsonl');
    const fd = openSync(journal, 'w');
    ftruncateSync(fd, 513 * 1024 * 1024); // sparse: no disk used
    closeSync(fd);
    appendFileSync(journal, '\n');
    const env = { ...ENV(p.dir), ...(emu.env as Record<string, string>) };
    const r = await steward(['apply', '--auto-approve'], { cwd: p.dir, env });
    assert.not.match(r.stderr, /internal error|longer than|\n\s+at /i, r.stderr);
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stderr, /took over a stale lock/);
    assert.is((emu.state().dashboards as Array<{ name: string }>).filter((d) => d.name === 'D').length, 1);
  } finally {
    await emu.close();
    p.cleanup();
  }
});

test.run();
