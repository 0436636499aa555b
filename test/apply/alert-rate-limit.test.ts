/**
 * An alert create the server refuses with 429 and a wait created nothing: apply sends it again after the
 * wait, as it does a dashboard create, instead of failing it (one apply does everything, nothing twice).
 * The HyperDX emulator behind a proxy that refuses the first alert POSTs.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { EXAMPLES } from '../helpers/project.ts';
import { startProxy } from '../helpers/proxy.ts';
import { tmpProject } from '../helpers/tmp.ts';

/** Forwards to `target`, except the first `refuse` POSTs to the alerts path: 429 with `Retry-After: 1`. */
async function refusingProxy(target: string, refuse: number) {
  let refused = 0;
  const proxy = await startProxy(target, {
    intercept: (req, path) => {
      if (req.method !== 'POST' || path !== '/api/v2/alerts' || refused >= refuse) return undefined;
      refused++;
      return { status: 429, headers: { 'retry-after': '1' }, body: '{"message":"Too many requests"}' };
    },
  });
  return { ...proxy, refused: () => refused };
}

test('hyperdx: alert creates refused with 429 and a wait are sent again after it; each alert made once, exit 0', async () => {
  const p = tmpProject({});
  cpSync(join(EXAMPLES, 'hyperdx'), p.dir, { recursive: true });
  const f = join(p.dir, 'steward.yaml');
  writeFileSync(f, readFileSync(f, 'utf8').replace(/requestsPerMinute: \d+/g, 'requestsPerMinute: 6000'));
  const emu = await startEmulator({ api: 'hyperdx', seed: 7 });
  const proxy = await refusingProxy(emu.url, 2);
  try {
    const env = { ...(emu.env as Record<string, string>), STEWARD_OBS_URL: proxy.url, XDG_CACHE_HOME: join(p.dir, '.cache') };
    const r = await steward(['apply', '--auto-approve'], { cwd: p.dir, env });
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.is(proxy.refused(), 2);
    assert.match(r.stdout, /\? alert \S+: refused with 429; in 1 s steward lists it by name and sends it again only if it is not there/);
    const names = emu.state().alerts.map((a) => a.name);
    assert.ok(names.length > 0, 'the example creates alerts');
    assert.is(new Set(names).size, names.length, `no alert twice: ${names.join(', ')}`);
    const again = await steward(['plan', '--detailed-exitcode'], { cwd: p.dir, env });
    assert.is(again.code, 0, again.stdout + again.stderr);
  } finally {
    await proxy.close();
    await emu.close();
    p.cleanup();
  }
});

test.run();
