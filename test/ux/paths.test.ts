import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { EXAMPLES } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';

// Issue 14, point 4: `steward plan examples` failed where `steward validate examples` worked (paths meant a
// project in one, filters in the other).

test('a folder holding steward.yaml means that project for plan as for validate; other paths still narrow', async () => {
  const p = tmpProject({});
  const emu = await startEmulator({ seed: 1 });
  try {
    cpSync(EXAMPLES, join(p.dir, 'examples'), { recursive: true });
    const env = { ...(emu.env as Record<string, string>), STEWARD_NO_CACHE: '1' };
    const v = await steward(['validate', 'examples'], { cwd: p.dir, env });
    assert.is(v.code, 0, v.stdout + v.stderr);
    const plan = await steward(['plan', 'examples', '--detailed-exitcode'], { cwd: p.dir, env });
    assert.is(plan.code, 2, plan.stdout + plan.stderr);
    assert.match(plan.stdout, '3 to create, 4 to update');
    // inside the project, a folder of it narrows the plan
    const narrow = await steward(['plan', 'dashboards/jvm-runtime.yaml', '--format', 'json'], { cwd: join(p.dir, 'examples'), env });
    assert.is(narrow.code, 0, narrow.stderr);
    assert.equal(
      JSON.parse(narrow.stdout).items.map((i: { name: string }) => i.name),
      ['jvm-runtime'],
    );
  } finally {
    await emu.close();
    p.cleanup();
  }
});

test('a folder given on the command line that holds no YAML file is an error, not "valid: 0 files"', async () => {
  // GIVEN a folder named like a file (dashboards/d.yaml/) and an empty folder WHEN validated by path THEN each
  // is named: before, validate printed "valid: 0 files" and exited 0, so a mistyped path passed CI
  const dash = 'apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: d }\nspec: { name: D }\n';
  const p = tmpProject({ 'steward.yaml': 'apiVersion: steward/v1\nkind: Project\nspec: {}\n', 'dashboards/ok.yaml': dash, 'dashboards/d.yaml/notes.txt': 'x' });
  try {
    const r = await steward(['validate', 'dashboards/d.yaml'], { cwd: p.dir });
    assert.is(r.code, 1, r.stdout);
    assert.is(r.stderr, 'error: dashboards/d.yaml: a folder with no .yaml or .yml file in it\n');
    const json = await steward(['validate', 'dashboards/d.yaml', '--format', 'json'], { cwd: p.dir });
    assert.is(json.code, 1);
    // a folder with YAML in it, beside it, is still fine
    const ok = await steward(['validate', 'dashboards/ok.yaml', 'dashboards'], { cwd: p.dir });
    assert.is(ok.code, 0, ok.stdout + ok.stderr);
  } finally {
    p.cleanup();
  }
});

test('validate does not warn about default patterns the user never wrote, only about their own', async () => {
  const dash = 'apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: d }\nspec: { name: D }\n';
  const p = tmpProject({ 'steward.yaml': 'apiVersion: steward/v1\nkind: Project\nmetadata: { name: p }\nspec: {}\n', 'dashboards/d.yaml': dash });
  const q = tmpProject({
    'steward.yaml': 'apiVersion: steward/v1\nkind: Project\nspec:\n  resources: [dashboards/*.yaml, alerts/*.yaml]\n',
    'dashboards/d.yaml': dash,
  });
  try {
    const v = await steward(['validate', '--no-cache'], { cwd: p.dir });
    assert.is(v.stdout, '✓ valid: 2 files, 1 resource (1 dashboard)\n');
    const w = await steward(['validate', '--no-cache'], { cwd: q.dir });
    assert.match(w.stdout, 'pattern "alerts/*.yaml" matches no file');
  } finally {
    p.cleanup();
    q.cleanup();
  }
});

test('an unquoted ${VAR} inside { }: one error with its hint, not one per token after it', async () => {
  const p = tmpProject({
    'steward.yaml': 'apiVersion: steward/v1\nkind: Project\nspec:\n  resources: [dashboards/*.yaml]\n',
    'dashboards/d.yaml':
      'apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: d }\nspec:\n  name: D\n  tiles:\n    - { name: t, x: 0, y: 0, w: ${W}, h: 3 }\n',
  });
  try {
    const v = await steward(['validate', '--no-cache'], { cwd: p.dir, env: { W: '6' } });
    assert.is(v.code, 1);
    const errors = v.stdout.split('\n').filter((l) => l.includes('error:'));
    assert.is(errors.length, 1, v.stdout);
    assert.match(errors[0]!, /^dashboards\/d\.yaml:7:\d+ .*write "\$\{VAR\}" in quotes/);
  } finally {
    p.cleanup();
  }
});

test.run();
