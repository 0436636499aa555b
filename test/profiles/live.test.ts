/**
 * The live profiles end to end, as a user runs them: examples/hyperdx against `emulator --api hyperdx` and
 * examples/clickstack-cloud against `--api clickstack-cloud`, through the CLI over real HTTP on loopback.
 * Plan, apply, plan is clean; edits made on the server are found; orphans are deleted only with --prune.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type Emulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { startProxy } from '../helpers/proxy.ts';
import { EXAMPLES } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';

type Api = 'hyperdx' | 'clickstack-cloud';

async function liveProject(
  api: Api,
): Promise<{ dir: string; emu: Emulator; env: Record<string, string>; base: string; auth: string; cleanup: () => Promise<void> }> {
  const p = tmpProject({});
  cpSync(join(EXAMPLES, api), p.dir, { recursive: true });
  const f = join(p.dir, 'steward.yaml');
  writeFileSync(f, readFileSync(f, 'utf8').replace(/requestsPerMinute: \d+/g, 'requestsPerMinute: 6000'));
  const emu = await startEmulator({ api, seed: 7 });
  const base = emu.clickstack
    ? `${emu.url}/v1/organizations/${emu.clickstack.organizationId}/services/${emu.clickstack.serviceId}/clickstack`
    : `${emu.url}/api/v2`;
  const auth = emu.clickstack ? `Basic ${Buffer.from('dev-key:dev-secret').toString('base64')}` : 'Bearer dev-token';
  return {
    dir: p.dir,
    emu,
    env: { ...emu.env, XDG_CACHE_HOME: join(p.dir, '.cache') },
    base,
    auth,
    cleanup: async () => {
      await emu.close();
      p.cleanup();
    },
  };
}

async function api(x: { base: string; auth: string }, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${x.base}${path}`, {
    method,
    headers: { authorization: x.auth, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  assert.ok(res.ok, `${method} ${path} → ${res.status} ${text}`);
  const json = text ? JSON.parse(text) : {};
  return json.data ?? json.result ?? json;
}

for (const profile of ['hyperdx', 'clickstack-cloud'] as const) {
  test(`${profile}: plan → apply → plan is clean; alerts are created, bound to their tiles and marked`, async () => {
    const x = await liveProject(profile);
    try {
      const first = await steward(['plan', '--detailed-exitcode'], { cwd: x.dir, env: x.env });
      assert.is(first.code, 2, first.stdout + first.stderr);
      assert.match(first.stdout, `${profile === 'hyperdx' ? 10 : 4} to create, 0 to update, 0 blocked, 0 unchanged`);
      const a = await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env });
      assert.is(a.code, 0, a.stdout + a.stderr);
      assert.match(a.stdout, `Apply complete: ${profile === 'hyperdx' ? 10 : 4} created, 0 updated, 0 unchanged, 0 failed, 0 skipped.`);
      const again = await steward(['plan', '--detailed-exitcode'], { cwd: x.dir, env: x.env });
      assert.is(again.code, 0, again.stdout + again.stderr);
      assert.match(again.stdout, `0 to create, 0 to update, 0 blocked, ${profile === 'hyperdx' ? 10 : 4} unchanged`);
      // The same list again (ClickStack's envelope differs in its requestId alone): planned on without parsing it
      const known = await steward(['plan', '--detailed-exitcode', '--debug'], { cwd: x.dir, env: x.env });
      assert.is(known.code, 0, known.stdout + known.stderr);
      assert.match(known.stderr, /dashboards: body known to the caller \(sha256 [\w-]{12}…\): kept unparsed/);
      assert.not.match(known.stderr, 'parsing the kept body');
      // A file changed on a dashboard no alert is on: read from the kept list, updated by apply, then clean
      const jvm = join(x.dir, 'dashboards/jvm.yaml');
      writeFileSync(
        jvm,
        readFileSync(jvm, 'utf8').replace(/w: (\d+)/, (_m, w: string) => `w: ${Number(w) - 1}`),
      );
      const changed = await steward(['plan', '--detailed-exitcode', '--debug'], { cwd: x.dir, env: x.env });
      assert.is(changed.code, 2, changed.stdout + changed.stderr);
      assert.match(changed.stdout, '0 to create, 1 to update, 0 blocked');
      assert.match(changed.stderr, /kept unparsed[^]*parsing the kept body/);
      const updated = await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env });
      assert.is(updated.code, 0, updated.stdout + updated.stderr);
      assert.match(updated.stdout, /~ updated dashboard jvm-runtime/);
      assert.is((await steward(['plan', '--detailed-exitcode'], { cwd: x.dir, env: x.env })).code, 0);

      const dashboards: any[] = await api(x, 'GET', '/dashboards');
      const checkout = dashboards.find((d) => d.name.startsWith('Checkout overview'));
      const alerts: any[] = await api(x, 'GET', '/alerts');
      const errors = alerts.find((l) => l.name.startsWith('Checkout errors'));
      assert.is(errors.dashboardId, checkout.id);
      assert.is(errors.tileId, checkout.tiles.find((t: any) => t.name === 'Error count').id);
      assert.is(errors.note, `managed-by:steward/${profile === 'hyperdx' ? 'acme-hyperdx' : 'acme-cs'}`);
      if (profile === 'hyperdx') assert.is(errors.channels.length, 2, 'the complete channels list is sent');
      else assert.ok(errors.channel.webhookId, 'one channel, resolved from its name');
      // No state file: the service is the record on profiles that read alerts.
      const stateFile = join(x.dir, '.steward/state.json');
      if (existsSync(stateFile)) assert.equal(JSON.parse(readFileSync(stateFile, 'utf8')).alerts, {});
    } finally {
      await x.cleanup();
    }
  });

  test(`${profile}: a dashboard edited on the server plans as update, and apply keeps bound alerts bound`, async () => {
    const x = await liveProject(profile);
    try {
      assert.is((await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env })).code, 0);
      const dashboards: any[] = await api(x, 'GET', '/dashboards');
      const live = dashboards.find((d) => d.name.startsWith('Checkout overview'));
      const errorTile = live.tiles.find((t: any) => t.name === 'Error count').id;
      // Someone moves a tile and adds a tag in the UI.
      const edited = { ...live, tags: [...live.tags, 'edited-by-hand'], tiles: live.tiles.map((t: any) => (t.name === 'Runbook' ? { ...t, y: t.y + 5 } : t)) };
      delete edited.id;
      await api(x, 'PUT', `/dashboards/${live.id}`, edited);

      const p = await steward(['plan', '--detailed-exitcode'], { cwd: x.dir, env: x.env });
      assert.is(p.code, 2, p.stdout + p.stderr);
      assert.match(p.stdout, `0 to create, 1 to update, 0 blocked, ${profile === 'hyperdx' ? 9 : 3} unchanged`);
      assert.match(p.stdout, /~ update\s+checkout-overview/);
      assert.match(p.stdout, 'edited-by-hand', 'the diff names the tag that goes');
      const a = await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env });
      assert.is(a.code, 0, a.stdout + a.stderr);
      assert.match(a.stdout, `~ updated dashboard checkout-overview (${live.id})`);
      const after = (await api(x, 'GET', '/dashboards')).find((d: any) => d.id === live.id);
      assert.is(after.tiles.find((t: any) => t.name === 'Error count').id, errorTile, 'the tile keeps its id');
      const alert = (await api(x, 'GET', '/alerts')).find((l: any) => l.name.startsWith('Checkout errors'));
      assert.is(alert.tileId, errorTile, 'the alert stays bound');
      assert.is((await steward(['plan', '--detailed-exitcode'], { cwd: x.dir, env: x.env })).code, 0);
    } finally {
      await x.cleanup();
    }
  });

  test(`${profile}: an alert edited on the server is found and put back`, async () => {
    const x = await liveProject(profile);
    try {
      assert.is((await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env })).code, 0);
      const live = (await api(x, 'GET', '/alerts')).find((l: any) => l.name.startsWith('Slow payments'));
      const { id, state: _s, teamId: _t, createdAt: _c, updatedAt: _u, silenced: _si, executionErrors: _e, ...body } = live;
      await api(x, 'PUT', `/alerts/${id}`, { ...body, threshold: 9999 });
      const p = await steward(['plan', '--detailed-exitcode'], { cwd: x.dir, env: x.env });
      assert.is(p.code, 2, p.stdout + p.stderr);
      assert.match(p.stdout, /~ update\s+slow-payments/);
      assert.match(p.stdout, 'threshold: 9999 → 2000');
      const a = await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env });
      assert.is(a.code, 0, a.stdout + a.stderr);
      assert.is((await api(x, 'GET', '/alerts')).find((l: any) => l.id === id).threshold, 2000);
    } finally {
      await x.cleanup();
    }
  });
}

test('hyperdx: a dashboard and an alert whose files are gone are listed, and deleted only with --prune', async () => {
  const x = await liveProject('hyperdx');
  try {
    assert.is((await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env })).code, 0);
    const alertsFile = join(x.dir, 'alerts/checkout.yaml');
    const text = readFileSync(alertsFile, 'utf8');
    writeFileSync(alertsFile, text.slice(0, text.indexOf('\n---\n') + 1));
    rmSync(join(x.dir, 'dashboards/jvm.yaml'));
    const kept = await steward(['plan', '--detailed-exitcode'], { cwd: x.dir, env: x.env });
    assert.is(kept.code, 0, kept.stdout + kept.stderr);
    assert.match(kept.stdout, /\? orphan\s+JVM runtime \(HyperDX\)/);
    assert.match(kept.stdout, /\? orphan\s+alert Slow payments \(HyperDX\)/);

    const planned = await steward(['plan', '--prune', '--detailed-exitcode'], { cwd: x.dir, env: x.env });
    assert.is(planned.code, 2, planned.stdout + planned.stderr);
    assert.match(planned.stdout, '2 to delete');
    const a = await steward(['apply', '--prune', '--auto-approve'], { cwd: x.dir, env: x.env });
    assert.is(a.code, 0, a.stdout + a.stderr);
    assert.match(a.stdout, '- deleted alert Slow payments (HyperDX)');
    assert.match(a.stdout, '- deleted dashboard JVM runtime (HyperDX)');
    const alerts: any[] = await api(x, 'GET', '/alerts');
    assert.not.ok(alerts.some((l) => l.name === 'Slow payments (HyperDX)'));
    assert.ok(
      alerts.some((l) => l.name === 'Error spike (saved search)'),
      'alerts without the marker are never touched',
    );
    assert.is((await steward(['plan', '--detailed-exitcode'], { cwd: x.dir, env: x.env })).code, 0);
  } finally {
    await x.cleanup();
  }
});

test('hyperdx: a resources pattern that stops matching does not let --prune empty the service; --allow-empty does', async () => {
  const x = await liveProject('hyperdx');
  try {
    assert.is((await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env })).code, 0);
    const managed = async () => ((await api(x, 'GET', '/dashboards')) as any[]).filter((d) => d.tags?.includes('managed-by:steward/acme-hyperdx')).length;
    const before = await managed();
    assert.ok(before >= 3, `the example's dashboards were created (${before})`);
    // GIVEN a project file whose every pattern now misses (the folders were renamed)
    const f = join(x.dir, 'steward.yaml');
    writeFileSync(f, readFileSync(f, 'utf8').replace(/- dashboards\/\*\*\/\*\.yaml[\s\S]*?- services\/\*\*\/\*\.yaml/, '- dashboard/**/*.yaml'));
    // WHEN plan and apply run with --prune
    const planned = await steward(['plan', '--prune', '--detailed-exitcode'], { cwd: x.dir, env: x.env });
    // THEN the deletes are blocked (exit 3: a person must look), and apply deletes nothing
    assert.is(planned.code, 3, planned.stdout + planned.stderr);
    assert.match(planned.stdout, /prune-to-empty: .*no file declares any dashboard, and --prune would delete all \d+ this project manages/);
    assert.match(planned.stdout, 'steward apply --prune --allow-empty');
    // and plan says why, as validate does
    assert.match(planned.stderr, /steward\.yaml:\d+:\d+  \/spec\/resources  warning: pattern "dashboard\/\*\*\/\*\.yaml" matches no file/);
    const kept = await steward(['apply', '--prune', '--auto-approve'], { cwd: x.dir, env: x.env });
    assert.match(kept.stdout, /blocked \(not applied\)/, kept.stdout + kept.stderr);
    assert.is(await managed(), before);
    // AND --allow-empty alone says it needs --prune
    const alone = await steward(['plan', '--allow-empty'], { cwd: x.dir, env: x.env });
    assert.is(alone.code, 1, alone.stdout + alone.stderr);
    assert.match(alone.stderr, '--allow-empty says what --prune may delete: give --prune too (or set spec.prune: true)');
    // AND a saved plan made with --allow-empty carries it to apply, which deletes them all
    const out = join(x.dir, 'empty.plan.json');
    const saved = await steward(['plan', '--prune', '--allow-empty', '--out', out], { cwd: x.dir, env: x.env });
    assert.is(saved.code, 0, saved.stdout + saved.stderr);
    const a = await steward(['apply', out], { cwd: x.dir, env: x.env });
    assert.is(a.code, 0, a.stdout + a.stderr);
    assert.is(await managed(), 0);
  } finally {
    await x.cleanup();
  }
});

