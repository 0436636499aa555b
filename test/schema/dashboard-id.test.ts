/**
 * A dashboard's metadata.id pins its file to the live dashboard the service assigned that id. The seed API's
 * ids are 24 lowercase hex characters; HyperDX's and ClickStack's specs say only `id: {type: string}`
 * (DashboardResponse in HyperDX 2026-08-21, ClickStackDashboardResponse in ClickHouse Cloud 2026-07-31), as
 * for alerts (test/schema/alert-id.test.ts). The dashboard schema refused every id but 24 hex on every
 * profile, so a file could not be pinned to a dashboard such a server lists. Now the rule is the seed
 * profile's: the schema takes any non-empty id, the seed profile refuses the rest with the same message.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { validateKind } from '../../src/schema/validator.ts';
import { dashboardResource, semanticErrors } from '../helpers/resource.ts';

/** The dashboard's id problems on a profile: the schema's, then the profile's. */
function idErrors(id: string, api: string): string[] {
  const r = dashboardResource({ name: 'D', tiles: [] });
  (r.doc.metadata as { id?: string }).id = id;
  const schema = validateKind('Dashboard', r.doc).map((p) => `${p.pointer}: ${p.message}`);
  return [...schema, ...semanticErrors(r, api)].filter((e) => e.startsWith('/metadata/id'));
}

const HEX = '65f5e4a3b9e77c001a567890';
const CASES: Array<[id: string, api: string, refused: boolean]> = [
  [HEX, 'seed', false],
  ['fugiat cillum', 'seed', true],
  ['65F5E4A3B9E77C001A567890', 'seed', true],
  ['dash-1', 'seed', true],
  [HEX, 'hyperdx', false],
  ['fugiat cillum', 'hyperdx', false],
  ['dash-1', 'hyperdx', false],
  [HEX, 'clickstack-cloud', false],
  ['7b3b1c2e-1111-4222-8333-444455556666', 'clickstack-cloud', false],
];

test('dashboard metadata.id: 24 lowercase hex on the seed API, any id the service assigned on hyperdx and clickstack-cloud', () => {
  for (const [id, api, refused] of CASES) {
    const got = idErrors(id, api);
    if (refused)
      assert.equal(got, [`/metadata/id: the string "${id}" is not valid: must be 24 lowercase hex characters (an id the service assigned)`], `${api} ${id}`);
    else assert.equal(got, [], `${api} ${id}`);
  }
});

test('dashboard metadata.id: an empty id is refused on every profile', () => {
  for (const api of ['seed', 'hyperdx', 'clickstack-cloud']) assert.ok(idErrors('', api).length > 0, api);
});

test.run();
