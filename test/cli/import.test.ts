import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { steward } from '../helpers/exec.ts';
import { startEmulator } from '../../src/emulator/index.ts';
import { EXAMPLES, examplesWithEmulator } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';

const post = (url: string, body: unknown) =>
  fetch(`${url}/api/v2/dashboards`, {
    method: 'POST',
    headers: { authorization: 'Bearer dev-token', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

test('import round trip: live dashboards written as files plan as unchanged', async () => {
  const x = await examplesWithEmulator();
  try {
    // GIVEN the examples applied, then the dashboard files lost (and the alerts that refer to them)
    assert.is((await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env })).code, 0);
    rmSync(join(x.dir, 'dashboards'), { recursive: true });
    rmSync(join(x.dir, 'alerts'), { recursive: true });
    // WHEN imported
    const r = await steward(['import', '--all'], { cwd: x.dir, env: x.env });
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, 'Imported 3 of 3 dashboards');
    const files = readdirSync(join(x.dir, 'dashboards')).sort();
    assert.equal(files, ['checkout-overview.yaml', 'jvm-runtime.yaml', 'public-api-latency.yaml']);
    const text = readFileSync(join(x.dir, 'dashboards/jvm-runtime.yaml'), 'utf8');
    // steward is installed outside this project: the installation's absolute path, the line init writes too
    // (a relative one would climb out of the project and hold only where the clone sits beside this checkout).
    const schema = fileURLToPath(new URL('../../schemas/dashboard.schema.json', import.meta.url));
    assert.ok(text.startsWith(`# yaml-language-server: $schema=${schema.split(sep).join('/')}\n`), text.split('\n')[0]);
    assert.not.match(text, 'managed-by:steward');
    // THEN validate passes and the plan shows them unchanged
    assert.is((await steward(['validate'], { cwd: x.dir })).code, 0);
    const p = await steward(['plan', '--detailed-exitcode'], { cwd: x.dir, env: x.env });
    assert.is(p.code, 0, p.stdout);
    assert.match(p.stdout, '3 unchanged');
  } finally {
    await x.cleanup();
  }
});

test('import --id makes a drifted file match (the documented way out of no-update-api)', async () => {
  const x = await examplesWithEmulator();
  try {
    assert.is((await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env })).code, 0);
    const f = join(x.dir, 'dashboards/checkout-overview.yaml');
    writeFileSync(f, readFileSync(f, 'utf8').replace('w: 24', 'w: 12'));
    const drift = await steward(['plan', '--detailed-exitcode', '--format', 'json'], { cwd: x.dir, env: x.env });
    assert.is(drift.code, 3);
    const item = JSON.parse(drift.stdout).items.find((i: { reason?: string }) => i.reason === 'no-update-api');
    const r = await steward(['import', '--id', item.id], { cwd: x.dir, env: x.env });
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, 'dashboards/checkout-overview.yaml');
    const p = await steward(['plan', '--detailed-exitcode'], { cwd: x.dir, env: x.env });
    assert.is(p.code, 0, p.stdout);
  } finally {
    await x.cleanup();
  }
});

test('a path-traversal dashboard name cannot write outside --out; existing files are not overwritten', async () => {
  const x = await examplesWithEmulator();
  try {
    assert.is((await post(x.emu.url, { name: '../../../etc/passwd' })).status, 200);
    assert.is((await post(x.emu.url, { name: '..' })).status, 200);
    assert.is((await post(x.emu.url, { name: 'Checkout overview' })).status, 200);
    const r = await steward(['import', '--all', '--out', 'imported'], { cwd: x.dir, env: x.env });
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.equal(readdirSync(join(x.dir, 'imported')).sort(), ['checkout-overview.yaml', 'dashboard.yaml', 'etc-passwd.yaml']);
    assert.not.ok(existsSync(join(x.dir, '..', 'etc')));
    // the name the files already use is kept, and an existing file is left alone
    const again = await steward(['import', '--all', '--out', 'dashboards'], { cwd: x.dir, env: x.env });
    assert.is(again.code, 1);
    assert.match(again.stdout, 'skipped dashboards/checkout-overview.yaml: it exists (use --force to overwrite)');
  } finally {
    await x.cleanup();
  }
});

