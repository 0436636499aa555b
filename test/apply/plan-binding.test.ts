/**
 * A saved plan is bound to what produced it: every tampering is refused before any write.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { planDigest } from '../../src/apply/plan-file.ts';
import { startEmulator } from '../../src/emulator/index.ts';
import type { Plan } from '../../src/plan/types.ts';
import { steward, stewardSpawned } from '../helpers/exec.ts';
import { copyExample, examplesWithEmulator } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';

type X = Awaited<ReturnType<typeof examplesWithEmulator>>;

async function withPlan(fn: (x: X, plan: Plan, write: (p: unknown) => void) => Promise<void>) {
  const x = await examplesWithEmulator();
  try {
    const p = await steward(['plan', '--out', 'plan.json'], { cwd: x.dir, env: x.env });
    assert.is(p.code, 0, p.stderr);
    const plan = JSON.parse(readFileSync(join(x.dir, 'plan.json'), 'utf8')) as Plan;
    x.emu.clearRequests();
    await fn(x, plan, (v) => writeFileSync(join(x.dir, 'plan.json'), JSON.stringify(v)));
  } finally {
    await x.cleanup();
  }
}

const writes = (x: X) => x.emu.requests().filter((r) => r.method !== 'GET');
/** Edits the plan and, as a careful attacker would, computes its digest again. */
const redigest = (plan: Plan) => ({ ...plan, digest: planDigest(plan.items, plan.binding!) });

async function refused(x: X, message: string | RegExp) {
  const a = await steward(['apply', 'plan.json'], { cwd: x.dir, env: x.env });
  assert.is(a.code, 1, a.stdout + a.stderr);
  assert.match(a.stderr, message);
  assert.equal(writes(x), [], 'nothing written');
}

test('an alert threshold edited after review: refused (digest), and refused again with a recomputed digest (files)', async () => {
  await withPlan(async (x, plan, write) => {
    const edited = structuredClone(plan);
    const alert = edited.items.find((i) => i.kind === 'Alert')!;
    (alert.body as { threshold: number }).threshold = 1_000_000;
    write(edited);
    await refused(x, 'plan was changed after it was made');
    write(redigest(edited));
    await refused(x, new RegExp(`plan does not match the files: alert ${alert.name} \\(${alert.id}\\) differs in body`));
  });
});

test("an alert item's id switched to another alert: refused", async () => {
  await withPlan(async (x, plan, write) => {
    const edited = structuredClone(plan);
    const alerts = edited.items.filter((i) => i.kind === 'Alert');
    alerts[0]!.id = alerts[1]!.id;
    write(redigest(edited));
    await refused(x, 'plan does not match the files');
  });
});

test('an extra create item: refused', async () => {
  await withPlan(async (x, plan, write) => {
    const edited = structuredClone(plan);
    const create = structuredClone(edited.items.find((i) => i.action === 'create')!);
    create.name = 'sneaky';
    (create.body as { name: string }).name = 'Sneaky';
    edited.items.push(create);
    write(redigest(edited));
    await refused(x, 'plan does not match the files: the plan has dashboard sneaky, which the files do not give');
  });
});

test('a plan made against one server, applied to another: refused', async () => {
  await withPlan(async (x) => {
    const other = await startEmulator({ seed: 1 });
    try {
      const a = await steward(['apply', 'plan.json'], { cwd: x.dir, env: { ...x.env, STEWARD_OBS_URL: other.url } });
      assert.is(a.code, 1);
      assert.match(a.stderr, `plan was made for another server (${x.emu.url}), not ${other.url}`);
      assert.equal(
        other.requests().filter((r) => r.method !== 'GET'),
        [],
      );
      assert.equal(other.requests(), [], 'refused before reading the other server');
    } finally {
      await other.close();
    }
  });
});

test('credentials in the server URL (user:password@, ?token=) stay out of the saved plan, which still binds to that server', async () => {
  const x = await examplesWithEmulator();
  try {
    const url = x.emu.url.replace('http://', 'http://alice:SuperSecretPw1@') + '/?token=QueryTok12345';
    const env = { ...x.env, STEWARD_OBS_URL: url };
    const p = await steward(['plan', '--out', 'plan.json', '--format', 'json'], { cwd: x.dir, env });
    assert.is(p.code, 0, p.stderr);
    const saved = readFileSync(join(x.dir, 'plan.json'), 'utf8');
    for (const text of [saved, p.stdout, p.stderr]) assert.not.match(text, /SuperSecretPw1|QueryTok12345/);
    assert.match(JSON.parse(saved).binding.server, /^http:\/\/\[redacted\]@127\.0\.0\.1:\d+\/\?token=\[redacted\]$/);
    const a = await steward(['apply', 'plan.json'], { cwd: x.dir, env });
    assert.is(a.code, 0, a.stdout + a.stderr);
    const other = await steward(['apply', 'plan.json'], { cwd: x.dir, env: { ...env, STEWARD_OBS_URL: url.replace('127.0.0.1', 'localhost') } });
    assert.match(other.stderr, 'plan was made for another server');
  } finally {
    await x.cleanup();
  }
});

test('a plan from one project applied in another (both servers empty): refused', async () => {
  await withPlan(async (x) => {
    const second = tmpProject({});
    try {
      cpSync(x.dir, second.dir, { recursive: true });
      const f = join(second.dir, 'steward.yaml');
      writeFileSync(f, readFileSync(f, 'utf8').replace('name: acme-observability', 'name: another-team'));
      const a = await steward(['apply', 'plan.json'], { cwd: second.dir, env: x.env });
      assert.is(a.code, 1);
      assert.match(a.stderr, 'plan was made for another project (acme-observability');
      assert.equal(writes(x), []);
    } finally {
      second.cleanup();
    }
  });
});

