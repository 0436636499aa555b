/**
 * A Dashboard file pinned (`metadata.id`) to a live dashboard whose id is not 24 hex characters, against
 * servers that answer as the specs allow: HyperDX 2026-08-21's DashboardResponse.id and ClickHouse Cloud
 * 2026-07-31's ClickStackDashboardResponse.id are only `{type: string}`, and prism's generated answers give
 * ids like "fugiat cillum". The dashboard schema refused every id but 24 hex on every profile, so such a
 * dashboard could not be pinned at all (validate, plan and apply all stopped at `/metadata/id`). The 24-hex
 * rule is the seed API's (test/schema/dashboard-id.test.ts); here validate, plan and apply run end to end on
 * both live profiles (plan: an update of the pinned dashboard; a saved plan applied: `PUT .../dashboards/{id}`, accepted by
 * the mock in errors mode), and the seed profile still refuses the same file in validate.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { usePrism } from '../helpers/prism.ts';
import { runConformance } from './run.ts';
import { CLICKSTACK, HYPERDX, readList, show, type LiveProfile } from './live.ts';

const SMALL = { maxItems: 4 };
const test = suite('conformance: a dashboard pinned to an id that is not 24 hex');
const [hx, cs] = usePrism(test, [
  { spec: 'hyperdx-2026-08-21', dynamic: true, seed: 1, jsf: SMALL },
  { spec: 'clickhouse-cloud-2026-07-31', dynamic: true, seed: 1, jsf: SMALL },
]);

const CONNECTION: Record<string, string> = {
  hyperdx:
    'observability: { api: hyperdx, url: "${STEWARD_OBS_URL}", token: { env: STEWARD_OBS_TOKEN }, requestsPerMinute: 100, markerTag: "managed-by:steward/pin" }',
  'clickstack-cloud':
    'observability: { api: clickstack-cloud, url: "${STEWARD_OBS_URL}", keyId: { env: STEWARD_CLOUD_KEY_ID }, keySecret: { env: STEWARD_CLOUD_KEY_SECRET }, organizationId: "${STEWARD_CLICKSTACK_ORGANIZATION_ID}", serviceId: "${STEWARD_CLICKSTACK_SERVICE_ID}", requestsPerMinute: 100, markerTag: "managed-by:steward/pin" }',
  seed: 'observability: { url: "${STEWARD_OBS_URL}", token: { env: STEWARD_OBS_TOKEN }, requestsPerMinute: 100 }',
};

function project(api: string, id: string): Record<string, string> {
  return {
    'steward.yaml': `apiVersion: steward/v1\nkind: Project\nspec:\n  resources: ["dashboards/*.yaml"]\n  ${CONNECTION[api]}\n  state: .steward/state.json\n`,
    'dashboards/pinned.yaml': `apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: pinned, id: ${JSON.stringify(id)} }\nspec:\n  name: Pinned by steward\n  tags: [team:pin]\n`,
  };
}

/** validate, plan (json), then a saved plan applied (the pinned id goes through plan.json too). */
const STEPS: NonNullable<Parameters<typeof runConformance>[1]['steps']> = [
  'validate',
  'plan',
  { name: 'plan-out', args: ['plan', '--out', 'plan.json'] },
  { name: 'apply', args: ['apply', 'plan.json', '--auto-approve'] },
];

async function pinnedRun(server: (typeof hx)['server'], p: LiveProfile): Promise<void> {
  const listed = await readList(server, p, '/dashboards');
  const odd = listed.find((d) => typeof d.id === 'string' && d.id.length > 0 && !/^[0-9a-f]{24}$/.test(d.id) && !/[\p{Cc}\p{Cf}]/u.test(d.id));
  assert.ok(odd, `the mock lists a dashboard whose id is not 24 hex: ${JSON.stringify(listed.map((d) => d.id))}`);
  const id = odd.id as string;
  const run = await runConformance(server, { project: project(p.api, id), steps: STEPS, extraEnv: p.env });
  assert.equal(run.violations, [], run.steps.map(show).join('\n'));
  for (const s of run.steps) {
    assert.is(s.code, 0, show(s));
    assert.not.match(s.stdout + s.stderr, /metadata\/id/, show(s));
    assert.not.match(s.stderr, /\n\s+at /, show(s));
  }
  const plan = JSON.parse(run.step('plan')!.stdout) as { changes?: Array<{ action: string; id?: string }> };
  assert.ok(JSON.stringify(plan).includes(JSON.stringify(id)), `the plan names the pinned id\n${run.step('plan')!.stdout.slice(0, 1500)}`);
  const put = run.step('apply')!.requests.filter((r) => r.method === 'PUT' && /\/dashboards\/[^/]+$/.test(r.path));
  assert.is(put.length, 1, show(run.step('apply')!));
  assert.is(decodeURIComponent(put[0]!.path.slice(put[0]!.path.lastIndexOf('/') + 1)), id);
  assert.ok((put[0]!.status ?? 0) >= 200 && (put[0]!.status ?? 0) < 300, show(run.step('apply')!));
}

test('hyperdx (HyperDX 2026-08-21, generated ids): validate, plan and apply of a dashboard pinned to a non-hex id', async () => {
  await pinnedRun(hx.server, HYPERDX);
});

test('clickstack-cloud (ClickHouse Cloud 2026-07-31, generated ids): validate, plan and apply of a dashboard pinned to a non-hex id', async () => {
  await pinnedRun(cs.server, CLICKSTACK);
});

test('seed: the same file pinned to a non-hex id is refused by validate, at metadata.id, offline', async () => {
  const run = await runConformance(hx.server, { project: project('seed', 'fugiat cillum'), steps: ['validate'] });
  const v = run.step('validate')!;
  assert.is(v.code, 1, show(v));
  assert.match(v.stdout + v.stderr, /dashboards\/pinned\.yaml:3:\d+.*the string "fugiat cillum" is not valid: must be 24 lowercase hex characters/, show(v));
  assert.equal(v.requests, []);
});

test.run();