test('hyperdx: a prune whose DELETE was made but answered 502 is retried; the 404 then is the dashboard gone, not a failure', async () => {
  const x = await liveProject('hyperdx');
  // GIVEN a gateway that loses the answer of the first DELETE the service carried out
  let lost = 0;
  const proxy = await startProxy(x.emu.url, {
    rewrite: (req, _path, status, text) =>
      req.method === 'DELETE' && status === 200 && lost++ === 0 ? { status: 502, body: '{"message":"Bad Gateway"}' } : text,
  });
  const env = { ...x.env, STEWARD_OBS_URL: proxy.url };
  try {
    assert.is((await steward(['apply', '--auto-approve'], { cwd: x.dir, env })).code, 0);
    rmSync(join(x.dir, 'dashboards/jvm.yaml'));
    // WHEN the orphan is pruned
    const a = await steward(['apply', '--prune', '--auto-approve'], { cwd: x.dir, env });
    // THEN the retry's 404 says it is gone: deleted, exit 0, and the next plan is clean
    assert.is(lost, 1, 'the first DELETE was carried out and its answer lost');
    assert.is(a.code, 0, a.stdout + a.stderr);
    assert.match(a.stdout, '- deleted dashboard JVM runtime (HyperDX)');
    assert.is((await steward(['plan', '--prune', '--detailed-exitcode'], { cwd: x.dir, env })).code, 0);
  } finally {
    await proxy.close();
    await x.cleanup();
  }
});

