/**
 * `plan --server-validate` is a check: when the service calls a body invalid, apply would be refused, so the
 * plan fails (exit 1, one line naming the dashboards) after printing itself, whatever --detailed-exitcode
 * says. Before, it printed "service validation: INVALID" and exited 0 (2 with --detailed-exitcode), and a CI
 * step that ran it to catch such bodies passed.
 */
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { copyExample } from '../helpers/project.ts';
import { startProxy } from '../helpers/proxy.ts';
import { tmpProject } from '../helpers/tmp.ts';

test('plan --server-validate: exit 0 when the service takes every body; 1, naming the refused dashboards, when it does not', async () => {
  const p = tmpProject({});
  const emu = await startEmulator({ api: 'hyperdx', seed: 7 });
  // The emulator refuses what validate refuses too: a proxy has the service find a problem validate cannot see.
  const proxy = await startProxy(emu.url, {
    rewrite: (req, path, status, text) => {
      if (req.method !== 'POST' || !path.endsWith('/dashboards/validate') || status !== 200) return text;
      const answer = JSON.parse(text) as { valid: boolean; normalized: { name?: string } | null };
      if (answer.normalized?.name !== 'JVM runtime (HyperDX)') return text;
      return JSON.stringify({ valid: false, errors: [{ path: 'tiles.0.config.source', message: 'source not found' }], normalized: null });
    },
  });
  try {
    copyExample(p.dir, 'hyperdx');
    const env = { ...(emu.env as Record<string, string>), XDG_CACHE_HOME: join(p.dir, '.cache') };
    const ok = await steward(['plan', '--server-validate', '--detailed-exitcode'], { cwd: p.dir, env });
    assert.is(ok.code, 2, ok.stdout + ok.stderr);
    assert.not.match(ok.stdout, 'INVALID');
    for (const format of ['text', 'json']) {
      const r = await steward(['plan', '--server-validate', '--detailed-exitcode', '--format', format], {
        cwd: p.dir,
        env: { ...env, STEWARD_OBS_URL: proxy.url },
      });
      assert.is(r.code, 1, r.stdout + r.stderr);
      // The plan is still printed whole, the refusal in it...
      if (format === 'text') assert.match(r.stdout, /service validation: INVALID\n\s+- tiles\.0\.config\.source: source not found/);
      else assert.ok((JSON.parse(r.stdout) as { items: unknown[] }).items.length > 0);
      // ...and one line says why the command failed.
      assert.match(r.stderr, /^error: the service says this dashboard is invalid \(dashboard jvm-runtime\): apply would be refused/m, r.stderr);
      assert.not.match(r.stderr, /\n\s+at /, 'no stack trace');
    }
  } finally {
    await proxy.close();
    await emu.close();
    p.cleanup();
  }
});

test.run();
