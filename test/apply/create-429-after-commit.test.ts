/**
 * A gateway that rate-limits on the way back answers 429 for a create it forwarded and the server made. A
 * 429 usually means "refused unprocessed", so steward sends a refused create again, but only after listing
 * by name: what is there is adopted, never made twice (red team, round 8: three dashboards became fifteen).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';
import { startProxy } from '../helpers/proxy.ts';

for (const wait of [undefined, '1'] as const) {
  test(`a create answered 429 ${wait ? 'with Retry-After' : 'without a wait'} after the server made it is found by name, not sent again`, async () => {
    const x = await examplesWithEmulator();
    let refused = 0;
    const proxy = await startProxy(x.emu.url, {
      rewrite: (req, path, status, text) => {
        if (req.method !== 'POST' || path !== '/api/v2/dashboards' || status !== 200) return text;
        refused++;
        const headers: Record<string, string> = wait ? { 'retry-after': wait } : {};
        return { status: 429, headers, body: '{"message":"Too many requests"}' };
      },
    });
    try {
      const env = { ...x.env, STEWARD_OBS_URL: proxy.url };
      const r = await steward(['apply', '--auto-approve'], { cwd: x.dir, env });
      assert.is(r.code, 0, r.stdout + r.stderr);
      assert.is(refused, 3, 'every create was made, then answered 429');
      assert.match(r.stdout, /refused with 429; in \d+ s steward lists it by name and sends it again only if it is not there/);
      const names = x.emu.state().dashboards.map((d) => d.name);
      assert.equal([...names].sort(), ['Checkout overview', 'JVM runtime', 'Public API latency']);
      assert.is(x.emu.requests().filter((e) => e.method === 'POST' && e.path === '/api/v2/dashboards').length, 3, 'one POST per dashboard');
    } finally {
      await proxy.close();
      await x.cleanup();
    }
  });
}

test.run();
