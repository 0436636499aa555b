import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';

test('--target alert/X brings the dashboard X needs (and its creation); the plan says it is targeted', async () => {
  const x = await examplesWithEmulator();
  try {
    const p = await steward(['plan', '--target', 'alert/api-latency-high', '--format', 'json'], { cwd: x.dir, env: x.env });
    assert.is(p.code, 0, p.stderr);
    const plan = JSON.parse(p.stdout);
    assert.equal(
      plan.items.map((i: { kind: string; name: string; action: string }) => `${i.kind}/${i.name}:${i.action}`),
      ['Dashboard/api-latency:create', 'Alert/api-latency-high:update'],
    );
    const text = await steward(['plan', '--target', 'alert/api-latency-high'], { cwd: x.dir, env: x.env });
    assert.match(text.stdout, 'targeted: 2 of 7 items');
    const a = await steward(['apply', '--auto-approve', '--target', 'alert/api-latency-high'], { cwd: x.dir, env: x.env });
    assert.is(a.code, 0, a.stdout + a.stderr);
    assert.match(a.stdout, 'Apply complete: 1 created, 1 updated');
    const s = x.emu.state();
    assert.equal(
      s.dashboards.map((d: { name: string }) => d.name),
      ['Public API latency'],
    );
    const alert = s.alerts.find((al: { id: string }) => al.id === '65f5e4a3b9e77c001a000004') as unknown as Record<string, unknown>;
    assert.is(alert['dashboard'], s.dashboards[0]!.id, 'bound to the dashboard created with it');
  } finally {
    await x.cleanup();
  }
});

test('apply exits 3 when it did everything it could but blocked items remain (as plan --detailed-exitcode does)', async () => {
  const x = await examplesWithEmulator();
  try {
    // Two live dashboards with one file's name: that file is ambiguous (blocked); the others apply.
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${x.emu.url}/api/v2/dashboards`, {
        method: 'POST',
        headers: { authorization: 'Bearer dev-token', 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'JVM runtime' }),
      });
      assert.is(res.status, 200);
    }
    const a = await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env });
    assert.is(a.code, 3, a.stdout + a.stderr);
    assert.match(a.stdout, 'blocked (not applied)');
    const again = await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env });
    assert.is(again.code, 3, 'nothing left to do but the blocked items: still 3');
    assert.match(again.stdout, 'Nothing to apply.');
  } finally {
    await x.cleanup();
  }
});

test.run();
