import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';

// Issue 14, point 4: deleting an applied alert's file was silent (the alert stays live, its record stays,
// nothing said it left management).

test('plan and apply say when an applied alert is in no file any more; stdout stays the plan', async () => {
  const x = await examplesWithEmulator();
  try {
    assert.is((await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env })).code, 0);
    rmSync(join(x.dir, 'alerts/jvm.yaml'));
    const r = await steward(['plan', '--format', 'json'], { cwd: x.dir, env: x.env });
    assert.is(r.code, 0, r.stderr);
    JSON.parse(r.stdout);
    assert.match(r.stderr, /notice: 2 alerts steward applied are in no file any more; they stay live as last sent/);
    assert.match(r.stderr, /JVM heap/i);
    const a = await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env });
    assert.match(a.stderr, 'notice: 2 alerts');
    // a narrowed plan says nothing about what it was not asked about
    const narrow = await steward(['plan', '--target', 'dashboard/jvm-runtime'], { cwd: x.dir, env: x.env });
    assert.not.match(narrow.stderr, 'notice');
  } finally {
    await x.cleanup();
  }
});

test.run();
