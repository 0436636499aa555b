/**
 * An update (PUT) the server applied but whose every answer was lost (a gateway's 502 after each commit) is
 * "outcome unknown", not "failed": it may well have been applied, and the next plan says whether it was. On
 * the live profiles, for a dashboard update and an alert update; then apply and plan converge. Over real
 * HTTP: the emulator (hyperdx) behind a proxy on 127.0.0.1, the CLI spawned. Needs dist/.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { EXAMPLES } from '../helpers/project.ts';
import { startProxy } from '../helpers/proxy.ts';
import { tmpProject } from '../helpers/tmp.ts';

const cases = [
  {
    what: 'a dashboard update',
    file: 'dashboards/checkout.yaml',
    edit: (t: string) => t.replace(/w: (\d+)/, (_m, w: string) => `w: ${Number(w) - 1}`),
    path: /\/dashboards\/[^/]+$/,
    kind: 'Dashboard',
    name: 'checkout-overview',
  },
  {
    what: 'an alert update',
    file: 'alerts/checkout.yaml',
    edit: (t: string) => t.replace('threshold: 50', 'threshold: 51'),
    path: /\/alerts\/[^/]+$/,
    kind: 'Alert',
    name: 'checkout-errors',
  },
];

for (const c of cases) {
  test(`${c.what} answered 502 after every commit: "unknown", not "failed"; then apply and plan converge`, async () => {
    const p = tmpProject({});
    cpSync(join(EXAMPLES, 'hyperdx'), p.dir, { recursive: true });
    const f = join(p.dir, 'steward.yaml');
    writeFileSync(f, readFileSync(f, 'utf8').replace(/requestsPerMinute: \d+/g, 'requestsPerMinute: 6000'));
    const emu = await startEmulator({ api: 'hyperdx', seed: 13 });
    let puts = 0;
    const proxy = await startProxy(emu.url, {
      rewrite: (req, path, status, text) => {
        if (req.method !== 'PUT' || !c.path.test(path) || status !== 200) return text;
        puts++;
        return { status: 502, headers: { 'content-type': 'text/html' }, body: '<html>502 Bad Gateway</html>' };
      },
    });
    try {
      const env = { ...emu.env, XDG_CACHE_HOME: join(p.dir, '.cache') };
      const first = await steward(['apply', '--auto-approve'], { cwd: p.dir, env });
      assert.is(first.code, 0, first.stdout + first.stderr);
      const target = join(p.dir, c.file);
      writeFileSync(target, c.edit(readFileSync(target, 'utf8')));
      const r = await steward(['apply', '--auto-approve', '--format', 'json'], { cwd: p.dir, env: { ...env, STEWARD_OBS_URL: proxy.url } });
      assert.ok(puts > 0, 'the update was sent, and applied');
      assert.is(r.code, 1, r.stdout + r.stderr);
      const result = JSON.parse(r.stdout) as { failed: unknown[]; unknown?: Array<{ kind: string; name: string; error: string }> };
      assert.equal(result.failed, [], r.stdout);
      assert.equal(
        (result.unknown ?? []).map((u) => [u.kind, u.name]),
        [[c.kind, c.name]],
        r.stdout,
      );
      assert.match(result.unknown![0]!.error, 'outcome unknown');
      // Applied after all: nothing left to send.
      const plan = await steward(['plan', '--detailed-exitcode'], { cwd: p.dir, env });
      assert.is(plan.code, 0, plan.stdout + plan.stderr);
    } finally {
      await proxy.close();
      await emu.close();
      p.cleanup();
    }
  });
}

test.run();
