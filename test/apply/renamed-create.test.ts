/**
 * A server (or a gateway before it) that stores a create under another name than the one sent: trimmed,
 * normalized, cut to a length. plan matches dashboards and alerts by name, so the next plan could not find
 * what this apply made, planned it as a create again, and every apply made one more copy, each run exit 0.
 * apply now reads the name each made item is listed under (the list it already makes after the creates) and
 * fails the run when it differs, naming both and the way out.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { copyExample } from '../helpers/project.ts';
import { startProxy } from '../helpers/proxy.ts';
import { tmpProject } from '../helpers/tmp.ts';

/** Creates of dashboards and alerts, and dashboard updates, forwarded with their name trimmed, as a server that trims would store them. */
function trimmingProxy(target: string, token: string) {
  return startProxy(target, {
    intercept: async (req, path, body) => {
      const write =
        (req.method === 'POST' && /\/api\/v2\/(dashboards|alerts)$/.test(path)) || (req.method === 'PUT' && /\/api\/v2\/dashboards\/[^/]+$/.test(path));
      if (!write) return undefined;
      const sent = JSON.parse(body) as { name?: unknown };
      if (typeof sent.name === 'string') sent.name = sent.name.trim();
      const r = await fetch(target + path, {
        method: req.method!,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(sent),
      });
      return { status: r.status, body: await r.text() };
    },
  });
}

/** The hyperdx example with the checkout dashboard's and alert's names ending in a space. */
function projectWithSpacedNames(dir: string): void {
  copyExample(dir, 'hyperdx');
  const dash = join(dir, 'dashboards', 'checkout.yaml');
  writeFileSync(dash, readFileSync(dash, 'utf8').replace('  name: Checkout overview (HyperDX)', '  name: "Checkout overview (HyperDX) "'));
  const alert = join(dir, 'alerts', 'checkout.yaml');
  writeFileSync(alert, readFileSync(alert, 'utf8').replace('  name: Checkout errors (HyperDX)', '  name: "Checkout errors (HyperDX) "'));
}

/**
 * The hyperdx example in a temp folder with names ending in a space, an emulator, and the trimming proxy in
 * front of it: `run` gets both environments (`direct` to the emulator, `env` through the proxy).
 */
async function withTrimmingServer(run: (dir: string, env: Record<string, string>, direct: Record<string, string>) => Promise<void>): Promise<void> {
  const p = tmpProject({});
  const emu = await startEmulator({ api: 'hyperdx', seed: 3 });
  const proxy = await trimmingProxy(emu.url, String(emu.env['STEWARD_OBS_TOKEN']));
  try {
    projectWithSpacedNames(p.dir);
    const direct = { ...(emu.env as Record<string, string>), XDG_CACHE_HOME: join(p.dir, '.cache') };
    await run(p.dir, { ...direct, STEWARD_OBS_URL: proxy.url }, direct);
  } finally {
    await proxy.close();
    await emu.close();
    p.cleanup();
  }
}

test('a dashboard and an alert stored under another name than sent: apply fails naming both names; following its advice plans clean', () =>
  withTrimmingServer(async (dir, env) => {
    const first = await steward(['apply', '--auto-approve'], { cwd: dir, env });
    const out = first.stdout + first.stderr;
    assert.is(first.code, 1, out);
    assert.match(
      out,
      /dashboard checkout-overview \([0-9a-f]{24}\): made, but the service lists it as "Checkout overview \(HyperDX\)", not "Checkout overview \(HyperDX\) " as sent/,
    );
    assert.match(
      out,
      /alert checkout-errors \([0-9a-f]{24}\): made, but the service lists it as "Checkout errors \(HyperDX\)", not "Checkout errors \(HyperDX\) " as sent/,
    );
    assert.match(out, /set spec\.name to "Checkout overview \(HyperDX\)"/);
    assert.match(out, /Apply incomplete: .*2 stored under another name/);

    // The advice not taken: the next plan says, before anything is sent, that the create it plans is that orphan.
    const again = await steward(['plan', '--format', 'markdown'], { cwd: dir, env });
    assert.match(
      again.stdout.replace(/\\/g, ''),
      /Dashboard checkout-overview is sent as "Checkout overview \(HyperDX\) " and this project's "Checkout overview \(HyperDX\)" \([0-9a-f]{24}\) is listed: a service that trims names or folds their case stores the one as the other/,
    );

    // The advice taken: the files name them as the service does, and nothing is left to create.
    for (const f of ['dashboards/checkout.yaml', 'alerts/checkout.yaml']) {
      const path = join(dir, f);
      writeFileSync(path, readFileSync(path, 'utf8').replace(/"(Checkout (?:overview|errors) \(HyperDX\)) "/, '$1'));
    }
    const plan = await steward(['plan', '--detailed-exitcode'], { cwd: dir, env });
    assert.is(plan.code, 0, plan.stdout + plan.stderr);
  }));

