/**
 * Source and webhook lists as HyperDX 2026-08 allows them: a source's `id` is optional there. An entry without
 * an id (or a name) no longer makes the whole list unreadable (found by the hyperdx conformance run, sparse
 * generated answers: plan stopped on `data[0].id: is required but missing`); it resolves nothing, and a file
 * naming exactly that source gets one problem at the name.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { processFile } from '../../src/config/resources.ts';
import { checkResponse } from '../../src/clients/validate.ts';
import { resolveSourceNames } from '../../src/plan/names.ts';

const FILE = `apiVersion: steward/v1
kind: Dashboard
metadata: { name: d }
spec:
  name: D
  tiles:
    - { name: a, x: 0, y: 0, w: 6, h: 3, config: { displayType: line, source: Logs, select: [{ aggFn: count }] } }
    - { name: b, x: 6, y: 0, w: 6, h: 3, config: { displayType: line, source: Traces, select: [{ aggFn: count }] } }
`;
const resources = processFile('dashboards/d.yaml', Buffer.from(FILE), {}, { isProjectFile: false }).resources;

test('a source list with entries lacking id or name is read', () => {
  const body = { data: [{ name: 'Traces', kind: 'trace' }, { id: '65f5e4a3b9e77c001a111111', name: 'Logs' }, { id: '65f5e4a3b9e77c001a111112' }] };
  assert.equal(checkResponse('observability.named', body), []);
  assert.equal(checkResponse('clickstack.named', { result: body.data }), []);
});

test('names resolve to the entries that have an id; a name matching only an id-less entry is one problem', () => {
  const { resources: out, problems } = resolveSourceNames(resources, [
    { name: 'Traces' },
    { id: '65f5e4a3b9e77c001a111111', name: 'Logs' },
    { id: '65f5e4a3b9e77c001a111112' },
  ]);
  const tiles = (out[0]!.doc.spec as { tiles: Array<{ config: Record<string, unknown> }> }).tiles;
  assert.is(tiles[0]!.config['sourceId'], '65f5e4a3b9e77c001a111111');
  assert.equal(
    problems.map((p) => [p.pointer, p.message]),
    [['/spec/tiles/1/config/source', 'the service lists the source "Traces" without an id: give sourceId instead']],
  );
});

test.run();
