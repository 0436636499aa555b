import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { computePlan } from '../../src/plan/plan.ts';
import type { Plan, StateFile } from '../../src/plan/types.ts';
import { patchLines, wordDiff } from '../../src/render/patch.ts';
import { renderPlanMarkdown } from '../../src/render/plan-markdown.ts';
import { liveCounts, renderPlanText } from '../../src/render/plan-text.ts';
import { DIR, MARKER, NOW, alert, dashboard, liveOf } from '../plan/fixtures.ts';

// Issue 14, point 1: plans cut long values until before and after looked the same
// (`~ message: "More than 50 ... R… → "More than 50 ... R…`).

const OLD =
  'More than 50 checkout errors in five minutes. Runbook: https://wiki.example.com/runbooks/checkout#errors. Retry the payment provider first, then page the on-call engineer.';
const NEW =
  'More than 50 checkout errors in five minutes. Runbook: https://wiki.example.com/runbooks/checkout#errors. Retry the payment provider first, then page the payments team lead.';
const WHERE_OLD = 'service:checkout AND level:error AND env:production AND region:eu-west-1 AND NOT path:/healthz AND status:500';
const WHERE_NEW = 'service:checkout AND level:error AND env:production AND region:eu-west-1 AND NOT path:/healthz AND status:503';

function longPlan(updateDashboards: boolean): Plan {
  const live = liveOf('drift', '65f5e4a3b9e77c001a111111', { tags: ['team:a', 'b-tag', 'c-tag', MARKER] });
  live.tiles![0]!.series = [{ type: 'time', aggFn: 'count', where: WHERE_OLD, groupBy: [] }];
  const a = alert('checkout', '65f5e4a3b9e77c001a000003', 'drift', 'Errors', 50);
  (a.doc.spec as { message?: string }).message = NEW;
  const state: StateFile = {
    formatVersion: 1,
    alerts: {
      '65f5e4a3b9e77c001a000003': {
        sent: {
          name: 'Alert checkout',
          threshold: 50,
          thresholdType: 'above',
          interval: '5m',
          source: 'tile',
          dashboardId: '65f5e4a3b9e77c001a111111',
          tileId: '65f5e4a3b9e77c001a11t001',
          channel: { type: 'webhook', webhookId: 'aaaaaaaaaaaaaaaaaaaaaaaa' },
          message: OLD,
        } as never,
        appliedAt: '2026-11-20T08:00:00.000Z',
      },
    },
  };
  return computePlan({
    ...(updateDashboards ? { capabilities: { updateDashboard: true } } : {}),
    resources: [
      dashboard('drift', {
        tags: ['a-tag', 'b-tag', 'c-tag', 'team:a'],
        tiles: [{ name: 'Errors', x: 0, y: 0, w: 6, h: 3, series: [{ type: 'time', aggFn: 'count', where: WHERE_NEW, groupBy: [] }] }],
      }),
      a,
    ],
    live: [live],
    state,
    markerTag: MARKER,
    now: NOW,
    projectDir: DIR,
  });
}

/** Every word of `s` appears, in order, in `text` (wrapping may move words to the next line). */
function hasAllWords(text: string, s: string): boolean {
  const flat = text.replace(/\n\s*[~+!-]?\s*/g, ' ');
  let at = 0;
  for (const w of s.split(/\s+/)) {
    const i = flat.indexOf(w, at);
    if (i < 0) return false;
    at = i + w.length;
  }
  return true;
}

for (const columns of [60, 100, 160]) {
  test(`text at ${columns} columns: nothing is cut, the changed words are marked, before and after differ`, () => {
    for (const canUpdate of [true, false]) {
      const out = renderPlanText(longPlan(canUpdate), { color: false, columns });
      assert.not.match(out.split('\n').slice(2).join('\n'), '…', `cut at ${columns}`);
      assert.match(out, '[-on-call engineer.-]{+payments team lead.+}');
      assert.match(out, '[-status:500-]{+status:503+}');
      for (const line of out.split('\n').filter((l) => /^ {6}[~+-] /.test(l)))
        assert.ok(line.length <= Math.max(60, columns), `too wide at ${columns}: ${line}`);
      // the unchanged start is there in full, never cut before the first difference
      assert.ok(
        hasAllWords(
          out,
          'More than 50 checkout errors in five minutes. Runbook: https://wiki.example.com/runbooks/checkout#errors. Retry the payment provider first, then page the',
        ),
        out,
      );
    }
  });
}