test('--format json: the items stored under another name, with both names', () =>
  withTrimmingServer(async (dir, env) => {
    const r = await steward(['apply', '--auto-approve', '--format', 'json'], { cwd: dir, env });
    assert.is(r.code, 1, r.stdout + r.stderr);
    const result = JSON.parse(r.stdout) as { ok: boolean; renamed?: Array<{ kind: string; name: string; sent: string; stored: string }> };
    assert.is(result.ok, false);
    assert.equal((result.renamed ?? []).map((x) => `${x.kind} ${x.name}: ${x.sent}| -> ${x.stored}|`).sort(), [
      'Alert checkout-errors: Checkout errors (HyperDX) | -> Checkout errors (HyperDX)|',
      'Dashboard checkout-overview: Checkout overview (HyperDX) | -> Checkout overview (HyperDX)|',
    ]);
  }));

test('a dashboard pinned by metadata.id, renamed, answered with another name than sent: apply fails, saying the next apply would send it again', () =>
  withTrimmingServer(async (dir, env, direct) => {
    const dash = join(dir, 'dashboards', 'checkout.yaml');
    writeFileSync(dash, readFileSync(dash, 'utf8').replace('"Checkout overview (HyperDX) "', 'Checkout overview (HyperDX)'));
    const made = await steward(['apply', '--auto-approve', '--format', 'json'], { cwd: dir, env: direct });
    assert.is(made.code, 0, made.stdout + made.stderr);
    const id = (JSON.parse(made.stdout) as { created: Array<{ name: string; id: string }> }).created.find((c) => c.name === 'checkout-overview')!.id;
    writeFileSync(
      dash,
      readFileSync(dash, 'utf8')
        .replace('  name: checkout-overview\n', `  name: checkout-overview\n  id: ${id}\n`)
        .replace('  name: Checkout overview (HyperDX)', '  name: "Checkout overview v2 "'),
    );
    const r = await steward(['apply', '--auto-approve'], { cwd: dir, env });
    const out = r.stdout + r.stderr;
    assert.is(r.code, 1, out);
    assert.match(
      out,
      /dashboard checkout-overview \([0-9a-f…]+\): updated, but the service answered with the name "Checkout overview v2", not "Checkout overview v2 " as sent; the next apply would send it again: set spec\.name to "Checkout overview v2"/,
    );
  }));

