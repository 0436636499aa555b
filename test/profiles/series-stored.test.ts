/**
 * A HyperDX 2026-01-30 server (series-server.ts: a proxy answering series in front of `emulator --api hyperdx`)
 * and what it stores otherwise than a file says it, end to end through the built CLI:
 * - a numberFormat.mantissa of 2.5, which its spec types a number: import skipped the dashboard (steward's
 *   schema took integers only); now it is imported, validates with a warning, and plans as unchanged;
 * - a series without field, answered as `field: ''`, and a level of 0, which it does not store (pickIfTruthy):
 *   a file saying either planned as a change after every apply; now the plan after apply is empty.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HX_SOURCE_IDS, startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { startSeriesServer } from './series-server.ts';

const LOGS = HX_SOURCE_IDS.Logs;
const NAME = 'Two and a half';

const PROJECT = [
  'apiVersion: steward/v1',
  'kind: Project',
  'metadata: { name: stored }',
  'spec:',
  '  resources: ["imported/two-and-a-half.yaml", "dashboards/*.yaml"]',
  '  observability: { api: hyperdx, url: "${STEWARD_OBS_URL}", token: { env: STEWARD_OBS_TOKEN } }',
  '  state: .steward/state.json',
  '',
].join('\n');

/** Written by hand: a count without field, a quantile at level 0. */
const HAND = [
  'apiVersion: steward/v1',
  'kind: Dashboard',
  'metadata: { name: by-hand }',
  'spec:',
  '  name: By hand',
  '  tiles:',
  '    - name: Requests',
  '      x: 0',
  '      y: 0',
  '      w: 12',
  '      h: 3',
  '      series:',
  '        - type: time',
  `          sourceId: "${LOGS}"`,
  '          aggFn: count',
  '          where: ""',
  '          whereLanguage: lucene',
  '          groupBy: []',
  '    - name: Fastest',
  '      x: 12',
  '      y: 0',
  '      w: 12',
  '      h: 3',
  '      series:',
  '        - type: table',
  `          sourceId: "${LOGS}"`,
  '          aggFn: quantile',
  '          level: 0',
  '          field: Duration',
  '          where: ""',
  '          whereLanguage: lucene',
  '          groupBy: [ServiceName]',
  '',
].join('\n');

test('2026-01-30: a mantissa of 2.5 is imported and plans as unchanged; level 0 and no field plan as unchanged after apply', async () => {
  const emu = await startEmulator({ api: 'hyperdx', seed: 11 });
  // The dashboard was saved by 2026-01-30 with mantissa 2.5 (the emulator, as 2026-08, stores integers only).
  const server = await startSeriesServer(emu.url, (d) => {
    if (d['name'] !== NAME) return;
    for (const t of d['tiles'] as Array<{ series: Array<{ numberFormat?: { mantissa?: number } }> }>)
      for (const s of t.series) if (s.numberFormat?.mantissa === 2) s.numberFormat.mantissa = 2.5;
  });
  const p = tmpProject({ 'steward.yaml': PROJECT, 'dashboards/by-hand.yaml': HAND });
  try {
    const made = await fetch(`${emu.url}/api/v2/dashboards`, {
      method: 'POST',
      headers: { authorization: 'Bearer dev-token', 'content-type': 'application/json' },
      body: JSON.stringify({
        name: NAME,
        tiles: [
          {
            name: 'Rate',
            x: 0,
            y: 0,
            w: 6,
            h: 3,
            series: [{ type: 'number', sourceId: LOGS, aggFn: 'count', where: '', whereLanguage: 'lucene', numberFormat: { output: 'number', mantissa: 2 } }],
          },
        ],
      }),
    });
    assert.is(made.status, 200, await made.text());
    const env = { ...emu.env, STEWARD_OBS_URL: server.url, XDG_CACHE_HOME: join(p.dir, '.cache') };
    const run = (...args: string[]) => steward(args, { cwd: p.dir, env, spawn: true, timeoutMs: 60_000 });

    // WHEN the dashboard is imported from the server that answers series
    const imp = await run('import', '--all', '--out', 'imported');
    assert.is(imp.code, 0, imp.stdout + imp.stderr);
    assert.not.match(imp.stdout + imp.stderr, 'skipped');
    // THEN the file has the mantissa the server holds
    const text = readFileSync(join(p.dir, 'imported', 'two-and-a-half.yaml'), 'utf8');
    assert.match(text, 'mantissa: 2.5', text);

    // AND validate takes it, warning that 2026-08 would not, and of the level 0 the server will not store
    const validate = await run('validate');
    assert.is(validate.code, 0, validate.stdout + validate.stderr);
    assert.match(validate.stdout + validate.stderr, /numberFormat\/mantissa\s+warning: mantissa is 2.5: HyperDX 2026-01-30 stores it/);
    assert.match(validate.stdout + validate.stderr, /series\/0\/level\s+warning: level 0 is not stored/);

    // WHEN the hand-written dashboard is applied
    const apply = await run('apply', '--auto-approve');
    assert.is(apply.code, 0, apply.stdout + apply.stderr);
    assert.match(apply.stdout, /by-hand/);

    // THEN the next plan has nothing to do: no field is field '', level 0 no level, mantissa 2.5 as imported
    const again = await run('plan', '--detailed-exitcode');
    assert.is(again.code, 0, again.stdout + again.stderr);
  } finally {
    await server.close();
    await emu.close();
    p.cleanup();
  }
});

test.run();
