/**
 * The conformance harness itself: prism starts from a vendored file, refuses what the spec refuses, the
 * harness sees every violation, seeds make generated answers repeatable, and stop() closes the server.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatViolations, usePrism } from '../helpers/prism.ts';
import { tmpProject } from '../helpers/tmp.ts';

// A spec whose own example breaks its schema: prism's answer is a violation that is not the client's fault.
const broken = tmpProject({});
const BROKEN = join(broken.dir, 'broken.json');
writeFileSync(
  BROKEN,
  JSON.stringify({
    openapi: '3.0.0',
    info: { title: 'broken', version: '1' },
    paths: {
      '/thing': {
        get: {
          responses: {
            200: {
              description: 'ok',
              content: { 'application/json': { schema: { type: 'object', properties: { n: { type: 'integer' } } }, example: { n: 'not a number' } } },
            },
          },
        },
      },
    },
  }),
);

const test = suite('conformance: prism harness');
const [stat, dynA, dynB, bad, oneItem] = usePrism(test, [
  { spec: 'hyperdx-2025-11-21' },
  { spec: 'hyperdx-2025-11-21', dynamic: true, seed: 1 },
  { spec: 'hyperdx-2025-11-21', dynamic: true, seed: 2 },
  { spec: BROKEN },
  { spec: 'hyperdx-2025-11-21', dynamic: true, seed: 1, jsf: { minItems: 1, maxItems: 1 } },
]);
test.after(() => broken.cleanup());

const auth = { authorization: 'Bearer t', 'content-type': 'application/json' };

test('a request the spec allows gets the example and no violation', async () => {
  const s = stat.server;
  s.clear();
  const res = await fetch(`${s.url}/api/v2/dashboards`, { headers: auth });
  assert.is(res.status, 200);
  const body = (await res.json()) as { data: unknown[] };
  assert.ok(Array.isArray(body.data));
  await s.settle();
  assert.is(s.requests().length, 1);
  assert.is(s.requests()[0]!.status, 200);
  assert.equal(s.violations(), [], formatViolations(s.violations()));
});

test('a request the spec refuses is answered 4xx and recorded as a request violation', async () => {
  const s = stat.server;
  s.clear();
  const res = await fetch(`${s.url}/api/v2/dashboards`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({
      name: 'x',
      tags: [],
      tiles: [{ name: 't', x: 0, y: 0, w: 6, h: 3, series: [{ type: 'time', dataSource: 'events', aggFn: 'count' }] }],
    }),
  });
  assert.is(res.status, 422);
  await res.text();
  await s.settle();
  const v = s.requestViolations();
  assert.ok(
    v.some((x) => x.kind === 'request' && /sourceId/.test(x.message)),
    formatViolations(v),
  );
  assert.ok(
    v.some((x) => x.kind === 'error' && /UNPROCESSABLE_ENTITY/.test(x.message)),
    formatViolations(v),
  );
});

test('missing credentials and unknown paths are violations too', async () => {
  const s = stat.server;
  s.clear();
  assert.is((await fetch(`${s.url}/api/v2/dashboards`)).status, 401);
  assert.is((await fetch(`${s.url}/api/v9/nothing`, { headers: auth })).status, 404);
  await s.settle();
  const [noAuth, noPath] = s.requests();
  assert.ok(
    noAuth!.violations.some((x) => /security/.test(x.message)),
    formatViolations(s.violations()),
  );
  assert.ok(
    noPath!.violations.some((x) => x.kind === 'error' && /NO_PATH_MATCHED/.test(x.message)),
    formatViolations(s.violations()),
  );
});

test('generated answers repeat under one seed and change with another', async () => {
  const get = async (url: string): Promise<string> => (await fetch(`${url}/api/v2/dashboards`, { headers: auth })).text();
  // Prism restarts its generator from the seed for every answer.
  const a = await get(dynA.server.url);
  const a2 = await get(dynA.server.url);
  const b = await get(dynB.server.url);
  assert.is(a, a2);
  assert.is.not(a, b);
  assert.is.not(a, await get(stat.server.url));
});

test('servers in one process answer at the same time, each under its own generator options', async () => {
  const list = async (url: string): Promise<unknown[]> =>
    ((await (await fetch(`${url}/api/v2/dashboards`, { headers: auth })).json()) as { data: unknown[] }).data;
  const alone = await list(dynA.server.url);
  assert.ok(alone.length > 1, `the default options give ${alone.length} items`);
  const mixed = await Promise.all(Array.from({ length: 12 }, (_, i) => list((i % 2 ? oneItem : dynA).server.url)));
  mixed.forEach((items, i) => {
    if (i % 2) assert.is(items.length, 1, `answer ${i} of the one-item server`);
    else assert.equal(items, alone, `answer ${i} of the default server`);
  });
});

test("an answer of prism's that breaks the spec is a response violation, not a request one", async () => {
  const s = bad.server;
  const res = await fetch(`${s.url}/thing`);
  assert.is(res.status, 500);
  await res.text();
  await s.settle();
  assert.equal(s.requestViolations(), []);
  assert.is(s.requests()[0]!.status, 500);
  assert.ok(
    s.violations().some((v) => v.kind === 'response' && /VIOLATIONS/.test(v.message)),
    formatViolations(s.violations()),
  );
});

test('stop() closes the server: its port refuses connections', async () => {
  const s = dynB.server;
  assert.is((await fetch(`${s.url}/api/v2/dashboards`, { headers: auth })).status, 200);
  await s.stop();
  const refused = await fetch(`${s.url}/api/v2/dashboards`, { headers: auth }).then(
    () => false,
    () => true,
  );
  assert.ok(refused, 'a request after stop() was answered');
});

test.run();