test('hyperdx: import writes dashboards in the config form and alerts, with source and webhook names; they plan as unchanged', async () => {
  const x = await liveProject('hyperdx');
  try {
    assert.is((await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env })).code, 0);
    const r = await steward(['import', '--all', '--out', 'imported'], { cwd: x.dir, env: x.env });
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, 'Imported 12 of 12 dashboards and alerts', 'the three dashboards and alerts stamped from templates/ too');
    assert.not.match(r.stdout, 'warning', 'nothing is left out');
    const text = readFileSync(join(x.dir, 'imported/checkout-overview.yaml'), 'utf8');
    assert.match(text, '      config:\n        source: Logs\n        displayType: line\n');
    assert.match(text, '  filters:\n    - { source: Logs, type: QUERY_EXPRESSION, name: Environment, expression: environment }\n');
    assert.not.match(text, 'sourceId');
    const alert = readFileSync(join(x.dir, 'imported/checkout-errors.yaml'), 'utf8');
    assert.match(
      alert,
      '  tile: { dashboard: checkout-overview, name: Error count }\n  channels:\n    - { type: webhook, webhook: ops-pager }\n    - { type: webhook, webhook: slack-sre }\n',
    );
    // The seed's saved-search alert keeps its group-by: nothing the server holds is dropped on the way back.
    assert.match(readFileSync(join(x.dir, 'imported/slow-requests-saved-search.yaml'), 'utf8'), 'groupBy: ServiceName');

    rmSync(join(x.dir, 'dashboards'), { recursive: true });
    rmSync(join(x.dir, 'alerts'), { recursive: true });
    rmSync(join(x.dir, 'services'), { recursive: true });
    rmSync(join(x.dir, 'templates'), { recursive: true });
    cpSync(join(x.dir, 'imported'), join(x.dir, 'dashboards'), { recursive: true });
    rmSync(join(x.dir, 'imported'), { recursive: true });
    const p = await steward(['plan', '--detailed-exitcode'], { cwd: x.dir, env: x.env });
    assert.is(p.code, 2, p.stdout + p.stderr);
    // The two alerts made in the UI are adopted: steward's marker goes into their note, nothing else changes.
    assert.match(p.stdout, '0 to create, 2 to update, 0 blocked, 10 unchanged');
    const changes = p.stdout.split('\n').filter((l) => /^\s+[+~-] (?!create|update|delete)/.test(l));
    assert.equal(
      changes.map((l) => l.trim()),
      ['+ note: "managed-by:steward/acme-hyperdx"', '+ note: "managed-by:steward/acme-hyperdx"'],
    );
  } finally {
    await x.cleanup();
  }
});

