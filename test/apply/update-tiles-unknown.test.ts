/**
 * A dashboard update (PUT) answered 2xx with a body steward cannot read was applied; apply reads the tiles'
 * ids back from the list. When that list fails, the update is still "updated" (never "failed": the server
 * said 2xx), and an alert that needs a tile id from it is not bound to a guess: it is skipped, saying why,
 * and the run exits 1; the next apply binds it. Over real HTTP: the emulator (hyperdx) behind a proxy on
 * 127.0.0.1 that makes the PUT's answer unreadable and refuses the lists after it.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { copyExample } from '../helpers/project.ts';
import { startProxy } from '../helpers/proxy.ts';
import { tmpProject } from '../helpers/tmp.ts';

/** A tile added to checkout-overview, and an alert on it (its tile id is known only after the update). */
const REFUNDS_TILE = `    - name: Refunds
      x: 0
      y: 7
      w: 8
      h: 3
      config:
        displayType: line
        source: Logs
        select: [{ aggFn: count, where: "ServiceName:checkout AND Body:refund", whereLanguage: lucene }]
`;
const REFUNDS_ALERT = `---
apiVersion: steward/v1
kind: Alert
metadata:
  name: refund-spike
spec:
  name: Refund spike (HyperDX)
  threshold: 20
  thresholdType: above
  interval: 5m
  source: tile
  tile: { dashboard: checkout-overview, name: Refunds }
  channels:
    - { type: webhook, webhook: ops-pager }
`;

interface Result {
  ok: boolean;
  updated: Array<{ name: string; id: string }>;
  failed: unknown[];
  skipped: Array<{ kind: string; name: string; reason: string }>;
  unknown?: unknown[];
  created: Array<{ name: string }>;
}

const cases = [
  { list: 'refused' as const, alert: true, why: 'forbidden for now' },
  { list: 'without it' as const, alert: true, why: 'does not hold it' },
  // Nothing needs its tile ids: every item of the plan was done, exit 0.
  { list: 'refused' as const, alert: false, why: '' },
];

for (const c of cases) {
  test(`a dashboard PUT answered 2xx unreadably, the list after it ${c.list === 'refused' ? 'refused' : 'does not hold it'}: "updated"${c.alert ? ", its new tile's alert skipped (not bound to a guess); the next apply binds it" : ', exit 0'}`, async () => {
    const p = tmpProject({});
    copyExample(p.dir, 'hyperdx');
    const emu = await startEmulator({ api: 'hyperdx', seed: 13 });
    let put = false;
    let lists = 0;
    const proxy = await startProxy(emu.url, {
      intercept: (req, path) => {
        // Once the PUT was made, every list of dashboards is refused (403: not tried again).
        if (c.list !== 'refused' || !put || req.method !== 'GET' || !/\/dashboards$/.test(path)) return undefined;
        lists++;
        return { status: 403, body: JSON.stringify({ message: 'forbidden for now' }) };
      },
      rewrite: (req, path, status, text) => {
        if (c.list === 'without it' && put && req.method === 'GET' && /\/dashboards$/.test(path)) {
          lists++;
          const listed = JSON.parse(text) as { data: Array<{ name: string }> };
          return JSON.stringify({ ...listed, data: listed.data.filter((d) => !d.name.startsWith('Checkout overview')) });
        }
        if (req.method !== 'PUT' || !/\/dashboards\/[^/]+$/.test(path) || status !== 200) return text;
        put = true;
        return { status: 200, headers: { 'content-type': 'application/json' }, body: '{"data": {"id": ' };
      },
    });
    try {
      const env = { ...emu.env };
      const first = await steward(['apply', '--auto-approve'], { cwd: p.dir, env });
      assert.is(first.code, 0, first.stdout + first.stderr);
      const dash = join(p.dir, 'dashboards/checkout.yaml');
      writeFileSync(dash, readFileSync(dash, 'utf8') + REFUNDS_TILE);
      if (c.alert) {
        const alerts = join(p.dir, 'alerts/checkout.yaml');
        writeFileSync(alerts, readFileSync(alerts, 'utf8') + REFUNDS_ALERT);
      }

      const r = await steward(['apply', '--auto-approve', '--format', 'json'], { cwd: p.dir, env: { ...env, STEWARD_OBS_URL: proxy.url } });
      assert.ok(put, 'the update was sent and applied');
      assert.ok(lists > 0, 'the list that reads the tile ids back was made');
      assert.is(r.code, c.alert ? 1 : 0, r.stdout + r.stderr);
      const result = JSON.parse(r.stdout) as Result;
      assert.equal(result.failed, [], r.stdout);
      assert.equal(result.unknown ?? [], [], r.stdout);
      assert.equal(
        result.updated.map((u) => u.name),
        ['checkout-overview'],
        r.stdout,
      );
      assert.equal(result.created, [], r.stdout);
      if (c.alert) {
        assert.equal(
          result.skipped.map((s) => [s.kind, s.name]),
          [['Alert', 'refund-spike']],
          r.stdout,
        );
        assert.match(result.skipped[0]!.reason, 'checkout-overview was updated, but its tile ids are not known');
        assert.match(result.skipped[0]!.reason, c.why);
        assert.match(result.skipped[0]!.reason, 'not bound to a guess');
      } else assert.equal(result.skipped, [], r.stdout);

      // The update was applied: only the alert is left, and the next apply (the service answering) binds it.
      const plan = await steward(['plan', '--format', 'json'], { cwd: p.dir, env });
      const planned = JSON.parse(plan.stdout) as { items: Array<{ kind: string; name: string; action: string }> };
      assert.equal(
        planned.items.filter((i) => i.action !== 'noop').map((i) => [i.kind, i.name, i.action]),
        c.alert ? [['Alert', 'refund-spike', 'create']] : [],
        plan.stdout,
      );
      const again = await steward(['apply', '--auto-approve'], { cwd: p.dir, env });
      assert.is(again.code, 0, again.stdout + again.stderr);
      const settled = await steward(['plan', '--detailed-exitcode'], { cwd: p.dir, env });
      assert.is(settled.code, 0, settled.stdout + settled.stderr);
    } finally {
      await proxy.close();
      await emu.close();
      p.cleanup();
    }
  });
}

test.run();
