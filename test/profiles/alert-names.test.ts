/**
 * Where alerts are read live (hyperdx, clickstack-cloud), an alert without metadata.id is matched by its
 * name: two alert files of one name must be refused before anything is sent. examples/hyperdx against
 * `emulator --api hyperdx` over loopback, through the CLI; and the rule as a table.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator } from '../../src/emulator/index.ts';
import type { AnyResource } from '../../src/model/resource.ts';
import { checkSemantics } from '../../src/schema/semantic.ts';
import { steward } from '../helpers/exec.ts';
import { copyExample } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';

/** A second alert named as slow-payments (examples/hyperdx/alerts/checkout.yaml), on another tile. */
const SAME_NAME = `---
apiVersion: steward/v1
kind: Alert
metadata:
  name: slow-orders
spec:
  name: Slow payments (HyperDX)
  threshold: 100
  thresholdType: below
  interval: 15m
  source: tile
  tile: { dashboard: checkout-overview, name: Orders per minute }
  channels:
    - { type: webhook, webhook: ops-pager }
`;

test('hyperdx: two alert files of one name are refused at their line, nothing is sent; before, apply created both and removed one as "another runner\'s"', async () => {
  const p = tmpProject({});
  copyExample(p.dir, 'hyperdx');
  appendFileSync(join(p.dir, 'alerts/checkout.yaml'), SAME_NAME);
  const emu = await startEmulator({ api: 'hyperdx', seed: 7 });
  try {
    const env = { ...emu.env, XDG_CACHE_HOME: join(p.dir, '.cache') };
    const v = await steward(['validate'], { cwd: p.dir, env });
    assert.is(v.code, 1, v.stdout + v.stderr);
    assert.match(v.stdout + v.stderr, /alerts\/checkout\.yaml:\d+:\d+ +\/spec\/name +error: two alerts are named "Slow payments \(HyperDX\)"/);
    const alertsBefore = emu.state().alerts.length;
    const a = await steward(['apply', '--auto-approve'], { cwd: p.dir, env });
    assert.is(a.code, 1, a.stdout + a.stderr);
    assert.match(a.stdout + a.stderr, 'two alerts are named "Slow payments (HyperDX)"');
    assert.not.match(a.stdout, 'another runner');
    assert.is(emu.state().dashboards.length, 0, 'nothing created');
    assert.is(emu.state().alerts.length, alertsBefore, 'no alert created or deleted');
  } finally {
    await emu.close();
    p.cleanup();
  }
});

const alert = (name: string, specName: string, id?: string): AnyResource =>
  ({
    kind: 'Alert',
    name,
    file: `${name}.yaml`,
    index: 0,
    doc: {
      apiVersion: 'steward/v1',
      kind: 'Alert',
      metadata: { name, ...(id ? { id } : {}) },
      spec: { name: specName, threshold: 1, thresholdType: 'above', interval: '5m', source: 'saved_search', savedSearchId: 's', channel: { type: 'email' } },
    },
  }) as unknown as AnyResource;

const SAME = 'two alerts are named "X"';
for (const [what, api, resources, refused] of [
  ['two unpinned, hyperdx', 'hyperdx', [alert('a', 'X'), alert('b', 'X')], true],
  ['two unpinned, clickstack-cloud', 'clickstack-cloud', [alert('a', 'X'), alert('b', 'X')], true],
  ['one pinned, one not', 'hyperdx', [alert('a', 'X', '65f5e4a3b9e77c001a000001'), alert('b', 'X')], true],
  ['both pinned', 'hyperdx', [alert('a', 'X', '65f5e4a3b9e77c001a000001'), alert('b', 'X', '65f5e4a3b9e77c001a000002')], false],
  ['other names', 'hyperdx', [alert('a', 'X'), alert('b', 'Y')], false],
  ['the seed API (alerts are their ids)', 'seed', [alert('a', 'X', '65f5e4a3b9e77c001a000001'), alert('b', 'X', '65f5e4a3b9e77c001a000002')], false],
] as const) {
  test(`alert names: ${what}`, () => {
    const problems = checkSemantics(resources as unknown as AnyResource[], { api }).filter((x) => x.message.startsWith(SAME));
    assert.is(problems.length, refused ? 1 : 0, JSON.stringify(problems));
    if (refused) {
      assert.is(problems[0]!.file, 'b.yaml');
      assert.equal(problems[0]!.related, { file: 'a.yaml', index: 0, pointer: '/spec/name' });
    }
  });
}

test.run();
