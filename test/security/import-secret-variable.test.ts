/**
 * import rewriting a drifted file in place, where another field of it reads a secret-named variable that
 * spec.resourceVariablePrefix allows: the `${VAR}` stays as written (red team, round 15). Before, the
 * rewrite read the file with the default rule (which refuses such a name) and compared its value with the
 * live dashboard as import reads it (the secret redacted): the field never matched, so `${APP_HOOK_TOKEN}`
 * was replaced with `[redacted]`, a file plan then blocked as drift, and one an update would send.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { ENV, project } from './project-files.ts';

const TOKEN = 'hooktok-1234567890abcdef';

const tile = (name: string, x: number, where: string) =>
  `    - { name: ${name}, x: ${x}, y: 0, w: 6, h: 3, series: [{ type: time, dataSource: events, aggFn: count, where: "${where}", whereLanguage: lucene, groupBy: [] }] }\n`;
const DASHBOARD = `apiVersion: steward/v1
kind: Dashboard
metadata: { name: d }
spec:
  name: D
  tiles:
${tile('A', 0, 'key:${APP_HOOK_TOKEN}')}${tile('B', 6, 'level:error')}`;

test('import rewrites the drifted field of a file and keeps a ${VAR} of a secret the prefix allows as written', async () => {
  const emu = await startEmulator({ seed: 1 });
  const p = tmpProject({
    'steward.yaml': project('  resourceVariablePrefix: APP_\n').replace('http://127.0.0.1:9', emu.url),
    'dashboards/d.yaml': DASHBOARD,
  });
  try {
    const env = { ...ENV(p.dir), ...(emu.env as Record<string, string>), APP_HOOK_TOKEN: TOKEN };
    const applied = await steward(['apply', '--auto-approve'], { cwd: p.dir, env });
    assert.is(applied.code, 0, applied.stdout + applied.stderr);
    // GIVEN the file drifted from live in tile B WHEN import rewrites it THEN only B's where changes.
    const file = join(p.dir, 'dashboards/d.yaml');
    writeFileSync(file, DASHBOARD.replace('level:error', 'level:warn'));
    const imported = await steward(['import', '--all'], { cwd: p.dir, env });
    assert.is(imported.code, 0, imported.stdout + imported.stderr);
    assert.match(imported.stdout, /1 field rewritten in place/);
    const text = readFileSync(file, 'utf8');
    assert.is(text, DASHBOARD);
    assert.not.match(text, /redacted|hooktok/);
    const plan = await steward(['plan', '--detailed-exitcode'], { cwd: p.dir, env });
    assert.is(plan.code, 0, plan.stdout + plan.stderr);
  } finally {
    await emu.close();
    p.cleanup();
  }
});

test.run();
