/**
 * A list that shows one dashboard (alert) twice: a server whose scan returns a document twice, a cache or
 * proxy that merges two pages. After a create whose answer was lost, apply adopted the copy it listed and
 * then, seeing "two" of the name, removed the later one: the same id, so it deleted the only copy, the one it
 * had just adopted and bound its alerts to (red team, duplicates round). In-process apply against the
 * emulator, through a proxy that cuts the create's answer and lists every item twice.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { copyExample } from '../helpers/project.ts';
import { startProxy } from '../helpers/proxy.ts';
import { tmpProject } from '../helpers/tmp.ts';

for (const [api, kind] of [
  ['hyperdx', 'dashboards'],
  ['hyperdx', 'alerts'],
  ['clickstack-cloud', 'dashboards'],
] as const) {
  test(`${api}, ${kind}: a list that shows each item twice never has apply delete the copy it adopted`, async () => {
    const p = tmpProject({});
    copyExample(p.dir, api, { timeoutSeconds: 1 });
    const emu = await startEmulator({ api, seed: 29 });
    let raced: string | undefined;
    const proxy = await startProxy(emu.url, {
      rewrite: (req, path, _status, text) => {
        if (req.method === 'GET' && /\/(dashboards|alerts)$/.test(path)) {
          const body = JSON.parse(text) as { data?: unknown[]; result?: unknown[] };
          const key = body.data ? 'data' : 'result';
          const list = body[key]!;
          return JSON.stringify({ ...body, [key]: list.flatMap((x) => [x, x]) });
        }
        if (raced !== undefined || req.method !== 'POST' || !path.endsWith(`/${kind}`)) return text;
        const made = JSON.parse(text) as { data?: { name?: string }; result?: { name?: string } };
        raced = made.data?.name ?? made.result?.name;
        return 'drop';
      },
    });
    try {
      const env = { ...emu.env, XDG_CACHE_HOME: join(p.dir, '.cache'), STEWARD_OBS_URL: proxy.url } as Record<string, string>;
      if (api === 'clickstack-cloud') env['STEWARD_CLOUD_URL'] = proxy.url;
      const r = await steward(['apply', '--auto-approve', '--settle', '1s'], { cwd: p.dir, env });
      assert.ok(raced !== undefined, 'the answer was cut');
      const named = (emu.state()[kind] as unknown as Array<{ id: string; name?: string }>).filter((x) => x.name === raced);
      assert.is(named.length, 1, `one ${kind} of the name "${raced}" stays\n${r.stdout}${r.stderr}`);
      const dashboards = new Set(emu.state().dashboards.map((d: { id: string }) => d.id));
      for (const a of emu.state().alerts as Array<{ dashboardId?: string }>)
        if (a.dashboardId) assert.ok(dashboards.has(a.dashboardId), `alert bound to ${a.dashboardId}`);
    } finally {
      await proxy.close();
      await emu.close();
      p.cleanup();
    }
  });
}

test.run();