test('files that are not steward plans: items [null], items [1], an alert update without an id, no digest', async () => {
  await withPlan(async (x, plan, write) => {
    const noId = structuredClone(plan);
    delete noId.items.find((i) => i.kind === 'Alert')!.id;
    const noDigest = structuredClone(plan) as Partial<Plan>;
    delete noDigest.digest;
    for (const [bad, why] of [
      [{ ...plan, items: [null] }, 'items.0'],
      [{ ...plan, items: [1] }, 'items.0'],
      [noId, 'must have id'],
      [noDigest, 'must have digest'],
    ] as const) {
      write(bad);
      const a = await steward(['apply', 'plan.json'], { cwd: x.dir, env: x.env });
      assert.is(a.code, 1, a.stdout + a.stderr);
      assert.match(a.stderr, 'is not a steward plan');
      assert.match(a.stderr, why);
      assert.not.match(a.stderr, 'bug');
      assert.is(a.stderr.trim().split('\n').length, 1, a.stderr);
    }
    // A hand-made plan nested 100,000 levels deep: refused in one line, no stack overflow.
    writeFileSync(join(x.dir, 'plan.json'), `{"formatVersion":1,"items":[${'['.repeat(100_000)}${']'.repeat(100_000)}]}`);
    const deep = await steward(['apply', 'plan.json'], { cwd: x.dir, env: x.env });
    assert.is(deep.code, 1, deep.stderr);
    assert.match(deep.stderr, 'is not a steward plan');
    assert.not.match(deep.stderr, 'bug');
    assert.equal(x.emu.requests(), [], 'refused before any request');
  });
});

test('a plan applied once is refused the second time', async () => {
  await withPlan(async (x) => {
    const a = await steward(['apply', 'plan.json'], { cwd: x.dir, env: x.env });
    assert.is(a.code, 0, a.stdout + a.stderr);
    x.emu.clearRequests();
    await refused(x, 'this plan was applied already');
  });
});

test('the same plan applied twice at once: one dashboard per name', async () => {
  await withPlan(async (x) => {
    const runs = await Promise.all([0, 1].map(() => stewardSpawned(['apply', 'plan.json', '--lock-timeout', '60s'], { cwd: x.dir, env: x.env })));
    const codes = runs.map((r) => r.code).sort();
    assert.equal(codes, [0, 1], runs.map((r) => r.stdout + r.stderr).join('\n'));
    const second = runs.find((r) => r.code === 1)!;
    assert.match(second.stderr, 'this plan was applied already');
    assert.equal(
      x.emu
        .state()
        .dashboards.map((d: { name: string }) => d.name)
        .sort(),
      ['Checkout overview', 'JVM runtime', 'Public API latency'],
    );
  });
});

test('a plan made with --target applies with the same narrowing', async () => {
  const x = await examplesWithEmulator();
  try {
    const p = await steward(['plan', '--target', 'dashboard/jvm-runtime', '--out', 'plan.json'], { cwd: x.dir, env: x.env });
    assert.is(p.code, 0, p.stderr);
    const a = await steward(['apply', 'plan.json'], { cwd: x.dir, env: x.env });
    assert.is(a.code, 0, a.stdout + a.stderr);
    assert.equal(
      x.emu.state().dashboards.map((d: { name: string }) => d.name),
      ['JVM runtime'],
    );
  } finally {
    await x.cleanup();
  }
});

test('a plan narrowed to the folder that holds the project (plan ..) is saved as the project itself and applies', async () => {
  const x = await examplesWithEmulator();
  try {
    const p = await steward(['plan', '--out', 'plan.json', '..'], { cwd: x.dir, env: x.env });
    assert.is(p.code, 0, p.stdout + p.stderr);
    const plan = JSON.parse(readFileSync(join(x.dir, 'plan.json'), 'utf8')) as Plan;
    assert.equal(plan.binding!.options.paths, ['.']);
    const a = await steward(['apply', 'plan.json'], { cwd: x.dir, env: x.env });
    assert.is(a.code, 0, a.stdout + a.stderr);
  } finally {
    await x.cleanup();
  }
});

for (const api of ['hyperdx', 'clickstack-cloud'] as const) {
  test(`${api}: a saved plan (live alerts, creates) matches its schema, recomputes the same and applies; an update of dashboard filters too`, async () => {
    const p = tmpProject({});
    const emu = await startEmulator({ api, seed: 7 });
    try {
      copyExample(p.dir, api);
      const env = { ...emu.env, XDG_CACHE_HOME: join(p.dir, '.cache') } as Record<string, string>;
      for (let round = 0; round < 2; round++) {
        const plan = await steward(['plan', '--out', 'plan.json'], { cwd: p.dir, env });
        assert.is(plan.code, 0, plan.stderr);
        if (round === 1) assert.match(plan.stdout, /[1-9]\d* to update/);
        const a = await steward(['apply', 'plan.json'], { cwd: p.dir, env });
        assert.is(a.code, 0, `round ${round}: ${a.stdout}${a.stderr}`);
        if (round === 0) {
          // A new filter: the next plan updates the dashboard and gives the filter a new id, which apply
          // must recompute identically.
          const file = join(p.dir, 'dashboards/checkout.yaml');
          const text = readFileSync(file, 'utf8');
          assert.match(text, '  filters:\n');
          writeFileSync(file, text.replace('  filters:\n', '  filters:\n    - { type: QUERY_EXPRESSION, name: Region, expression: region, source: Logs }\n'));
        }
      }
      const clean = await steward(['plan', '--detailed-exitcode'], { cwd: p.dir, env });
      assert.is(clean.code, 0, clean.stdout);
    } finally {
      await emu.close();
      p.cleanup();
    }
  });
}

test.run();
