/**
 * A create answered 303 See Other (post, redirect, get) or 304 after the server stored it: steward read it as a
 * failure with a known outcome, so the dashboard "failed", the alerts on it were skipped that run, and only the
 * next apply adopted it. A write so answered may have been applied: apply now lists before deciding, finds the
 * dashboard, and goes on, with one of each name on the service.
 */
import { request, createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { copyExample } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';

/** A proxy to `target` that passes everything but answers each dashboard create with `status` once the server has it. */
async function redirectingProxy(target: string, status: number): Promise<{ url: string; close: () => Promise<void> }> {
  const to = new URL(target);
  const server: Server = createServer((req, res) => {
    const up = request({ host: to.hostname, port: to.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      if (req.method === 'POST' && req.url === '/api/v2/dashboards' && answer.statusCode === 200) {
        let body = '';
        answer.setEncoding('utf8').on('data', (d: string) => (body += d));
        answer.on('end', () => {
          const id = (JSON.parse(body) as { data: { id: string } }).data.id;
          res.writeHead(status, { location: `/api/v2/dashboards/${id}` });
          res.end();
        });
        return;
      }
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

for (const status of [303, 304]) {
  test(`a create answered ${status} after the server stored it: found by a list the same run, alerts applied, one of each`, async () => {
    const p = tmpProject({});
    const emu = await startEmulator({ api: 'hyperdx', seed: 7 });
    const proxy = await redirectingProxy(emu.url, status);
    try {
      copyExample(p.dir, 'hyperdx', { timeoutSeconds: 1 });
      const env = { ...(emu.env as Record<string, string>), STEWARD_OBS_URL: proxy.url, XDG_CACHE_HOME: join(p.dir, '.cache') };
      const r = await steward(['apply', '--auto-approve'], { cwd: p.dir, env });
      assert.is(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /0 failed, 0 skipped/);
      const names = emu.state().dashboards.map((d) => d.name);
      assert.is(names.length, 5, names.join(', '));
      assert.is(new Set(names).size, names.length, names.join(', '));
      const again = await steward(['plan', '--detailed-exitcode'], { cwd: p.dir, env });
      assert.is(again.code, 0, again.stdout + again.stderr);
    } finally {
      await proxy.close();
      await emu.close();
      p.cleanup();
    }
  });
}

test.run();
