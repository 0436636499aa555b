/**
 * Every ending prints a summary and keeps every record: Ctrl-C (SIGINT to a spawned steward) during the
 * creates and during the alert updates, and Ctrl-C or end of input at the `yes` prompt. Needs dist/.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { confirmedEntries, type JournalEntry, parseJournal } from '../../src/apply/journal.ts';
import { main } from '../../src/cli/main.ts';
import { BIN, steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';

/** Starts apply, sends SIGINT once the journal has `after` entries; resolves with its output. */
function applyAndInterrupt(dir: string, env: Record<string, string>, after: number, signal: NodeJS.Signals = 'SIGINT') {
  const journalPath = join(dir, '.steward/journal.jsonl');
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'apply', '--auto-approve', '--concurrency', '1'], {
      cwd: dir,
      env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    let sent = false;
    const timer = setInterval(() => {
      if (!sent && existsSync(journalPath) && parseJournal(readFileSync(journalPath, 'utf8')).length >= after) {
        sent = true;
        child.kill(signal);
      }
    }, 5);
    const kill = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(timer);
      clearTimeout(kill);
      resolve({ code, stdout, stderr });
    });
  });
}

/** State and journal agree with the server: every journalled create exists, every managed dashboard was journalled, every journalled alert update is recorded. */
function assertAgree(dir: string, emu: { state(): { dashboards: Array<{ id: string; name: string; tags?: string[] }> } }) {
  const journal = parseJournal(readFileSync(join(dir, '.steward/journal.jsonl'), 'utf8'));
  const created = journal
    .filter((j): j is JournalEntry => j.op === 'dashboard.create')
    .map((j) => j.id)
    .sort();
  const live = emu
    .state()
    .dashboards.filter((d) => (d.tags ?? []).includes('managed-by:steward'))
    .map((d) => d.id)
    .sort();
  assert.equal(created, live, 'the journal holds exactly the dashboards the server has');
  const statePath = join(dir, '.steward/state.json');
  const recorded = existsSync(statePath) ? Object.keys(JSON.parse(readFileSync(statePath, 'utf8')).alerts).sort() : [];
  const updated = [...new Set(journal.filter((j): j is JournalEntry => j.op === 'alert.update').map((j) => j.id))].sort();
  assert.equal(recorded, updated, 'the state records every alert update the journal confirms');
}

for (const [stage, after] of [
  ['during the creates', 1],
  ['during the alert updates', 4],
] as const) {
  test(`Ctrl-C ${stage}: summary, exit 130, state and journal agree with the server, the next apply finishes`, async () => {
    const x = await examplesWithEmulator({ latencyMs: 120 });
    try {
      const r = await applyAndInterrupt(x.dir, x.env, after);
      assert.is(r.code, 130, r.stdout + r.stderr);
      assert.match(r.stdout, /Apply interrupted: \d+ created, \d+ updated, .*\d+ not done/);
      assert.match(r.stdout, 'run `steward apply` again to finish');
      assertAgree(x.dir, x.emu);
      const again = await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env });
      assert.is(again.code, 0, again.stdout + again.stderr);
      assert.equal(
        x.emu
          .state()
          .dashboards.map((d: { name: string }) => d.name)
          .sort(),
        ['Checkout overview', 'JVM runtime', 'Public API latency'],
      );
      assertAgree(x.dir, x.emu);
    } finally {
      await x.cleanup();
    }
  });
}

test('SIGTERM ends the same way', async () => {
  const x = await examplesWithEmulator({ latencyMs: 120 });
  try {
    const r = await applyAndInterrupt(x.dir, x.env, 2, 'SIGTERM');
    assert.is(r.code, 130, r.stdout + r.stderr);
    assert.match(r.stdout, 'Apply interrupted');
    assertAgree(x.dir, x.emu);
  } finally {
    await x.cleanup();
  }
});

