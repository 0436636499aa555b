/**
 * `steward import` rewrites a declared file in place and keeps its formatting: a new line that differs from an
 * old one only in spacing around brackets or before `#` is taken from the old text, and changed lines get
 * the file's flow style (`[a]`, not `[ a ]`). Both read whole lines, quoted text included: a live
 * `arr[1]` over a file's `arr[ 1 ]` kept the old value, and a live `arr[ 1 ]` was written as `arr[1]`. The
 * rewrite then said "the file still differs" every time, and plan showed the drift import was to remove.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseDocument } from 'yaml';
import { startEmulator } from '../../src/emulator/index.ts';
import { syncDashboardSpec } from '../../src/render/dashboard-sync.ts';
import { steward } from '../helpers/exec.ts';
import { copyExample } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';

const file = (tags: string, markdown: string) =>
  [
    'kind: Dashboard',
    'metadata: { name: d }',
    'spec:',
    '  name: D',
    `  tags: ${tags}  # kept`,
    '  tiles:',
    '    - name: T',
    `      markdown: ${JSON.stringify(markdown)}`,
    '',
  ].join('\n');

const cases: Array<{ what: string; tags: string; was: string; now: string }> = [
  { what: 'brackets closed up where the file pads none', tags: '[a, b]', was: 'old', now: 'see [ docs ] and { x }' },
  { what: 'brackets kept from the old line', tags: '[a, b]', was: 'arr[ 1 ]', now: 'arr[1]' },
  { what: 'spaces before # kept from the old line', tags: '[ a, b ]', was: 'x  # not a comment', now: 'x # not a comment' },
  { what: 'spaces after { kept from the old line', tags: '[ a, b ]', was: 'f({  x })', now: 'f({x })' },
];

for (const c of cases) {
  test(`syncDashboardSpec writes the live text: ${c.what}`, () => {
    const r = syncDashboardSpec(file(c.tags, c.was), 0, { name: 'D', tags: ['a', 'b'], tiles: [{ name: 'T', markdown: c.now }] });
    const spec = (parseDocument(r.text).toJS() as { spec: { tiles: Array<{ markdown: string }> } }).spec;
    assert.is(spec.tiles[0]!.markdown, c.now);
    assert.match(r.text, `  tags: ${c.tags}  # kept`, 'the lines that did not change keep their style');
  });
}

test('hyperdx: import rewrites a markdown tile whose live text differs only in spacing inside brackets, and plan then shows nothing', async () => {
  const p = tmpProject({});
  const emu = await startEmulator({ api: 'hyperdx', seed: 7 });
  try {
    copyExample(p.dir, 'hyperdx');
    const env: Record<string, string> = { ...(emu.env as Record<string, string>), XDG_CACHE_HOME: join(p.dir, '.cache') };
    const a = await steward(['apply', '--auto-approve'], { cwd: p.dir, env });
    assert.is(a.code, 0, a.stdout + a.stderr);
    // The live dashboard's Runbook tile is edited in the UI: its text now holds "[ 1 ]" (the file pads no brackets).
    const url = `${env['STEWARD_OBS_URL']}/api/v2/dashboards`;
    const headers = { authorization: `Bearer ${env['STEWARD_OBS_TOKEN']}`, 'content-type': 'application/json' };
    const list = (await (await fetch(url, { headers })).json()) as {
      data: Array<{ id: string; name: string; tiles: Array<{ name: string; config: Record<string, unknown> }> }>;
    };
    const live = list.data.find((d) => d.name === 'Checkout overview (HyperDX)')!;
    const text = 'On call? Read step [ 1 ] of the runbook';
    for (const t of live.tiles) if (t.name === 'Runbook') t.config['markdown'] = text;
    const { id, ...body } = live;
    const put = await fetch(`${url}/${id}`, { method: 'PUT', headers, body: JSON.stringify(body) });
    assert.is(put.status, 200, await put.text());
    const imp = await steward(['import', '--name', 'Checkout overview (HyperDX)'], { cwd: p.dir, env });
    assert.is(imp.code, 0, imp.stdout + imp.stderr);
    assert.match(imp.stdout, '~ dashboards/checkout.yaml');
    assert.not.match(imp.stdout, 'still differs');
    assert.match(readFileSync(join(p.dir, 'dashboards', 'checkout.yaml'), 'utf8'), `markdown: "${text}"`);
    const plan = await steward(['plan', '--detailed-exitcode'], { cwd: p.dir, env });
    assert.is(plan.code, 0, plan.stdout + plan.stderr);
  } finally {
    await emu.close();
    p.cleanup();
  }
});

test.run();
