/**
 * import on the hyperdx profile never writes a file steward would refuse, and never stops the whole import
 * for one: each dashboard or alert it cannot write as the server sent it is skipped in one line, the rest is
 * written, exit 1 (found by the conformance runs against generated HyperDX 2026-08-21 answers; the spec
 * leaves savedSearchId and thresholdMax optional, and allows 50 tags).
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { json, startServer } from '../clients/helpers.ts';

const GOOD = {
  id: '65f5e4a3b9e77c001a567890',
  name: 'Good',
  tags: ['a'],
  tiles: [
    {
      id: '65f5e4a3b9e77c001a901234',
      name: 'Count',
      x: 0,
      y: 0,
      w: 6,
      h: 2,
      config: { displayType: 'number', sourceId: '65f5e4a3b9e77c001a111111', select: [{ aggFn: 'count' }] },
    },
  ],
};
const TAGGED = { id: '65f5e4a3b9e77c001a567891', name: 'Fifty tags', tags: Array.from({ length: 50 }, (_, i) => `t${i}`), tiles: [] };
const ALERTS = [
  {
    id: '65f5e4a3b9e77c001a123456',
    name: 'Saved search without id',
    source: 'saved_search',
    threshold: 1,
    thresholdType: 'above',
    interval: '5m',
    channel: { type: 'webhook', webhookId: '65f5e4a3b9e77c001a789012' },
  },
  {
    id: '65f5e4a3b9e77c001a123458',
    name: 'Fine',
    source: 'tile',
    dashboardId: GOOD.id,
    tileId: GOOD.tiles[0]!.id,
    threshold: 1,
    thresholdType: 'above',
    interval: '5m',
    channel: { type: 'webhook', webhookId: '65f5e4a3b9e77c001a789012' },
  },
];

test('import --all skips, one line each, a dashboard with no room for the marker tag and alerts steward cannot say; writes the rest', async () => {
  const server = await startServer((req, res) => {
    const path = (req.url ?? '').replace(/\?.*/, '');
    if (path === '/api/v2/dashboards') return json(res, 200, { data: [GOOD, TAGGED] });
    if (path === '/api/v2/alerts') return json(res, 200, { data: ALERTS, meta: { total: ALERTS.length, limit: 100, offset: 0 } });
    if (path === '/api/v2/sources' || path === '/api/v2/webhooks') return json(res, 200, { data: [], meta: { total: 0, limit: 100, offset: 0 } });
    json(res, 404, { message: 'no' });
  });
  const p = tmpProject({
    'steward.yaml': `apiVersion: steward/v1\nkind: Project\nspec:\n  resources: ["dashboards/**/*.yaml", "alerts/**/*.yaml"]\n  observability: { api: hyperdx, url: "\${STEWARD_OBS_URL}", token: { env: STEWARD_OBS_TOKEN } }\n`,
  });
  try {
    const r = await steward(['import', '--all', '--out', 'imported'], { cwd: p.dir, env: { STEWARD_OBS_URL: server.url, STEWARD_OBS_TOKEN: 'tok' } });
    assert.is(r.code, 1, r.stdout + r.stderr);
    assert.is(r.stderr, '');
    const skipped = r.stdout.split('\n').filter((l) => l.startsWith('  - skipped'));
    assert.equal(skipped, [
      `  - skipped "Fifty tags" (${TAGGED.id}): 50 tags; the hyperdx API takes at most 49 besides steward's marker tag`,
      `  - skipped alert "Saved search without id" (${ALERTS[0]!.id}): /spec: a saved_search alert needs savedSearchId`,
    ]);
    assert.equal(readdirSync(join(p.dir, 'imported')).sort(), ['fine.yaml', 'good.yaml']);
    assert.not.ok(existsSync(join(p.dir, 'imported/fifty-tags.yaml')));
    const v = await steward(['validate', 'imported'], { cwd: p.dir });
    assert.is(v.code, 0, v.stdout + v.stderr);
  } finally {
    p.cleanup();
    await server.close();
  }
});

test.run();
