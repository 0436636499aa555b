/**
 * `steward import --all` against a service that lists nothing: an empty list is a valid answer of every spec
 * (HyperDX 2026-08-21's `{data: []}`, ClickStack's `{result: []}`, and the seed's). It printed
 * "Imported 0 of 0 dashboards:" and then nothing; now one line says there is nothing to import, and the exit
 * code stays 0 (nothing was skipped).
 */
import { createServer, type Server } from 'node:http';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';

const ORG = '6f1c4a47-1c1c-4c1c-8c1c-1c1c1c1c1c1c';
const SVC = '9a2b4a47-1c1c-4c1c-8c1c-1c1c1c1c1c1c';

async function emptyService(envelope: 'data' | 'result'): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    res.writeHead(req.method === 'GET' ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(envelope === 'data' ? { data: [] } : { status: 200, requestId: 'r-1', result: [] }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, server };
}

const CONNECTIONS: Array<[api: string, envelope: 'data' | 'result', connection: string, said: string]> = [
  ['seed', 'data', 'observability: { url: "${URL}", token: { env: TOKEN } }', 'no dashboards.'],
  ['hyperdx', 'data', 'observability: { api: hyperdx, url: "${URL}", token: { env: TOKEN } }', 'no dashboards and no alerts.'],
  [
    'clickstack-cloud',
    'result',
    `observability: { api: clickstack-cloud, url: "\${URL}", keyId: { env: TOKEN }, keySecret: { env: TOKEN }, organizationId: ${ORG}, serviceId: ${SVC} }`,
    'no dashboards and no alerts.',
  ],
];

for (const [api, envelope, connection, said] of CONNECTIONS) {
  test(`import --all from an empty ${api} service: one line, exit 0`, async () => {
    const { url, server } = await emptyService(envelope);
    const p = tmpProject({ 'steward.yaml': `apiVersion: steward/v1\nkind: Project\nspec:\n  resources: ["dashboards/*.yaml"]\n  ${connection}\n` });
    try {
      const r = await steward(['import', '--all'], { cwd: p.dir, env: { URL: url, TOKEN: 'secret-token' } });
      assert.is(r.code, 0, r.stdout + r.stderr);
      assert.is(r.stdout, `Nothing to import: the service lists ${said}\n`, r.stdout + r.stderr);
      assert.is(r.stderr, '');
    } finally {
      p.cleanup();
      server.close();
    }
  });
}

test.run();
