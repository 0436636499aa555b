import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = fileURLToPath(new URL('../../', import.meta.url));

test('demo --examples that is not a project folder: a clear error, exit 1, no working copy left behind', async () => {
  // GIVEN a path that does not exist, and a folder with no steward.yaml WHEN demo runs on it THEN each is named
  // (before: "internal error: ENOENT ... this is a bug in steward", and an empty steward-demo-* folder left)
  const { steward } = await import('../helpers/exec.ts');
  const { readdirSync, mkdirSync } = await import('node:fs');
  const cwd = mkdtempSync(join(tmpdir(), 'steward-demo-test-'));
  // the child's own temp folder, so what it leaves there is seen (and nothing else's)
  const tmp = join(cwd, 'tmp');
  mkdirSync(tmp);
  try {
    const env = { TMPDIR: tmp };
    const missing = await steward(['demo', '--examples', 'nope'], { cwd, env, spawn: true });
    assert.is(missing.code, 1);
    assert.is(missing.stderr, 'error: --examples nope: no such folder\n');
    const empty = await steward(['demo', '--examples', '.'], { cwd, env, spawn: true });
    assert.is(empty.code, 1);
    assert.is(empty.stderr, 'error: --examples .: no steward.yaml in that folder; give a project folder, like examples/\n');
    assert.equal(readdirSync(tmp), []);
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

test('npm start runs the demo as a user would: exit 0, every step, nothing needed from the environment', async () => {
  const cwd = mkdtempSync(join(tmpdir(), 'steward-demo-test-'));
  try {
    const r = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
      // npm start is `node bin/steward.js demo`; run it from another folder so reports land there.
      // A user's STEWARD_ALLOWED_HOSTS, set for their real service, does not stop the demo's own emulators.
      const env = { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', STEWARD_ALLOWED_HOSTS: 'api.hyperdx.io' };
      const child = spawn(process.execPath, [join(root, 'bin/steward.js'), 'demo'], { cwd, env });
      let out = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (out += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, out }));
    });
    assert.is(r.code, 0, r.out);
    for (const step of ['steward validate', 'steward plan', 'steward apply --auto-approve', '(again: now nothing to do)', 'steward report'])
      assert.match(r.out, step);
    assert.match(r.out, 'pipe "sessions-from-kafka" is not on the service');
    assert.match(r.out, 'The drift report is in');
    assert.match(r.out, 'valid: 8 files, 8 resources');
    assert.match(r.out, 'steward plan: 3 to create, 4 to update, 0 blocked, 0 unchanged');
    assert.match(r.out, 'Apply complete: 3 created, 4 updated');
    assert.match(r.out, 'steward plan: 0 to create, 0 to update, 0 blocked, 7 unchanged');
    // Part 2: the hyperdx profile, where an edit in the UI is an update and a deleted file a delete (--prune).
    assert.match(r.out, 'Part 2: the hyperdx profile');
    // examples/hyperdx: 2 dashboards and 2 alerts by hand, 3 dashboards and 3 alerts stamped from templates/.
    assert.match(r.out, 'Apply complete: 10 created, 0 updated, 0 unchanged');
    assert.match(r.out, 'steward plan: 0 to create, 1 to update, 1 to delete, 0 blocked, 8 unchanged');
    assert.match(r.out, 'Apply complete: 0 created, 1 updated, 1 deleted, 8 unchanged, 0 failed, 0 skipped.');
    assert.match(r.out, 'steward plan: 0 to create, 0 to update, 0 blocked, 9 unchanged');
    assert.match(r.out, 'Done.');
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
});

test.run();
