/**
 * A state file whose alert record nests 20,000 levels deep (120 KB: `{"a":{"a":…}}` in a record's `sent`,
 * by hand or a hostile pull request): every plan compared it with the files and overflowed the stack, an
 * internal error (red team, round 18). readState refuses it as not a steward state file, naming the file.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readState } from '../../src/apply/state.ts';
import { CliError } from '../../src/errors.ts';

const stateWith = (channel: string) =>
  `{"formatVersion":1,"alerts":{"65f5e4a3b9e77c001a000001":{"sent":{"name":"A","channel":${channel}},"appliedAt":"2026-01-01T00:00:00.000Z"}}}`;

test('a state file nested 20,000 levels deep is refused with a message naming it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'steward-deep-state-'));
  try {
    const path = join(dir, 'state.json');
    writeFileSync(path, stateWith('{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000)));
    let caught: unknown;
    try {
      readState(path);
    } catch (e) {
      caught = e;
    }
    assert.ok(caught instanceof CliError, `not refused: ${String(caught)}`);
    assert.match((caught as Error).message, /^state file .*state\.json is not a steward state file: it nests deeper than \d+ levels/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a state file as deep as an alert steward sends is read', () => {
  const dir = mkdtempSync(join(tmpdir(), 'steward-deep-state-'));
  try {
    const path = join(dir, 'state.json');
    writeFileSync(path, stateWith('{"a":'.repeat(20) + '1' + '}'.repeat(20)));
    assert.is(Object.keys(readState(path).alerts).length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.run();
