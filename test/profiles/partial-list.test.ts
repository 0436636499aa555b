/**
 * A ClickStack server that answers a list short of its `meta.total` (as a real one did in an audit): the
 * emulator behind a proxy that drops the last item of one list and says how many there are. Every list
 * plan reads is refused then, as dashboards always were; before, alerts, sources and webhooks were cut
 * silently, and a missing alert was planned as a create, a duplicate on apply.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startEmulator, type Emulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { EXAMPLES } from '../helpers/project.ts';
import { startProxy } from '../helpers/proxy.ts';
import { tmpProject } from '../helpers/tmp.ts';

/** Forwards everything to `target`; a GET of `.../clickstack/<cut>` loses its last item and gains `meta.total`. */
function cuttingProxy(target: string, cut: string) {
  return startProxy(target, {
    rewrite: (req, path, status, text) => {
      if (req.method !== 'GET' || !path.endsWith(`/clickstack/${cut}`) || status < 200 || status >= 300) return text;
      const json = JSON.parse(text) as { result: unknown[] };
      return JSON.stringify({ ...json, result: json.result.slice(0, -1), meta: { total: json.result.length, limit: json.result.length - 1, offset: 0 } });
    },
  });
}

async function appliedProject(): Promise<{ dir: string; emu: Emulator; env: Record<string, string>; cleanup: () => Promise<void> }> {
  const p = tmpProject({});
  cpSync(join(EXAMPLES, 'clickstack-cloud'), p.dir, { recursive: true });
  const f = join(p.dir, 'steward.yaml');
  writeFileSync(f, readFileSync(f, 'utf8').replace(/requestsPerMinute: \d+/g, 'requestsPerMinute: 6000'));
  const emu = await startEmulator({ api: 'clickstack-cloud', seed: 7 });
  const env = { ...(emu.env as Record<string, string>), XDG_CACHE_HOME: join(p.dir, '.cache') };
  const a = await steward(['apply', '--auto-approve'], { cwd: p.dir, env });
  assert.is(a.code, 0, a.stdout + a.stderr);
  return {
    dir: p.dir,
    emu,
    env,
    cleanup: async () => {
      await emu.close();
      p.cleanup();
    },
  };
}

for (const cut of ['alerts', 'dashboards', 'sources', 'webhooks'] as const) {
  test(`clickstack-cloud: plan on a ${cut} list short of its meta.total is refused in one line, nothing planned`, async () => {
    const x = await appliedProject();
    const proxy = await cuttingProxy(x.emu.url, cut);
    try {
      const clean = await steward(['plan', '--detailed-exitcode'], { cwd: x.dir, env: x.env });
      assert.is(clean.code, 0, clean.stdout + clean.stderr);
      const r = await steward(['plan', '--detailed-exitcode'], { cwd: x.dir, env: { ...x.env, STEWARD_OBS_URL: proxy.url } });
      assert.is(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stderr, new RegExp(`/clickstack/${cut}: the service listed \\d+ of \\d+ ${cut}; refusing to plan on a partial list`));
      assert.not.match(r.stdout, /to create/);
    } finally {
      await proxy.close();
      await x.cleanup();
    }
  });
}

test.run();
