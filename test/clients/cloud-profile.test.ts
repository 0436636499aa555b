/**
 * The cloud client's profiles (cloud.api): each reads its own paths, with its own response schemas. The
 * `seed` profile keeps the seed's required members; `clickhouse-cloud` requires none, as the real spec.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CLOUD_PROFILES, cloudProfile, createCloudClient, type CloudApi } from '../../src/clients/index.ts';
import { CliError } from '../../src/errors.ts';
import { json, startServer, KEY_ID, KEY_SECRET } from './helpers.ts';

const ORG = '6f1c2d3e-0000-4000-8000-000000000001';
const SVC = '9a2b3c4d-0000-4000-8000-000000000002';
const BASE = `/v1/organizations/${ORG}/services/${SVC}`;

/** A server answering every path with `{result: ...}`: lists hold one item with no members, one backup is `{}`. */
async function serve() {
  return startServer((req, res) => {
    const path = (req.url ?? '').split('?')[0]!;
    json(res, 200, { status: 200, requestId: 'r', result: /\/backups\/[^/]+$/.test(path) ? {} : [{}] });
  });
}

const client = (api: CloudApi | undefined, url: string) =>
  createCloudClient({ ...(api ? { api } : {}), url, keyId: KEY_ID, keySecret: KEY_SECRET, retry: { limit: 0 } });

test('each profile reads its own paths (seed by default)', async () => {
  const server = await serve();
  try {
    for (const [api, pipes, endpoints] of [
      [undefined, 'ingestpipes', 'ingestpipesReversePrivateEndpoints'],
      ['seed', 'ingestpipes', 'ingestpipesReversePrivateEndpoints'],
      ['clickhouse-cloud', 'clickpipes', 'clickpipesReversePrivateEndpoints'],
    ] as const) {
      server.requests.length = 0;
      const c = client(api, server.url);
      assert.is(c.profile.api, api ?? 'seed');
      // Only clickhouse-cloud accepts items without their key members; the seed's schemas require them.
      const read = async (f: () => Promise<unknown>) => {
        try {
          return await f();
        } catch (e) {
          return e;
        }
      };
      await read(() => c.listIngestPipes(ORG, SVC));
      await read(() => c.listReversePrivateEndpoints(ORG, SVC));
      await read(() => c.listBackups(ORG, SVC));
      await read(() => c.getBackup(ORG, SVC, 'b-1'));
      assert.equal(
        server.requests.map((r) => r.url),
        [`${BASE}/${pipes}`, `${BASE}/${endpoints}`, `${BASE}/backups`, `${BASE}/backups/b-1`],
        String(api),
      );
    }
  } finally {
    await server.close();
  }
});

test('clickhouse-cloud takes items without any member (the real spec requires none); seed refuses them', async () => {
  const server = await serve();
  try {
    const real = client('clickhouse-cloud', server.url);
    assert.equal(await real.listIngestPipes(ORG, SVC), { items: [{}], malformed: [] });
    assert.equal(await real.listReversePrivateEndpoints(ORG, SVC), { items: [{}], malformed: [] });
    assert.equal(await real.listBackups(ORG, SVC), { items: [{}], malformed: [] });
    assert.equal(await real.getBackup(ORG, SVC, 'b-1'), { item: {}, malformed: undefined });
    // The seed's schemas require the key members: the item is malformed and left out, the read stands.
    const seed = client('seed', server.url);
    const pipes = await seed.listIngestPipes(ORG, SVC);
    assert.equal(pipes.items, []);
    assert.equal(
      pipes.malformed.map((m) => [m.index, m.kept, m.problems.map((p) => `${p.field}: ${p.message}`)]),
      [[0, false, ['id: is required but missing', 'name: is required but missing']]],
    );
  } finally {
    await server.close();
  }
});

test('the profile table and an unknown profile', () => {
  assert.equal(Object.keys(CLOUD_PROFILES).sort(), ['clickhouse-cloud', 'seed']);
  for (const p of Object.values(CLOUD_PROFILES)) assert.is(p.paths.backups, '/backups');
  try {
    cloudProfile('clickhouse' as CloudApi);
    assert.unreachable();
  } catch (e) {
    assert.instance(e, CliError);
    assert.match((e as Error).message, /unknown cloud API profile "clickhouse": use seed or clickhouse-cloud/);
  }
  try {
    cloudProfile('toString' as CloudApi);
    assert.unreachable();
  } catch (e) {
    assert.instance(e, CliError);
  }
});

test.run();
