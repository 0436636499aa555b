/**
 * A heatmap tile reads a trace source only: HyperDX 2026-08's HeatmapChartConfig "currently supports trace
 * sources", and the server refuses another kind with a 400 ("Heatmap tiles require a Trace source", as the
 * emulator answers). A file's `source: Logs` on a heatmap passed validate and plan, and the create failed.
 * The source list plan reads for names says each source's kind: such a name is now a problem at the name,
 * before anything is sent. A trace source, a source without a kind, and other display types are untouched.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { processFile } from '../../src/config/resources.ts';
import { resolveSourceNames } from '../../src/plan/names.ts';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';

const LOGS = '65f5e4a3b9e77c001a111111';
const TRACES = '65f5e4a3b9e77c001a111112';

function dashboard(source: string, displayType = 'heatmap'): string {
  const select = displayType === 'heatmap' ? '[{ valueExpression: Duration }]' : '[{ aggFn: count }]';
  return `apiVersion: steward/v1
kind: Dashboard
metadata: { name: d }
spec:
  name: D
  tiles:
    - { name: h, x: 0, y: 0, w: 6, h: 3, config: { displayType: ${displayType}, source: ${source}, select: ${select} } }
`;
}

const resources = (text: string) => processFile('dashboards/d.yaml', Buffer.from(text), {}, { isProjectFile: false }).resources;

test('a heatmap naming a source of another kind is a problem at the name; a trace source, no kind, or a line are not', () => {
  const sources = [
    { id: LOGS, name: 'Logs', kind: 'log' },
    { id: TRACES, name: 'Traces', kind: 'trace' },
    { id: '65f5e4a3b9e77c001a111113', name: 'Plain' },
  ];
  const rows: [string, string, string[]][] = [
    [
      dashboard('Logs'),
      'heatmap on a log source',
      [
        '/spec/tiles/0/config/source: source "Logs" is a log source; a heatmap tile reads a trace source only (the service refuses it: "Heatmap tiles require a Trace source")',
      ],
    ],
    [dashboard('Traces'), 'heatmap on a trace source', []],
    [dashboard('Plain'), 'a source the list gives no kind', []],
    [dashboard('Logs', 'line'), 'a line on a log source', []],
  ];
  for (const [text, label, want] of rows) {
    const { problems } = resolveSourceNames(resources(text), sources);
    assert.equal(
      problems.map((p) => `${p.pointer}: ${p.message}`),
      want,
      label,
    );
  }
  // Two sources of one name: the one problem is the ambiguity, not a kind.
  const twice = resolveSourceNames(resources(dashboard('Logs')), [...sources, { id: '65f5e4a3b9e77c001a111114', name: 'Logs', kind: 'trace' }]);
  assert.equal(twice.problems.length, 1);
  assert.match(twice.problems[0]!.message, /2 sources are named "Logs"/);
});

test('plan against the hyperdx emulator stops at the name, one line, nothing sent; with Traces it plans the create', async () => {
  const emu = await startEmulator({ api: 'hyperdx', seed: 5 });
  const p = tmpProject({});
  try {
    writeFileSync(
      join(p.dir, 'steward.yaml'),
      `apiVersion: steward/v1
kind: Project
metadata: { name: heat }
spec:
  resources: [dashboards/*.yaml]
  observability:
    api: hyperdx
    url: \${STEWARD_OBS_URL}
    token: { env: STEWARD_OBS_TOKEN }
    requestsPerMinute: 6000
`,
    );
    mkdirSync(join(p.dir, 'dashboards'));
    writeFileSync(join(p.dir, 'dashboards', 'd.yaml'), dashboard('Logs'));
    const env = { ...emu.env, XDG_CACHE_HOME: join(p.dir, '.cache') };
    const refused = await steward(['apply', '--auto-approve'], { cwd: p.dir, env });
    assert.is(refused.code, 1, refused.stdout + refused.stderr);
    assert.match(refused.stderr, /dashboards\/d\.yaml:\d+:\d+ .*source "Logs" is a log source; a heatmap tile reads a trace source only/);
    assert.not.match(refused.stderr, /\n\s+at /, 'no stack trace');
    assert.ok(
      emu.requests().every((r) => r.method === 'GET'),
      'nothing was sent',
    );
    writeFileSync(join(p.dir, 'dashboards', 'd.yaml'), dashboard('Traces'));
    const applied = await steward(['apply', '--auto-approve'], { cwd: p.dir, env });
    assert.is(applied.code, 0, applied.stdout + applied.stderr);
    assert.is(emu.state().dashboards.length, 1);
  } finally {
    p.cleanup();
    await emu.close();
  }
});

test.run();
