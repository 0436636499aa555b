import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { syncDashboardSpec } from '../../src/render/dashboard-sync.ts';
import { steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';

// Issue 14, point 2: the way out of a drifted dashboard wrote dashboards/<name>.yaml beside the file that
// declares it (then validate and plan failed on a duplicate), dropped metadata.description and comments and
// reformatted every line.

test('import --id rewrites the file that declares the dashboard, in place: one line changes, comments and metadata kept', async () => {
  const x = await examplesWithEmulator();
  try {
    assert.is((await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env })).code, 0);
    // GIVEN the dashboard declared in a file whose name is not its metadata.name, with a comment
    const from = join(x.dir, 'dashboards/checkout-overview.yaml');
    const f = join(x.dir, 'dashboards/payments.yaml');
    renameSync(from, f);
    const original = readFileSync(f, 'utf8').replace('  tiles:\n', '  # the first row is what on-call reads\n  tiles:\n');
    // AND the file drifted from the live dashboard (the seed API cannot update: blocked)
    writeFileSync(f, original.replace('w: 24', 'w: 12'));
    const drift = await steward(['plan', '--detailed-exitcode', '--format', 'json'], { cwd: x.dir, env: x.env });
    assert.is(drift.code, 3, drift.stdout + drift.stderr);
    const item = JSON.parse(drift.stdout).items.find((i: { reason?: string }) => i.reason === 'no-update-api');
    // the plan's way out is the one command the README gives
    assert.ok(
      item.wayOut.some((w: string) => w.includes(`\`steward import --id ${item.id}\``)),
      item.wayOut.join('\n'),
    );
    assert.ok(!item.wayOut.some((w: string) => w.includes('<dir>') || w.includes('--force')), item.wayOut.join('\n'));

    // WHEN imported by id, without --force
    const r = await steward(['import', '--id', item.id], { cwd: x.dir, env: x.env });
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, '~ dashboards/payments.yaml');
    // THEN no file was written beside it, and the file is the original text: only the drifted line came back
    assert.equal(readdirSync(join(x.dir, 'dashboards')).sort(), ['api-latency.yaml', 'jvm-runtime.yaml', 'payments.yaml']);
    assert.is(readFileSync(f, 'utf8'), original);
    assert.is((await steward(['validate'], { cwd: x.dir })).code, 0);
    const clean = await steward(['plan', '--detailed-exitcode'], { cwd: x.dir, env: x.env });
    assert.is(clean.code, 0, clean.stdout);

    // AND again: nothing to rewrite
    const again = await steward(['import', '--id', item.id], { cwd: x.dir, env: x.env });
    assert.match(again.stdout, '= dashboards/payments.yaml  already matches');
    assert.not.ok(existsSync(join(x.dir, 'dashboards/checkout-overview.yaml')));
  } finally {
    await x.cleanup();
  }
});

test('sync keeps other documents, flow style and comments; named lists are matched by name', () => {
  const text = [
    '# modeline',
    'apiVersion: steward/v1',
    'kind: Dashboard',
    'metadata:',
    '  name: a',
    '  description: keep me',
    'spec:',
    '  name: A',
    '  tags: [x, y]  # team tags',
    '  tiles:',
    '    - name: one',
    '      w: 6 # half',
    '    - name: two',
    '      w: 6',
    '---',
    'apiVersion: steward/v1',
    'kind: Alert',
    'metadata: { name: other }',
    '',
  ].join('\n');
  const r = syncDashboardSpec(text, 0, {
    name: 'A',
    tags: ['x', 'y', 'z'],
    tiles: [
      { name: 'two', w: 6 },
      { name: 'one', w: 12 },
    ],
  });
  assert.is(
    r.text,
    text.replace('[x, y]  # team tags', '[x, y, z] # team tags').replace('w: 6 # half', 'w: 12 # half'),
    'only the changed lines are written again',
  );
  assert.equal(
    r.changes.map((c) => c.path.join('.')),
    ['spec.tags', 'spec.tiles.0.w'],
  );
});

test.run();