test('import --force never replaces a file of the project that declares other resources (names compared ignoring case)', async () => {
  const x = await examplesWithEmulator();
  try {
    // GIVEN files named otherwise than what they declare: team.yaml declares api-latency, Ops.yaml jvm-runtime
    renameSync(join(x.dir, 'dashboards/api-latency.yaml'), join(x.dir, 'dashboards/team.yaml'));
    renameSync(join(x.dir, 'dashboards/jvm-runtime.yaml'), join(x.dir, 'dashboards/Ops.yaml'));
    assert.is((await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env })).code, 0);
    const before = ['team.yaml', 'Ops.yaml'].map((n) => readFileSync(join(x.dir, 'dashboards', n), 'utf8'));
    // AND live dashboards whose names slugify to those file names (on macOS or Windows, ops.yaml is Ops.yaml)
    assert.is((await post(x.emu.url, { name: 'Team' })).status, 200);
    assert.is((await post(x.emu.url, { name: 'ops' })).status, 200);
    // WHEN imported with --force
    const r = await steward(['import', '--all', '--force'], { cwd: x.dir, env: x.env });
    assert.is(r.code, 0, r.stdout + r.stderr);
    // THEN the project's files are untouched; the newcomers get names of their own
    assert.equal(
      ['team.yaml', 'Ops.yaml'].map((n) => readFileSync(join(x.dir, 'dashboards', n), 'utf8')),
      before,
    );
    assert.match(r.stdout, '+ dashboards/team-2.yaml  ← "Team"');
    assert.match(r.stdout, '+ dashboards/ops-2.yaml  ← "ops"');
    assert.is((await steward(['validate'], { cwd: x.dir })).code, 0);
    // Nothing declared is lost (on a service that can delete, plan --prune would delete what was lost)
    const plan = await steward(['plan', '--format', 'json'], { cwd: x.dir, env: x.env });
    const items = JSON.parse(plan.stdout).items as { kind: string; name: string; action: string }[];
    for (const name of ['api-latency', 'checkout-overview', 'jvm-runtime', 'team-2', 'ops-2']) {
      assert.ok(
        items.some((i) => i.kind === 'Dashboard' && i.name === name && i.action === 'noop'),
        `${name}: ${plan.stdout.slice(0, 400)}`,
      );
    }
  } finally {
    await x.cleanup();
  }
});

test('import --out writes a dashboard and an alert of one name to two files (hyperdx: alerts are imported too)', async () => {
  const p = tmpProject({});
  cpSync(join(EXAMPLES, 'hyperdx'), p.dir, { recursive: true });
  const f = join(p.dir, 'steward.yaml');
  writeFileSync(f, readFileSync(f, 'utf8').replaceAll('requestsPerMinute: 100', 'requestsPerMinute: 6000'));
  const emu = await startEmulator({ seed: 1, api: 'hyperdx' });
  try {
    const env = { ...emu.env } as Record<string, string>;
    assert.is((await steward(['apply', '--auto-approve'], { cwd: p.dir, env })).code, 0);
    // GIVEN a dashboard named as an alert
    assert.is((await post(emu.url, { name: 'Error spike (saved search)', tags: [], tiles: [] })).status, 200);
    // WHEN everything is imported into one folder, --force
    const out = await steward(['import', '--all', '--out', 'copies', '--force'], { cwd: p.dir, env });
    // THEN each has a file of its own
    const kinds = readdirSync(join(p.dir, 'copies'))
      .filter((n) => n.startsWith('error-spike-saved-search'))
      .map((n) => `${n}: ${/^kind: (\w+)$/m.exec(readFileSync(join(p.dir, 'copies', n), 'utf8'))?.[1]}`)
      .sort();
    assert.equal(kinds, ['error-spike-saved-search-2.yaml: Alert', 'error-spike-saved-search.yaml: Dashboard'], out.stdout);
  } finally {
    await emu.close();
    p.cleanup();
  }
});