test('markdown: the same word diff in the diff block, blocked items included, nothing cut', () => {
  for (const canUpdate of [true, false]) {
    const md = renderPlanMarkdown(longPlan(canUpdate));
    assert.not.match(md.replace(/fingerprint `[^`]*`/, ''), '…');
    assert.match(md, '[-on-call engineer.-]{+payments team lead.+}');
    assert.match(md, '[-status:500-]{+status:503+}');
    const block = /```diff\n([\s\S]*?)\n```/.exec(md.slice(md.indexOf('drift')))![1]!;
    for (const line of block.split('\n')) assert.match(line, /^[!+-] /, `diff line without a sign: ${line}`);
  }
});

test('tags are a set: one added tag is one change, not one per shifted position', () => {
  const p = longPlan(true);
  const dash = p.items.find((i) => i.kind === 'Dashboard')!;
  const tagLines = patchLines(dash.patch, dash.before, 100).filter((l) => l.path === 'tags');
  assert.equal(
    tagLines.map((l) => `${l.sign} ${l.text}`),
    ['+ tags: "a-tag"'],
  );
  const out = renderPlanText(p, { color: false, columns: 100 });
  assert.match(out, '+ tags: "a-tag"');
  assert.not.match(out, 'tags › ');
  assert.match(out, 'differs in tags, tiles/Errors');
});

test('wordDiff: only the words that changed are marked; identical strings have no markers', () => {
  assert.is(wordDiff('a b c d', 'a b x d'), 'a b [-c-]{+x+} d');
  assert.is(wordDiff('a b c d', 'a b c d e'), 'a b c d{+ e+}');
  assert.is(wordDiff('same', 'same'), 'same');
  assert.is(wordDiff('line one\nline two', 'line one\nline 2'), 'line one\\nline [-two-]{+2+}');
});

test('short values stay on one line as before → after', () => {
  assert.equal(patchLines([{ op: 'replace', path: '/threshold', value: 5 }], { threshold: 50 }, 80), [
    { sign: '~', path: 'threshold', text: 'threshold: 50 → 5' },
  ]);
});

test('the live counts add up and agree in number ("1 dashboard", "1 blocked item needs")', () => {
  const p = computePlan({
    resources: [dashboard('mine')],
    live: [liveOf('mine', '65f5e4a3b9e77c001a111111', { tags: ['team:a'] }), liveOf('theirs', '65f5e4a3b9e77c001a222222', { tags: [] })],
    state: { formatVersion: 1, alerts: {} },
    markerTag: MARKER,
    now: NOW,
    projectDir: DIR,
  });
  assert.is(liveCounts(p), '2 dashboards (0 carry managed-by:steward, 1 declared in files without it, 1 unmanaged)');
  const one = longPlan(false);
  assert.is(liveCounts(one), '1 dashboard (1 carries managed-by:steward, 0 unmanaged)');
  assert.match(renderPlanText(one, { color: false }), '1 blocked item needs a person');
});

test('kept orphans name the command that deletes them: apply --prune (plan only shows the deletes)', () => {
  const p: Plan = { ...longPlan(false), orphans: [{ kind: 'Dashboard', name: 'Old', id: '65f5e4a3b9e77c001a999999' }] };
  for (const text of [renderPlanText(p, { color: false }), renderPlanMarkdown(p)]) {
    assert.match(text, '`steward apply --prune`');
    assert.not.match(text, '`steward plan --prune` deletes');
    assert.not.match(text, '`steward plan --prune` (or spec.prune: true) deletes');
  }
});

test.run();
