import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { stewardSpawned as steward } from '../helpers/exec.ts';

// The launcher itself: these run the built binary in a child process, as a user's shell does.

test('--version prints the package version', async () => {
  const r = await steward(['--version']);
  assert.is(r.code, 0);
  assert.match(r.stdout, /^\d+\.\d+\.\d+\n$/);
});

test('--help lists the usage and exit codes', async () => {
  const r = await steward(['--help']);
  assert.is(r.code, 0);
  assert.match(r.stdout, /steward <command>/);
  assert.match(r.stdout, /Exit codes/);
});

test('an unknown command is a usage error with exit 1 and no stack trace', async () => {
  const r = await steward(['frobnicate']);
  assert.is(r.code, 1);
  assert.not.match(r.stderr, /\n\s+at /);
});

test.run();
