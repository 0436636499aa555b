/**
 * `steward --help` and `steward <command> --help` are answered by the launcher from dist/help.json (saved by
 * the build) without loading the CLI: the texts must be exactly what the CLI prints, at both saved widths,
 * and any other width or command must still reach the CLI.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { main } from '../../src/cli/main.ts';
import { commands } from '../../src/cli/commands/index.ts';
import { stewardSpawned } from '../helpers/exec.ts';

const SAVED = JSON.parse(readFileSync(fileURLToPath(new URL('../../dist/help.json', import.meta.url)), 'utf8')) as Record<string, Record<string, string>>;
const NAMES = ['', ...commands.map((c) => c.command.split(' ')[0]!)];

async function live(argv: string[], columns: number): Promise<string> {
  let out = '';
  const code = await main(argv, {
    env: { PATH: process.env['PATH'] ?? '' },
    cwd: process.cwd(),
    stdout: { write: (t: string) => (out += t), isTTY: false, columns },
    stderr: { write: () => true },
    stdin: Readable.from([]),
  });
  assert.is(code, 0);
  return out;
}

test('the saved help is what the CLI prints, for every command at both widths', async () => {
  assert.equal(Object.keys(SAVED).sort(), ['100', '120']);
  for (const columns of [100, 120]) {
    assert.equal(Object.keys(SAVED[String(columns)]!).sort(), [...NAMES].sort());
    for (const name of NAMES) assert.is(SAVED[String(columns)]![name], await live(name ? [name, '--help'] : ['--help'], columns), `${name} at ${columns}`);
  }
});

test('the launcher prints it (spawned: a pipe is width 100), -h too; an unknown command still gets the CLI error', async () => {
  for (const [argv, name] of [
    [['--help'], ''],
    [['plan', '--help'], 'plan'],
    [['apply', '-h'], 'apply'],
  ] as const) {
    const r = await stewardSpawned([...argv]);
    assert.is(r.code, 0, r.stderr);
    assert.is(r.stdout, SAVED['100']![name]);
  }
  const unknown = await stewardSpawned(['nosuch', '--help']);
  assert.is(unknown.code, 1);
  assert.match(unknown.stderr, 'unknown command "nosuch"');
});

test('a launcher without the bundle (a checkout built by tsc alone) says to build, in one line, with no stack trace', () => {
  // GIVEN the launcher and package.json, and no dist/
  const dir = mkdtempSync(join(tmpdir(), 'steward-unbuilt-'));
  try {
    mkdirSync(join(dir, 'bin'));
    copyFileSync(fileURLToPath(new URL('../../bin/steward.js', import.meta.url)), join(dir, 'bin/steward.js'));
    copyFileSync(fileURLToPath(new URL('../../package.json', import.meta.url)), join(dir, 'package.json'));
    // WHEN a command is run
    const r = spawnSync(process.execPath, [join(dir, 'bin/steward.js'), 'validate'], { cwd: dir, encoding: 'utf8' });
    // THEN exit 1 and the way out
    assert.is(r.status, 1);
    assert.is(r.stderr, 'error: steward is not built (dist/bundle/ is missing or incomplete): run `npm run build` in its folder\n');
    assert.is(r.stdout, '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