test("an answer that is not the dashboard as stored (a mock's canned one: another name, not the tags sent) is no rename", async () => {
  const p = tmpProject({});
  const emu = await startEmulator({ api: 'hyperdx', seed: 3 });
  // What a mock server answers to any PUT: its own example, whatever was sent.
  const canned = await startProxy(emu.url, {
    rewrite: (req, path, status, text) => {
      if (req.method !== 'PUT' || !/\/api\/v2\/dashboards\/[^/]+$/.test(path) || status !== 200) return text;
      const answer = JSON.parse(text) as { data: { name: string; tags: string[] } };
      answer.data.name = 'My Dashboard';
      answer.data.tags = ['example'];
      return JSON.stringify(answer);
    },
  });
  try {
    copyExample(p.dir, 'hyperdx');
    const direct = { ...(emu.env as Record<string, string>), XDG_CACHE_HOME: join(p.dir, '.cache') };
    const made = await steward(['apply', '--auto-approve', '--format', 'json'], { cwd: p.dir, env: direct });
    assert.is(made.code, 0, made.stdout + made.stderr);
    const dash = join(p.dir, 'dashboards', 'checkout.yaml');
    writeFileSync(dash, readFileSync(dash, 'utf8').replace('  name: Checkout overview (HyperDX)', '  name: Checkout overview v2'));
    const id = (JSON.parse(made.stdout) as { created: Array<{ name: string; id: string }> }).created.find((c) => c.name === 'checkout-overview')!.id;
    writeFileSync(dash, readFileSync(dash, 'utf8').replace('  name: checkout-overview\n', `  name: checkout-overview\n  id: ${id}\n`));
    const r = await steward(['apply', '--auto-approve'], { cwd: p.dir, env: { ...direct, STEWARD_OBS_URL: canned.url } });
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /updated dashboard checkout-overview/);
    assert.not.match(r.stdout + r.stderr, /answered with the name|another name/);
  } finally {
    await canned.close();
    await emu.close();
    p.cleanup();
  }
});

test('a create whose answer is lost, stored under a trimmed name: found under that name after the settle window, not sent again', async () => {
  const p = tmpProject({});
  const emu = await startEmulator({ api: 'hyperdx', seed: 3 });
  const token = String(emu.env['STEWARD_OBS_TOKEN']);
  let posts = 0;
  // Trims every dashboard create's name, and answers the checkout one 502 after the server made it.
  const proxy = await startProxy(emu.url, {
    intercept: async (req, path, body) => {
      if (req.method !== 'POST' || !/\/api\/v2\/dashboards$/.test(path)) return undefined;
      const sent = JSON.parse(body) as { name: string };
      const lost = sent.name.startsWith('Checkout overview');
      if (lost) posts++;
      sent.name = sent.name.trim();
      const r = await fetch(emu.url + path, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(sent),
      });
      return lost ? { status: 502, body: '{"message":"bad gateway"}' } : { status: r.status, body: await r.text() };
    },
  });
  try {
    projectWithSpacedNames(p.dir);
    // The settle window is at least the request timeout: one second here.
    const project = join(p.dir, 'steward.yaml');
    writeFileSync(project, readFileSync(project, 'utf8').replace('    requestsPerMinute: 100\n', '    requestsPerMinute: 100\n    timeoutSeconds: 1\n'));
    const env = { ...(emu.env as Record<string, string>), STEWARD_OBS_URL: proxy.url, XDG_CACHE_HOME: join(p.dir, '.cache') };
    const r = await steward(['apply', '--auto-approve', '--format', 'json'], { cwd: p.dir, env });
    assert.is(r.code, 1, r.stdout + r.stderr);
    assert.is(posts, 1, 'the create was sent once');
    const result = JSON.parse(r.stdout) as { renamed?: Array<{ name: string; stored: string }>; unknown?: unknown[] };
    assert.equal(
      (result.renamed ?? []).filter((x) => x.name === 'checkout-overview').map((x) => x.stored),
      ['Checkout overview (HyperDX)'],
    );
    const listed = (await (await fetch(`${emu.url}/api/v2/dashboards`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
      data: Array<{ name: string }>;
    };
    assert.is(listed.data.filter((d) => d.name.startsWith('Checkout overview')).length, 1, 'one dashboard, not two');
  } finally {
    await proxy.close();
    await emu.close();
    p.cleanup();
  }
});

test('names stored as sent: no rename reported, apply exits 0', () =>
  withTrimmingServer(async (dir, _env, direct) => {
    const first = await steward(['apply', '--auto-approve'], { cwd: dir, env: direct });
    assert.is(first.code, 0, first.stdout + first.stderr);
    assert.not.match(first.stdout + first.stderr, /stored under another name|lists it as|answered with the name/);
    const plan = await steward(['plan', '--detailed-exitcode'], { cwd: dir, env: direct });
    assert.is(plan.code, 0, plan.stdout + plan.stderr);
  }));

test.run();
