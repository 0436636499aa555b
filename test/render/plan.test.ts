import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { computePlan } from '../../src/plan/plan.ts';
import type { Plan, StateFile } from '../../src/plan/types.ts';
import { renderPlanGithub } from '../../src/render/plan-github.ts';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.ts';
import { renderPlanText } from '../../src/render/plan-text.ts';
import { assertGolden } from '../helpers/golden.ts';
import { DIR, MARKER, NOW, alert, dashboard, liveOf } from '../plan/fixtures.ts';

/** One plan with every action and every blocked reason. */
function everyAction(): Plan {
  const drifted = liveOf('drift', '65f5e4a3b9e77c001a111111');
  drifted.tiles![0]!.w = 12;
  drifted.tiles![0]!.series = [{ type: 'time', aggFn: 'avg', where: 'level:error', groupBy: [] }];
  const same = liveOf('same', '65f5e4a3b9e77c001a222222', { updatedAt: '2026-11-01T00:00:00.000Z' });
  const twins = [liveOf('twin', '65f5e4a3b9e77c001a333333'), liveOf('twin', '65f5e4a3b9e77c001a444444')];
  const orphan = liveOf('gone', '65f5e4a3b9e77c001a555555');
  const state: StateFile = {
    formatVersion: 1,
    alerts: {
      '65f5e4a3b9e77c001a000002': {
        sent: {
          name: 'Alert synced',
          threshold: 5,
          thresholdType: 'above',
          interval: '5m',
          source: 'tile',
          dashboardId: '65f5e4a3b9e77c001a222222',
          tileId: '65f5e4a3b9e77c001a22t001',
          channel: { type: 'webhook', webhookId: 'aaaaaaaaaaaaaaaaaaaaaaaa' },
        },
        appliedAt: '2026-11-20T08:00:00.000Z',
      },
      '65f5e4a3b9e77c001a000003': {
        sent: {
          name: 'Alert changed',
          threshold: 50,
          thresholdType: 'above',
          interval: '15m',
          source: 'tile',
          dashboardId: '65f5e4a3b9e77c001a222222',
          tileId: '65f5e4a3b9e77c001a22t001',
          channel: { type: 'webhook', webhookId: 'aaaaaaaaaaaaaaaaaaaaaaaa' },
        },
        appliedAt: '2026-11-20T08:00:00.000Z',
      },
    },
  };
  const changed = alert('changed', '65f5e4a3b9e77c001a000003', 'same', 'Errors', 5);
  return computePlan({
    resources: [
      dashboard('new', {
        tiles: [
          { name: 'A', x: 0, y: 0, w: 6, h: 3 },
          { name: 'B <b>', x: 6, y: 0, w: 6, h: 3 },
        ],
      }),
      dashboard('drift'),
      dashboard('same'),
      dashboard('twin'),
      alert('fresh', '65f5e4a3b9e77c001a000001', 'new', 'A'),
      alert('synced', '65f5e4a3b9e77c001a000002', 'same'),
      changed,
      alert('dangling', '65f5e4a3b9e77c001a000004', 'twin'),
    ],
    live: [drifted, same, ...twins, orphan],
    state,
    markerTag: MARKER,
    now: NOW,
    projectDir: DIR,
  });
}

test('the fixture plan has every action and reason', () => {
  const p = everyAction();
  assert.equal(p.summary, {
    create: 1,
    update: 2,
    noop: 2,
    blocked: 4,
    blockedByReason: { 'no-update-api': 1, ambiguous: 1, orphan: 1, 'unresolved-reference': 1 },
  });
});

test('text (golden)', () => {
  assertGolden(renderPlanText(everyAction(), { color: false, columns: 100 }), 'render/plan.text.txt');
});

test('text with unchanged items listed (golden)', () => {
  assertGolden(renderPlanText(everyAction(), { color: false, columns: 100, showUnchanged: true }), 'render/plan-all.text.txt');
});

test('text in colour has ANSI codes only then', () => {
  assert.match(renderPlanText(everyAction(), { color: true }), '\u001b[32m');
  assert.not.match(renderPlanText(everyAction(), { color: false }), '\u001b[');
});

test('markdown (golden)', () => {
  assertGolden(renderPlanMarkdown(everyAction()), 'render/plan.md');
});

test('github annotations (golden)', () => {
  assertGolden(renderPlanGithub(everyAction()), 'render/plan.github.txt');
});

test('json (golden)', () => {
  assertGolden(JSON.stringify(everyAction(), null, 2) + '\n', 'render/plan.json');
});

test('markdown stays under its limit and says what it cut', () => {
  const resources = Array.from({ length: 2000 }, (_, i) => dashboard(`d${i}`, { name: `Dashboard number ${i}` }));
  const p = computePlan({ resources, live: [], state: { formatVersion: 1, alerts: {} }, markerTag: MARKER, now: NOW, projectDir: DIR });
  const md = renderPlanMarkdown(p, { artifactHint: 'the plan.json artifact' });
  assert.ok(md.length < 60_000, `length ${md.length}`);
  assert.match(md, /> \d+ more items not shown to keep this under 60,000 characters; the full plan is in the plan\.json artifact\./);
  assert.match(md, '| 🟢 create | 2000 | 0 |', 'the summary table counts everything');
});

