/**
 * The ClickStack path's ids (`observability.organizationId`, `serviceId`): ClickHouse Cloud's spec types both
 * path parameters as UUIDs (format uuid), and its server refuses anything else with a 400. A name (the org's
 * or service's, as people say them) is refused before any request, at its line, saying what is wanted.
 */
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveObservability } from '../../src/config/connection.ts';
import { nodeFileSystem } from '../../src/config/fs.ts';
import { loadProject } from '../../src/config/project.ts';
import { ConfigError } from '../../src/errors.ts';
import { tmpProject } from '../helpers/tmp.ts';

const ORG = '6f1c4a52-3b7e-4d2a-9c1f-0e5b8a7d6c31';
const SVC = '9A2B7C1D-4E5F-4A6B-8C7D-1E2F3A4B5C6D';

function resolve(org: string, svc: string) {
  const p = tmpProject({
    'steward.yaml': `apiVersion: steward/v1
kind: Project
spec:
  observability:
    api: clickstack-cloud
    url: https://api.clickhouse.cloud
    keyId: { env: I }
    keySecret: { env: S }
    organizationId: "\${ORG}"
    serviceId: "${svc}"
`,
  });
  try {
    const project = loadProject(nodeFileSystem, join(p.dir, 'steward.yaml'), {});
    return resolveObservability(project, { I: 'k', S: 's', ORG: org });
  } finally {
    p.cleanup();
  }
}

test('UUIDs (either case) are taken as they are', () => {
  const c = resolve(ORG, SVC);
  assert.is(c.organizationId, ORG);
  assert.is(c.serviceId, SVC);
});

test('an organization or service that is not a UUID is a config error at its line, before any request', () => {
  try {
    resolve('acme-prod', SVC);
    assert.unreachable();
  } catch (e) {
    assert.instance(e, ConfigError);
    assert.is((e as ConfigError).pointer, '/spec/observability/organizationId');
    assert.is((e as ConfigError).pos?.line, 9);
    assert.is(
      (e as Error).message,
      'spec.observability.organizationId is "acme-prod": the ClickHouse Cloud organization id is a UUID (the console shows it), like 6f1c4a52-3b7e-4d2a-9c1f-0e5b8a7d6c31',
    );
  }
  try {
    resolve(ORG, 'warehouse');
    assert.unreachable();
  } catch (e) {
    assert.instance(e, ConfigError);
    assert.match((e as Error).message, 'spec.observability.serviceId is "warehouse": the ClickHouse Cloud service id is a UUID');
  }
});

test.run();