test('import names no file Windows cannot check out: device names (any case, any extension), trailing dots and spaces, a declared con', async () => {
  // Checked here by its own rule, not by the code under test: what comes before the first dot is no device
  // name, and the name does not end in a dot or a space.
  const windowsSafe = (n: string) => !/^(con|prn|aux|nul|com\d|lpt\d)$/i.test(n.split('.')[0]!.trim()) && !/[. ]$/.test(n);
  const p = tmpProject({});
  cpSync(join(EXAMPLES, 'hyperdx'), p.dir, { recursive: true });
  // GIVEN the project declares its dashboard as metadata.name con, an alert as nul.alert, another as steward
  // (metadata.name allows them; the files declaring them have names of their own)
  const edit = (rel: string, f: (t: string) => string) => writeFileSync(join(p.dir, rel), f(readFileSync(join(p.dir, rel), 'utf8')));
  edit('steward.yaml', (t) => t.replaceAll('requestsPerMinute: 100', 'requestsPerMinute: 6000'));
  edit('dashboards/checkout.yaml', (t) => t.replace('name: checkout-overview', 'name: con'));
  edit('alerts/checkout.yaml', (t) =>
    t
      .replaceAll('dashboard: checkout-overview', 'dashboard: con')
      .replace('name: checkout-errors', 'name: nul.alert')
      .replace('name: slow-payments', 'name: steward'),
  );
  const emu = await startEmulator({ seed: 1, api: 'hyperdx' });
  try {
    const env = { ...emu.env } as Record<string, string>;
    const applied = await steward(['apply', '--auto-approve'], { cwd: p.dir, env });
    assert.is(applied.code, 0, applied.stdout + applied.stderr);
    // AND dashboards on the server named as devices or ending in a dot or a space
    for (const name of ['con.yaml', 'Nul.yaml', 'CON', 'aux.', 'x.', 'y ']) assert.is((await post(emu.url, { name, tags: [], tiles: [] })).status, 200);
    // WHEN everything is imported, new files in the project and copies in --out
    const r = await steward(['import', '--all'], { cwd: p.dir, env });
    assert.is(r.code, 0, r.stdout + r.stderr);
    const out = await steward(['import', '--all', '--out', 'copies'], { cwd: p.dir, env });
    assert.is(out.code, 0, out.stdout + out.stderr);
    // THEN every file name is one Windows can check out
    for (const dir of ['dashboards', 'alerts', 'copies']) {
      const names = readdirSync(join(p.dir, dir));
      assert.equal(
        names.filter((n) => !windowsSafe(n)),
        [],
        `${dir}: ${names.join(', ')}`,
      );
    }
    assert.match(r.stdout, '+ dashboards/con-yaml.yaml  ← "con.yaml"');
    assert.match(r.stdout, '+ dashboards/nul-yaml.yaml  ← "Nul.yaml"');
    // AND the copy of the dashboard declared as con is con-dashboard (-2: the first import gave that name to
    // "CON"), and the copied alert on it names that key
    const key = /\+ copies\/(\S+)\.yaml {2}← "Checkout overview \(HyperDX\)"/.exec(out.stdout)?.[1];
    assert.is(key, 'con-dashboard-2', out.stdout);
    assert.match(out.stdout, '+ copies/nul-alert.yaml  ← alert "Checkout errors (HyperDX)"');
    assert.match(out.stdout, '+ copies/steward-dashboard.yaml  ← alert "Slow payments (HyperDX)"');
    assert.match(readFileSync(join(p.dir, 'copies/nul-alert.yaml'), 'utf8'), `dashboard: ${key},`);
    assert.not.ok(existsSync(join(p.dir, 'copies/steward.yaml')));
  } finally {
    await emu.close();
    p.cleanup();
  }
});

test('a live name with ${...} is imported literally and plans as unchanged', async () => {
  const x = await examplesWithEmulator();
  try {
    assert.is(
      (await post(x.emu.url, { name: 'Cost ${REGION}', tags: ['managed-by:steward'], tiles: [{ name: 'Spend in ${REGION}', x: 0, y: 0, w: 6, h: 3 }] })).status,
      200,
    );
    const r = await steward(['import', '--name', 'Cost ${REGION}'], { cwd: x.dir, env: x.env });
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.match(readFileSync(join(x.dir, 'dashboards/cost-region.yaml'), 'utf8'), 'Cost $${REGION}');
    const p = await steward(['plan', '--format', 'json', '--target', 'dashboard/cost-region'], { cwd: x.dir, env: x.env });
    assert.is(p.code, 0, p.stderr);
    assert.is(JSON.parse(p.stdout).items[0].action, 'noop');
  } finally {
    await x.cleanup();
  }
});

test('import needs a selector', async () => {
  const r = await steward(['import']);
  assert.is(r.code, 1);
  assert.match(r.stderr, 'say what to import');
});

test.run();
