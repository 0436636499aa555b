/**
 * --prune never empties a kind by accident (src/plan/prune-guard.ts): when the files declare no dashboard (or
 * no alert), the deletes of that kind are blocked unless allowEmpty; beside declared ones they stay deletes.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { OBSERVABILITY_PROFILES } from '../../src/clients/profiles.ts';
import type { LiveAlert } from '../../src/model/alert.ts';
import type { AnyResource } from '../../src/model/resource.ts';
import { computePlan } from '../../src/plan/plan.ts';
import { DIR, MARKER, NOW, dashboard, emptyState, liveOf } from './fixtures.ts';

const ID = (n: number) => `65f5e4a3b9e77c001a0000${String(n).padStart(2, '0')}`;
const liveAlert = (n: number): LiveAlert => ({ id: ID(50 + n), name: `Orphan alert ${n}`, note: MARKER }) as unknown as LiveAlert;

const cases: Array<{
  name: string;
  resources: AnyResource[];
  liveAlerts: LiveAlert[];
  allowEmpty: boolean;
  want: Record<string, string>;
}> = [
  {
    name: 'no file declares a dashboard: both orphans blocked, the alert orphan too',
    resources: [],
    liveAlerts: [liveAlert(1)],
    allowEmpty: false,
    want: { 'Dashboard Dash gone-1': 'blocked', 'Dashboard Dash gone-2': 'blocked', 'Alert Orphan alert 1': 'blocked' },
  },
  {
    name: 'allowEmpty: every orphan deleted',
    resources: [],
    liveAlerts: [liveAlert(1)],
    allowEmpty: true,
    want: { 'Dashboard Dash gone-1': 'delete', 'Dashboard Dash gone-2': 'delete', 'Alert Orphan alert 1': 'delete' },
  },
  {
    name: 'one dashboard still declared: the dashboard orphans are deleted, the alert orphan (no alert declared) blocked',
    resources: [dashboard('kept')],
    liveAlerts: [liveAlert(1)],
    allowEmpty: false,
    want: { 'Dashboard kept': 'create', 'Dashboard Dash gone-1': 'delete', 'Dashboard Dash gone-2': 'delete', 'Alert Orphan alert 1': 'blocked' },
  },
];

for (const c of cases) {
  test(c.name, () => {
    const plan = computePlan({
      resources: c.resources,
      live: [liveOf('gone-1', ID(1)), liveOf('gone-2', ID(2))],
      liveAlerts: c.liveAlerts,
      state: emptyState,
      markerTag: MARKER,
      now: NOW,
      projectDir: DIR,
      capabilities: OBSERVABILITY_PROFILES.hyperdx.capabilities,
      prune: true,
      allowEmpty: c.allowEmpty,
    });
    assert.equal(Object.fromEntries(plan.items.map((i) => [`${i.kind} ${i.name}`, i.action])), c.want);
    const blocked = plan.items.filter((i) => i.action === 'blocked');
    for (const b of blocked) {
      assert.is(b.reason, 'prune-to-empty');
      assert.match(b.message, /not deleted: no file declares any (dashboard|alert), and --prune would delete all \d+ this project manages/);
      assert.ok(b.wayOut?.some((w) => w.includes('--allow-empty')));
      assert.is(b.body, undefined);
    }
    assert.is(plan.summary.blockedByReason['prune-to-empty'] ?? 0, blocked.length);
    assert.is(plan.summary.delete ?? 0, plan.items.filter((i) => i.action === 'delete').length);
  });
}

test('without prune nothing is blocked for emptiness: the orphans are listed', () => {
  const plan = computePlan({
    resources: [],
    live: [liveOf('gone-1', ID(1))],
    state: emptyState,
    markerTag: MARKER,
    now: NOW,
    projectDir: DIR,
    capabilities: OBSERVABILITY_PROFILES.hyperdx.capabilities,
  });
  assert.equal(plan.items, []);
  assert.equal(plan.orphans, [{ kind: 'Dashboard', name: 'Dash gone-1', id: ID(1) }]);
});

test.run();