test('hyperdx: import without --out leaves alerts that files declare where they are (no second declaration)', async () => {
  const x = await liveProject('hyperdx');
  try {
    assert.is((await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env })).code, 0);
    const r = await steward(['import', '--all'], { cwd: x.dir, env: x.env });
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /= alert "Checkout errors \(HyperDX\)" \(\w+\) is declared in alerts\/checkout\.yaml/);
    assert.match(r.stdout, /\+ alerts\/error-spike-saved-search\.yaml/);
    const v = await steward(['validate'], { cwd: x.dir, env: x.env });
    assert.is(v.code, 0, v.stdout + v.stderr);
  } finally {
    await x.cleanup();
  }
});

test('names that do not exist on the service fail at file:line:col with a did-you-mean', async () => {
  const x = await liveProject('hyperdx');
  try {
    const f = join(x.dir, 'alerts/checkout.yaml');
    writeFileSync(f, readFileSync(f, 'utf8').replace('webhook: slack-sre', 'webhook: slack-sr'));
    const r = await steward(['plan'], { cwd: x.dir, env: x.env });
    assert.is(r.code, 1, r.stdout + r.stderr);
    assert.match(r.stderr, /alerts\/checkout\.yaml:\d+:\d+/);
    assert.match(r.stderr, 'did you mean "slack-sre"');
  } finally {
    await x.cleanup();
  }
});

