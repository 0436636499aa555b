/**
 * A dashboard's own bounds on the live profiles (no server): HyperDX 2026-08's CreateDashboardRequest and
 * UpdateDashboardRequest take a name of at most 1,024 characters and at most 500 tiles. validate passed longer
 * ones and the create was refused with a 400; the seed API states no bound, so its profile takes them.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { AnyResource } from '../../src/model/resource.ts';
import { checkSemantics } from '../../src/schema/semantic.ts';
import { dashboardResource } from '../helpers/resource.ts';

function dashboard(name: string, tiles: number): AnyResource {
  const tile = (i: number) => ({ name: `T${i}`, x: 0, y: i * 2, w: 6, h: 2, config: { displayType: 'markdown', markdown: 'x' } });
  return dashboardResource({ name, tiles: Array.from({ length: tiles }, (_, i) => tile(i)) });
}

const errors = (r: AnyResource, api: string) =>
  checkSemantics([r], { api })
    .filter((p) => p.severity === 'error')
    .map((p) => `${p.pointer}: ${p.message}`);

for (const api of ['hyperdx', 'clickstack-cloud']) {
  test(`${api}: a name of 1,024 characters and 500 tiles pass; one more of either is refused at its place`, () => {
    assert.equal(errors(dashboard('n'.repeat(1024), 500), api), []);
    assert.equal(errors(dashboard('n'.repeat(1025), 1), api), [`/spec/name: the name is 1025 characters; the ${api} API takes at most 1024`]);
    assert.equal(errors(dashboard('D', 501), api), [`/spec/tiles: 501 tiles; the ${api} API takes at most 500`]);
  });
}

test('seed: no bound', () => {
  assert.equal(errors(dashboard('n'.repeat(1025), 0), 'seed'), []);
});

test.run();
