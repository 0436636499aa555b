/**
 * A dashboard the parse cache answers carries its facts (src/model/resource.ts) and parses its document
 * only when something reads it (issue 15). The facts must say exactly what the document says: every check
 * finds the same problems, for every API, whether it reads the facts or the document; and a warm load, its
 * checks and a plan of unchanged dashboards read no dashboard's document.
 */
import { cpSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { nodeFileSystem } from '../../src/config/fs.ts';
import { loadWorkspace, type Loaded } from '../../src/config/load.ts';
import type { AnyResource } from '../../src/model/resource.ts';
import { usesSourceNames } from '../../src/plan/names.ts';
import { computePlan } from '../../src/plan/plan.ts';
import type { LiveDashboardInput } from '../../src/plan/types.ts';
import { dashboardFacts, checkSemantics } from '../../src/schema/semantic.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { notStewardFolder } from '../helpers/project.ts';

const ROOT = join(import.meta.dirname, '../..');
const APIS = ['seed', 'hyperdx', 'clickstack-cloud'];

const PROJECT = 'apiVersion: steward/v1\nkind: Project\nmetadata: { name: shop }\nspec:\n  resources: ["dash/*.yaml", "alerts/*.yaml"]\n';
const tile = (name: string, extra = '') => `    - { name: ${name}, x: 0, y: 0, w: 6, h: 3${extra} }\n`;
const dash = (name: string, body: string, head = '') =>
  `apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: ${name}${head} }\nspec:\n  name: ${name} board\n${body}`;
/** Dashboards with something for every check of one dashboard, and alerts that refer to their tiles. */
const FILES: Record<string, string> = {
  'steward.yaml': PROJECT,
  'dash/dup.yaml': dash('dup', `  tiles:\n${tile('A', ', series: [{ type: time, dataSource: events, aggFn: count }]')}${tile('A')}`),
  'dash/wide.yaml': dash(
    'wide',
    `  tags: [team:shop]\n  tiles:\n    - { name: W, x: 20, y: 0, w: 10, h: 3, config: { displayType: line, source: Logs, select: [{ aggFn: sum }] } }\n`,
  ),
  'dash/table.yaml': dash(
    'table',
    `  tiles:\n${tile('T', ', config: { displayType: table, source: Logs, select: [{ aggFn: quantile, level: 0.5, valueExpression: x }] }')}`,
  ),
  'dash/tags.yaml': dash('tags', `  tags: [${Array.from({ length: 50 }, (_, i) => `t${i}`).join(', ')}, ${'x'.repeat(40)}]\n  tiles: []\n`),
  'dash/pinned.yaml': dash(
    'pinned',
    `  filters: [{ type: QUERY_EXPRESSION, name: Env, expression: env, source: Logs }]\n  tiles: []\n`,
    ', id: 65f5e4a3b9e77c001a000009',
  ),
  'dash/same-name.yaml': dash('same-name', `  tiles: []\n`).replace('same-name board', 'dup board'),
  'alerts/a.yaml': ['T', 'X']
    .map(
      (t, i) =>
        `apiVersion: steward/v1\nkind: Alert\nmetadata: { name: a${i}, id: 65f5e4a3b9e77c001a00000${i} }\nspec:\n  name: a${i}\n  threshold: 1\n  thresholdType: above\n  interval: 5m\n  source: tile\n  tile: { dashboard: table, name: ${t} }\n  channel: { type: webhook, webhookId: 65f5e4a3b9e77c001a0000aa }\n`,
    )
    .join('---\n'),
};

async function loads(dir: string): Promise<{ cold: Loaded; warm: Loaded }> {
  const env = { XDG_CACHE_HOME: join(dir, '.xdg') };
  const load = (cache: boolean) => loadWorkspace({ fs: nodeFileSystem, env, cwd: dir }, { requireProject: true, cache, parallel: { workers: 0 } });
  const cold = await load(false);
  await load(true);
  return { cold, warm: await load(true) };
}

/** Whether a resource's document is still unread (the cache's lazy property). */
const unread = (r: AnyResource) => Object.getOwnPropertyDescriptor(r, 'doc')?.get !== undefined;

const projects: Array<[string, (dir: string) => void]> = [
  ['the problems project', () => undefined],
  ...['examples', 'examples/hyperdx', 'examples/clickstack-cloud'].map((p): [string, (dir: string) => void] => [
    p,
    (dir) => cpSync(join(ROOT, p), dir, { recursive: true, filter: notStewardFolder }),
  ]),
];

for (const [name, fill] of projects) {
  test(`facts: ${name}: every check finds the same problems from the facts as from the documents, for every API`, async () => {
    const p = tmpProject(name === 'the problems project' ? FILES : {});
    try {
      fill(p.dir);
      const { cold, warm } = await loads(p.dir);
      // Stamped from templates (index < 0): made by the expansion, with no facts.
      const dashboards = warm.resources.filter((r) => r.kind === 'Dashboard' && r.index >= 0);
      assert.ok(dashboards.length > 0);
      assert.ok(
        dashboards.every((r) => r.facts !== undefined),
        'a cached dashboard without facts',
      );
      // The checks read the tiles of the dashboards alerts are on from their documents; no other document is read.
      const alertsOn = new Set(warm.resources.flatMap((r) => (r.kind === 'Alert' && r.doc.spec.tile ? [r.doc.spec.tile.dashboard] : [])));
      const others = dashboards.filter((r) => !alertsOn.has(r.name));
      assert.ok(others.length > 0 || alertsOn.size > 0);
      assert.ok(others.every(unread), 'a warm load read the document of a dashboard no alert is on');
      // The project's API: answered from the facts alone.
      const own = warm.project!.spec.observability?.api ?? 'seed';
      assert.equal(checkSemantics(warm.resources, { api: own }), checkSemantics(cold.resources, { api: own }), own);
      assert.is(usesSourceNames(warm.resources), usesSourceNames(cold.resources));
      assert.ok(others.every(unread), 'the checks read the document of a dashboard no alert is on');
      // Another API (the project file changed since): the documents are read, the same problems found.
      for (const api of APIS) assert.equal(checkSemantics(warm.resources, { api }), checkSemantics(cold.resources, { api }), api);
      // The facts are what the document gives, and the document is the fresh parse.
      for (const r of dashboards) {
        const { desired, ...facts } = r.facts!;
        assert.equal(facts, dashboardFacts(r.doc as never, warm.project!.spec.observability?.api ?? 'seed'));
        assert.is(desired?.[0], warm.project!.markerTag);
      }
      assert.equal(warm.resources, cold.resources);
      if (name === 'the problems project') {
        const messages = APIS.flatMap((api) => checkSemantics(cold.resources, { api }).map((x) => x.message)).join('\n');
        for (const want of [
          'duplicate tile name',
          'beyond the 24-column grid',
          '51 tags',
          'characters; the',
          'is a table chart',
          'has no tile named',
          'two dashboards are named',
          'quantile level',
        ])
          assert.match(messages, want);
      }
    } finally {
      p.cleanup();
    }
  });
}

test('facts: a warm plan of unchanged dashboards reads none of their documents; a changed one reads its own', async () => {
  const p = tmpProject({
    'steward.yaml': PROJECT,
    'dash/one.yaml': dash('one', `  tiles:\n${tile('A', ', series: [{ type: time, dataSource: events, aggFn: count }]')}`),
    'dash/two.yaml': dash('two', '  tiles: []\n'),
  });
  try {
    const { cold, warm } = await loads(p.dir);
    const marker = warm.project!.markerTag;
    const plan = (resources: AnyResource[], live: LiveDashboardInput[]) =>
      computePlan({ resources, live, state: { formatVersion: 1, alerts: {} }, markerTag: marker, now: new Date(0), projectDir: p.dir, newId: () => 'f1' });
    // The live side as an apply of these files made it.
    const created = plan(cold.resources, []).items.map((i, k) => ({ ...(i.body as object), id: `65f5e4a3b9e77c001a00000${k}` }) as LiveDashboardInput);
    const unchanged = plan(warm.resources, created);
    assert.equal(unchanged.summary, { create: 0, update: 0, noop: 2, blocked: 0, blockedByReason: {} });
    assert.ok(warm.resources.every(unread), 'an unchanged dashboard was read');
    // WHEN one live dashboard differs THEN only its document is read, and the plan is the one from fresh documents
    const drifted = created.map((d, k) => (k === 0 ? { ...d, name: d.name, tags: [...(d.tags ?? []), 'extra'] } : d));
    const again = await loads(p.dir);
    const warmPlan = plan(again.warm.resources, drifted);
    assert.equal(
      again.warm.resources.map(unread),
      again.warm.resources.map((r) => r.name !== 'one'),
    );
    const { createdAt: _a, ...w } = warmPlan;
    const { createdAt: _b, ...c } = plan(again.cold.resources, drifted);
    assert.equal(w, c);
  } finally {
    p.cleanup();
  }
});

test.run();
