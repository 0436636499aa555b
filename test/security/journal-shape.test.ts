/**
 * A journal line that is valid JSON of another shape (`null`, `[]`, `{}`, `{"op":5}`, a string), written by
 * hand, a merge or another tool into a committed .steward/journal.jsonl: an apply that took over a stale
 * lock read the killed run's lines and failed with an internal error (`Cannot read properties of null`,
 * `e.op.endsWith is not a function`), and could not apply until the file was edited (red team, round 18).
 * Such a line is skipped as a torn one is: it records no write steward made.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseJournal } from '../../src/apply/journal.ts';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { DASH, ENV, project } from './project-files.ts';

const ODD = [
  'null',
  '[]',
  '{}',
  '{"op":5}',
  '"dashboard.send"',
  '7',
  '{"op":"dashboard.send","at":1,"name":"x"}',
  '{"op":"dashboard.create","at":"2020-01-01T00:00:00Z","name":null,"id":{}}',
  '{"op":"x.create","at":"2999-01-01T00:00:00Z","name":"D","id":"1","run":"r"}',
];

test('parseJournal skips lines of another shape', () => {
  const good = '{"at":"2026-01-01T00:00:00.000Z","run":"r","op":"dashboard.send","name":"d","title":"D"}';
  const lines = parseJournal([...ODD, good, ''].join('\n'));
  assert.equal(lines, [JSON.parse(good)]);
});

test('an apply taking over a stale lock reads a journal with lines of another shape: no internal error', async () => {
  const emu = await startEmulator({ seed: 1 });
  const since = new Date(Date.now() - 60_000).toISOString();
  const p = tmpProject({ 'steward.yaml': project('    timeoutSeconds: 2\n').replace('http://127.0.0.1:9', emu.url), 'dashboards/d.yaml': DASH });
  try {
    mkdirSync(join(p.dir, '.steward'), { recursive: true });
    const lock = { pid: 2 ** 22 + 17, host: hostname(), since, command: 'apply', nonce: 'n'.repeat(16) };
    writeFileSync(join(p.dir, '.steward/state.json.lock'), JSON.stringify(lock));
    writeFileSync(join(p.dir, '.steward/journal.jsonl'), ODD.join('\n') + '\n');
    const env = { ...ENV(p.dir), ...(emu.env as Record<string, string>) };
    const r = await steward(['apply', '--auto-approve'], { cwd: p.dir, env });
    assert.not.match(r.stderr, /internal error|TypeError|\n\s+at /i, r.stderr);
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stderr, /took over a stale lock/);
    assert.is((emu.state().dashboards as Array<{ name: string }>).filter((d) => d.name === 'D').length, 1);
    // the odd lines are kept: the journal is append-only
    assert.ok(readFileSync(join(p.dir, '.steward/journal.jsonl'), 'utf8').startsWith(ODD.join('\n') + '\n'));
  } finally {
    await emu.close();
    p.cleanup();
  }
});

test.run();