test('Ctrl-C in a terminal: the progress line is cleared before the summary, nothing glued to it', async () => {
  let fire: (() => void) | undefined;
  let posts = 0;
  const x = await examplesWithEmulator({
    latencyMs: 100,
    onRequest: (e) => {
      if (e.method === 'POST' && ++posts === 1) setImmediate(() => fire?.());
    },
  });
  try {
    let stdout = '';
    let stderr = '';
    const code = await main(['apply', '--auto-approve', '--concurrency', '1'], {
      env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', ...x.env },
      cwd: x.dir,
      stdout: { write: (t: string) => (stdout += t), isTTY: true, columns: 100 },
      stderr: { write: (t: string) => (stderr += t) },
      stdin: Object.assign(new Readable({ read() {} }), { isTTY: false }),
      onSignal: (h) => {
        fire = h;
        return () => (fire = undefined);
      },
    });
    assert.is(code, 130, stdout + stderr);
    assert.match(stdout, '\r\u001b[KApply interrupted: ');
    assert.match(stdout, /\[\d+\/\d+\] creating dashboard/, 'the progress line was shown');
    assert.is(stderr, '', 'no error line');
    assertAgree(x.dir, x.emu);
  } finally {
    await x.cleanup();
  }
});

/** A terminal whose input ends (Ctrl-D) or is interrupted at the prompt. */
async function atPrompt(dir: string, env: Record<string, string>, how: 'eof' | 'signal') {
  let stdout = '';
  let stderr = '';
  let fire: (() => void) | undefined;
  const stdin = Object.assign(new Readable({ read() {} }), { isTTY: true });
  if (how === 'eof') stdin.push(null);
  const code = await main(['apply'], {
    env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', ...env },
    cwd: dir,
    stdout: { write: (t: string) => (stdout += t), isTTY: true, columns: 100 },
    stderr: {
      write: (t: string) => {
        stderr += t;
        // The question is written: the person presses Ctrl-C.
        if (how === 'signal' && t.includes('Only "yes"')) setImmediate(() => fire?.());
      },
    },
    stdin,
    onSignal: (h) => {
      fire = h;
      return () => (fire = undefined);
    },
  });
  return { code, stdout, stderr };
}

test('Ctrl-C or end of input at the yes prompt: "apply cancelled, nothing was changed", exit 130, no write', async () => {
  const x = await examplesWithEmulator();
  try {
    for (const how of ['eof', 'signal'] as const) {
      x.emu.clearRequests();
      const r = await atPrompt(x.dir, x.env, how);
      assert.is(r.code, 130, `${how}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, 'apply cancelled, nothing was changed');
      assert.not.match(r.stderr, 'bug');
      assert.equal(
        x.emu.requests().filter((q) => q.method !== 'GET'),
        [],
        `${how}: nothing written`,
      );
    }
  } finally {
    await x.cleanup();
  }
});

test('a torn last journal line is ended before the next entry, so no entry is lost', async () => {
  const x = await examplesWithEmulator();
  try {
    mkdirSync(join(x.dir, '.steward'), { recursive: true });
    const journalPath = join(x.dir, '.steward/journal.jsonl');
    writeFileSync(journalPath, '{"at":"2026-11-20T10:00:00.000Z","run":"old","op":"alert.update","name":"x","id":"y","confirmedBy":"response"}\n');
    appendFileSync(journalPath, '{"at":"2026-11-20T10:00:01.000Z","run":"old","op":"dashb');
    const r = await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env });
    assert.is(r.code, 0, r.stdout + r.stderr);
    const entries = confirmedEntries(parseJournal(readFileSync(journalPath, 'utf8')));
    assert.is(entries.length, 1 + 7, 'the old entry and all seven of this run');
  } finally {
    await x.cleanup();
  }
});

test('a state file that cannot be written is refused before the first write', async () => {
  const x = await examplesWithEmulator();
  try {
    // A folder where the state file should be: it can be neither written nor replaced.
    mkdirSync(join(x.dir, '.steward/state.json/inside'), { recursive: true });
    x.emu.clearRequests();
    const r = await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env });
    assert.is(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, 'state');
    assert.equal(
      x.emu.requests().filter((q) => q.method !== 'GET'),
      [],
    );
  } finally {
    await x.cleanup();
  }
});

test.run();
