/**
 * `timeoutSeconds` becomes the whole milliseconds a timer keeps, at least 1 (a timer cannot keep less): `1e-9`
 * was a deadline of 0.0000010000000000000002 ms, and every timeout message quoted it so (red team round 18).
 */
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { resolveCloud, resolveObservability } from '../../src/config/connection.ts';
import { nodeFileSystem } from '../../src/config/fs.ts';
import { loadProject } from '../../src/config/project.ts';
import { DEFAULT_TIMEOUT_MS } from '../../src/clients/settings.ts';
import { tmpProject } from '../helpers/tmp.ts';

function timeouts(setting: string): { obs: number; cloud: number } {
  const p = tmpProject({
    'steward.yaml': `apiVersion: steward/v1
kind: Project
spec:
  observability: { url: "https://o", token: { env: T }${setting} }
  cloud: { url: "https://c", keyId: { env: I }, keySecret: { env: S }${setting} }
`,
  });
  try {
    const project = loadProject(nodeFileSystem, join(p.dir, 'steward.yaml'), {});
    const env = { T: 'token', I: 'key-id', S: 'key-secret' };
    return { obs: resolveObservability(project, env).timeoutMs, cloud: resolveCloud(project, env).timeoutMs };
  } finally {
    p.cleanup();
  }
}

for (const [setting, ms] of [
  ['', DEFAULT_TIMEOUT_MS],
  [', timeoutSeconds: 1e-9', 1],
  [', timeoutSeconds: 0.0004', 1],
  [', timeoutSeconds: 0.0015', 2],
  [', timeoutSeconds: 0.3', 300],
  [', timeoutSeconds: 1.2345', 1235],
  [', timeoutSeconds: 600', 600_000],
] as const) {
  test(`timeoutSeconds${setting || ' (not set)'}: ${ms} ms on both connections`, () => {
    assert.equal(timeouts(setting), { obs: ms, cloud: ms });
  });
}

test.run();