test('clickstack-cloud: report reads the real ClickPipes paths (cloud.api: clickhouse-cloud)', async () => {
  const x = await liveProject('clickstack-cloud');
  try {
    const r = await steward(['report', '--out', 'out'], { cwd: x.dir, env: x.env });
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, 'pipe "logs-from-s3" is Failed; expected Running');
    const paths = x.emu.requests().map((q) => q.path);
    assert.ok(
      paths.some((p) => p.endsWith('/clickpipes')),
      paths.join('\n'),
    );
    assert.ok(paths.some((p) => p.endsWith('/clickpipesReversePrivateEndpoints')));
    assert.not.ok(paths.some((p) => p.includes('ingestpipes') || p.includes('ingestPipes')));
  } finally {
    await x.cleanup();
  }
});

test('seed: --prune is refused in one line', async () => {
  const p = tmpProject({});
  cpSync(EXAMPLES, p.dir, { recursive: true });
  try {
    const r = await steward(['plan', '--prune'], { cwd: p.dir, env: { STEWARD_OBS_URL: 'http://127.0.0.1:9', STEWARD_OBS_TOKEN: 't' } });
    assert.is(r.code, 1, r.stdout + r.stderr);
    assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, 'cannot delete dashboards');
  } finally {
    p.cleanup();
  }
});

test.run();
