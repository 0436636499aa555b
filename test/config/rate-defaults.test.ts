/**
 * The client rate a connection gets when the project sets no `requestsPerMinute`: 100 a minute, except
 * through ClickHouse Cloud (`cloud.api: clickhouse-cloud`, `observability.api: clickstack-cloud`), which
 * documents 10 requests in any 10 s per API key: 50 a minute there. A value in the project file (or an
 * environment overlay) always wins.
 */
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveCloud, resolveObservability } from '../../src/config/connection.ts';
import { nodeFileSystem } from '../../src/config/fs.ts';
import { loadProject } from '../../src/config/project.ts';
import { tmpProject } from '../helpers/tmp.ts';

const ENV = { T: 'token', I: 'key-id', S: 'key-secret', ORG: '6f1c4a52-3b7e-4d2a-9c1f-0e5b8a7d6c31', SVC: '9a2b7c1d-4e5f-4a6b-8c7d-1e2f3a4b5c6d' };

function connection(obs: string, cloud: string, overlay = ''): { obs: number; cloud: number } {
  const p = tmpProject({
    'steward.yaml': `apiVersion: steward/v1
kind: Project
spec:
  observability: { ${obs} }
  cloud: { ${cloud} }
${overlay}`,
  });
  try {
    const project = loadProject(nodeFileSystem, join(p.dir, 'steward.yaml'), {}, overlay ? 'slow' : undefined);
    return { obs: resolveObservability(project, ENV).requestsPerMinute, cloud: resolveCloud(project, ENV).requestsPerMinute };
  } finally {
    p.cleanup();
  }
}

const SEED_OBS = 'url: "https://o", token: { env: T }';
const HYPERDX = `api: hyperdx, ${SEED_OBS}`;
const CLICKSTACK =
  'api: clickstack-cloud, url: "https://api.clickhouse.cloud", keyId: { env: I }, keySecret: { env: S }, organizationId: "${ORG}", serviceId: "${SVC}"';
const SEED_CLOUD = 'url: "https://c", keyId: { env: I }, keySecret: { env: S }';
const CH_CLOUD = `api: clickhouse-cloud, ${SEED_CLOUD}`;

const cases: Array<[string, string, string, { obs: number; cloud: number }, string?]> = [
  ['seed, seed: the seed service allows about 100 a minute', SEED_OBS, SEED_CLOUD, { obs: 100, cloud: 100 }],
  ['hyperdx', HYPERDX, SEED_CLOUD, { obs: 100, cloud: 100 }],
  ['clickstack-cloud and clickhouse-cloud: under 10 requests in 10 s per key', CLICKSTACK, CH_CLOUD, { obs: 50, cloud: 50 }],
  ['set in the file: it wins, either way', `${CLICKSTACK}, requestsPerMinute: 30`, `${SEED_CLOUD}, requestsPerMinute: 20`, { obs: 30, cloud: 20 }],
  [
    'set above the limit on purpose (a raised quota): it wins',
    `${CLICKSTACK}, requestsPerMinute: 600`,
    `${CH_CLOUD}, requestsPerMinute: 600`,
    { obs: 600, cloud: 600 },
  ],
  [
    'an environment overlay that sets it wins too',
    CLICKSTACK,
    CH_CLOUD,
    { obs: 12, cloud: 6 },
    '  environments:\n    slow: { observability: { requestsPerMinute: 12 }, cloud: { requestsPerMinute: 6 } }\n',
  ],
];

for (const [name, obs, cloud, expected, overlay] of cases) {
  test(`default rate: ${name}`, () => {
    assert.equal(connection(obs, cloud, overlay), expected);
  });
}

test.run();