test('a create beside a dashboard orphan says how to rename in place (text and markdown); creates alone say nothing of it', () => {
  const renamed = computePlan({
    resources: [dashboard('d1', { name: 'New title' })],
    live: [liveOf('d1', '65f5e4a3b9e77c0019000001')],
    state: { formatVersion: 1, alerts: {} },
    markerTag: MARKER,
    now: NOW,
    projectDir: DIR,
    capabilities: { deleteDashboard: true },
  });
  assert.equal(
    renamed.items.map((i) => i.action),
    ['create'],
  );
  assert.is(renamed.orphans?.length, 1);
  const hint = 'set metadata.id in its file to the live id (shown beside the orphan)';
  assert.match(renderPlanText(renamed, { color: false }), hint);
  assert.match(renderPlanMarkdown(renamed), /> \[!TIP\]\n> A dashboard renamed in its file/);
  const fresh = computePlan({ resources: [dashboard('d1')], live: [], state: { formatVersion: 1, alerts: {} }, markerTag: MARKER, now: NOW, projectDir: DIR });
  assert.not.match(renderPlanText(fresh, { color: false }), hint);
  assert.not.match(renderPlanMarkdown(fresh), hint);
});

// A pull request could pad its plan with creates so that the cut pushed a delete (or an update of a live
// dashboard) out of the comment, leaving only a count. The cut now keeps deletes, blocked items and updates
// first, names the items it leaves without a section while the names fit, and counts the rest by action.
const padded = (deletes: number) => {
  const resources = Array.from({ length: 2000 }, (_, i) => dashboard(`d${i}`, { name: `Dashboard number ${i}` }));
  const live = Array.from({ length: deletes }, (_, i) => liveOf(`gone${i}`, `65f5e4a3b9e77c0019${String(i).padStart(6, '0')}`));
  return computePlan({
    resources,
    live,
    state: { formatVersion: 1, alerts: {} },
    markerTag: MARKER,
    now: NOW,
    projectDir: DIR,
    capabilities: { deleteDashboard: true },
    prune: true,
  });
};

test('markdown cut: a delete among 2,000 padding creates keeps its section; every item cut is named or counted', () => {
  const md = renderPlanMarkdown(padded(1), { artifactHint: 'the plan.json artifact' });
  assert.ok(md.length < 60_000, `length ${md.length}`);
  assert.match(md, /<summary>🗑️ delete dashboard <b>Dash gone0<\/b><\/summary>/);
  const cut = Number(/> (\d+) more items not shown/.exec(md)?.[1]);
  assert.ok(cut > 0);
  const named = md.match(/^- 🟢 create dashboard <b>d\d+<\/b>$/gm) ?? [];
  const counted = Number(/^- … and (\d+) more items: (\d+) create$/m.exec(md)?.[1] ?? 0);
  assert.is(named.length + counted, cut, 'each cut item is named or counted');
});

test('markdown cut: more deletes than fit are counted by action, never lost', () => {
  const md = renderPlanMarkdown(padded(1500), { artifactHint: 'the plan.json artifact' });
  assert.ok(md.length < 60_000, `length ${md.length}`);
  assert.not.match(md, '🟢 create dashboard <b>d0</b>', 'no create is shown before every delete is');
  assert.match(md, /^- … and \d+ more items: \d+ delete, 2000 create$/m);
});

// Red team, round 12: the parts above the items (templates, orphan ids, fields the server sends) were not
// counted against the limit; 2,000 templates made a 117,000-character plan, which GitHub refuses as a comment.
const heads: Array<{ name: string; change: (p: Plan) => void; says: RegExp }> = [
  {
    name: '2,000 templates',
    change: (p) => {
      p.items = p.items.map((it, i) => ({ ...it, name: `template-with-a-long-name-number-${i}/k` }));
    },
    says: /- … and 1980 more templates\n/,
  },
  {
    name: '5,000 orphans with long ids',
    change: (p) => {
      p.orphans = Array.from({ length: 5000 }, (_, i) => ({
        kind: 'Dashboard' as const,
        name: `o${i}`,
        id: `${i}`.padEnd(500, 'x'),
        action: 'delete' as const,
      })) as never;
    },
    says: /\(`0x{199}…`, .*, … and 4980 more orphans\)/,
  },
  {
    name: '5,000 fields the server sent',
    change: (p) => {
      p.ignoredFields = Array.from({ length: 5000 }, (_, i) => `field${i}`.padEnd(300, 'f'));
    },
    says: /Not compared: .*, … and 4980 more fields<\/sub>/,
  },
];

for (const c of heads) {
  test(`markdown stays under its limit whatever names the head lists: ${c.name}`, () => {
    const resources = Array.from({ length: 2000 }, (_, i) => dashboard(`d${i}`, { name: `Dashboard number ${i}` }));
    const p = computePlan({ resources, live: [], state: { formatVersion: 1, alerts: {} }, markerTag: MARKER, now: NOW, projectDir: DIR });
    c.change(p);
    const md = renderPlanMarkdown(p, { artifactHint: 'the plan.json artifact' });
    assert.ok(md.length < 60_000, `length ${md.length}`);
    assert.match(md, c.says);
  });
}

test.run();
