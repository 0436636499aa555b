/**
 * The cloud client's profiles (cloud.api): each reads its own paths, with its own response schemas. The
 * `seed` profile keeps the seed's required members; `clickhouse-cloud` requires none, as the real spec.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CLOUD_PROFILES, cloudProfile, createCloudClient, NotFoundError, type CloudApi } from '../../src/clients/index.ts';
import { CliError } from '../../src/errors.ts';
import { json, rejects, startServer, KEY_ID, KEY_SECRET } from './helpers.ts';

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

test('a 404 on a read whose path another profile spells differently names that profile and where to set it; backups (the same path) get no hint', async () => {
  const server = await startServer((_req, res) => json(res, 404, { status: 404, error: 'Not found', requestId: 'r' }));
  try {
    const cases = [
      ['seed', undefined, 'the seed cloud API (ingest pipes)', '`cloud.api: clickhouse-cloud` for ClickHouse Cloud API v1 (ClickPipes)', 'steward.yaml'],
      [
        'clickhouse-cloud',
        'cloud/steward.yaml:7:10',
        'ClickHouse Cloud API v1 (ClickPipes)',
        '`cloud.api: seed` for the seed cloud API (ingest pipes)',
        'cloud/steward.yaml:7:10',
      ],
    ] as const;
    for (const [api, apiSetting, current, other, where] of cases) {
      const c = createCloudClient({ api, url: server.url, keyId: KEY_ID, keySecret: KEY_SECRET, retry: { limit: 0 }, ...(apiSetting ? { apiSetting } : {}) });
      for (const read of [() => c.listIngestPipes(ORG, SVC), () => c.listReversePrivateEndpoints(ORG, SVC)]) {
        const e = await rejects(read);
        assert.instance(e, NotFoundError);
        assert.ok(
          e.message.endsWith(
            `→ 404 Not Found: Not found (request id r); the server does not speak ${current} at this path (cloud.api: ${api}); set ${other} in ${where}, or check the URL and ids`,
          ),
          e.message,
        );
      }
      for (const read of [() => c.listBackups(ORG, SVC), () => c.getBackup(ORG, SVC, 'b-1')]) {
        const e = await rejects(read);
        assert.instance(e, NotFoundError);
        assert.match(e.message, /→ 404 Not Found: Not found \(request id r\)$/);
      }
    }
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
