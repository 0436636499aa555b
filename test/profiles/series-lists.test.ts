/**
 * A HyperDX 2026-01-30 server (series-server.ts in front of `emulator --api hyperdx`) keeps a series' groupBy
 * and a search series' fields as one comma-separated text (`groupBy.join(',')`, `fields.join(', ')`) and answers
 * them split at the commas outside brackets and quotes, each part trimmed. A file saying `" ServiceName"` or
 * `"Body,SeverityText"` planned as a change after every apply. Through the built CLI: validate warns at each such
 * item (file:line:col), and the plan after apply is empty; `concat(a, b)` stays one field.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { join } from 'node:path';
import { HX_SOURCE_IDS, startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { startSeriesServer } from './series-server.ts';

const LOGS = HX_SOURCE_IDS.Logs;

const PROJECT = [
  'apiVersion: steward/v1',
  'kind: Project',
  'metadata: { name: lists }',
  'spec:',
  '  resources: ["dashboards/*.yaml"]',
  '  observability: { api: hyperdx, url: "${STEWARD_OBS_URL}", token: { env: STEWARD_OBS_TOKEN } }',
  '  state: .steward/state.json',
  '',
].join('\n');

const DASHBOARD = [
  'apiVersion: steward/v1', // 1
  'kind: Dashboard',
  'metadata: { name: lists }',
  'spec:',
  '  name: Lists', // 5
  '  tiles:',
  '    - name: By service',
  '      x: 0',
  '      y: 0',
  '      w: 12', // 10
  '      h: 3',
  '      series:',
  '        - type: time',
  `          sourceId: "${LOGS}"`,
  '          aggFn: count', // 15
  '          where: ""',
  '          whereLanguage: lucene',
  '          groupBy: [" ServiceName", "host,region"]',
  '    - name: Recent',
  '      x: 12', // 20
  '      y: 0',
  '      w: 12',
  '      h: 3',
  '      series:',
  '        - type: search', // 25
  `          sourceId: "${LOGS}"`,
  '          where: ""',
  '          whereLanguage: lucene',
  '          fields: [Timestamp, "Body, SeverityText ", "concat(a, b)"]',
  '',
].join('\n');

test('2026-01-30: groupBy and fields with spaces or commas warn at the item in validate, and plan as unchanged after apply', async () => {
  const emu = await startEmulator({ api: 'hyperdx', seed: 12 });
  const server = await startSeriesServer(emu.url);
  const p = tmpProject({ 'steward.yaml': PROJECT, 'dashboards/lists.yaml': DASHBOARD });
  try {
    const env = { ...emu.env, STEWARD_OBS_URL: server.url, XDG_CACHE_HOME: join(p.dir, '.cache') };
    const run = (...args: string[]) => steward(args, { cwd: p.dir, env, spawn: true, timeoutMs: 60_000 });

    // WHEN the files are validated
    const validate = await run('validate');
    const out = validate.stdout + validate.stderr;
    assert.is(validate.code, 0, out);
    // THEN each item the server would change is a warning at its place, saying what the server keeps
    assert.match(out, /lists\.yaml:18:\d+\s+\/spec\/tiles\/0\/series\/0\/groupBy\/0\s+warning: " ServiceName" is stored as "ServiceName" \(trimmed\)/);
    assert.match(
      out,
      /lists\.yaml:18:\d+\s+\/spec\/tiles\/0\/series\/0\/groupBy\/1\s+warning: "host,region" is split at its commas into 2 groupBy fields: "host", "region"/,
    );
    assert.match(out, /lists\.yaml:29:\d+\s+\/spec\/tiles\/1\/series\/0\/fields\/1\s+warning: "Body, SeverityText " is split at its commas into 2 fields/);
    assert.not.match(out, /fields\/0|fields\/2/, 'Timestamp and concat(a, b) are kept as they are');

    // WHEN applied
    const apply = await run('apply', '--auto-approve');
    assert.is(apply.code, 0, apply.stdout + apply.stderr);
    // THEN the next plan has nothing to do
    const again = await run('plan', '--detailed-exitcode');
    assert.is(again.code, 0, again.stdout + again.stderr);
  } finally {
    await server.close();
    await emu.close();
    p.cleanup();
  }
});

test.run();
