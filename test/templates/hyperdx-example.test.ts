/**
 * examples/hyperdx: three services stamped from the JVM template plan, apply and plan clean against the
 * emulator (`api: hyperdx`, real HTTP on 127.0.0.1), through the CLI; then one template threshold changed
 * plans as one summarized change across the three, in text and Markdown; render and --target see stamps.
 */
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startEmulator, type Emulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { EXAMPLES } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';

async function withExample(fn: (dir: string, env: Record<string, string>, emu: Emulator) => Promise<void>): Promise<void> {
  const p = tmpProject({});
  cpSync(join(EXAMPLES, 'hyperdx'), p.dir, { recursive: true });
  const f = join(p.dir, 'steward.yaml');
  writeFileSync(f, readFileSync(f, 'utf8').replace('requestsPerMinute: 100', 'requestsPerMinute: 6000'));
  const emu = await startEmulator({ seed: 3, api: 'hyperdx' });
  try {
    await fn(p.dir, { ...emu.env, XDG_CACHE_HOME: join(p.dir, '.cache'), STEWARD_NO_CACHE: '1' }, emu);
  } finally {
    await emu.close();
    p.cleanup();
  }
}

const STAMPS = ['jvm-runtime/checkout', 'jvm-runtime/inventory', 'jvm-runtime/payments'];
const BOTH = [...STAMPS.map((n) => `Alert ${n}`), ...STAMPS.map((n) => `Dashboard ${n}`)];

test('three stamped dashboards: plan creates them, apply creates them, plan again is clean', () =>
  withExample(async (dir, env, emu) => {
    const plan = await steward(['plan', '--format', 'json'], { cwd: dir, env });
    assert.is(plan.code, 0, plan.stderr);
    const p = JSON.parse(plan.stdout) as {
      items: Array<{
        kind: string;
        name: string;
        action: string;
        file: string;
        body: { name: string; tiles: Array<{ name: string; config: Record<string, unknown> }> };
      }>;
    };
    const ours = p.items.filter((i) => i.name.startsWith('jvm-runtime/'));
    assert.equal(
      ours.map((i) => `${i.kind} ${i.name} ${i.action}`).sort(),
      BOTH.map((n) => `${n} create`),
    );
    const stamped = ours.filter((i) => i.kind === 'Dashboard');
    assert.ok(stamped.every((i) => i.file === 'services/jvm.yaml'));
    const pay = stamped.find((i) => i.name === 'jvm-runtime/payments')!.body;
    assert.is(pay.name, 'JVM Runtime Metrics (payments)');
    const cpu = pay.tiles.find((t) => t.name === 'CPU Utilization')!.config as { colorRules: Array<{ value: number }>; select: Array<{ where: string }> };
    assert.is(cpu.colorRules[0]!.value, 0.9, 'the per-item override');
    assert.is(cpu.select[0]!.where, "ServiceName = 'payments'");

    const apply = await steward(['apply', '--auto-approve'], { cwd: dir, env });
    assert.is(apply.code, 0, apply.stdout + apply.stderr);
    const names = (emu.state() as { dashboards: Array<{ name: string }> }).dashboards.map((d) => d.name).sort();
    for (const s of ['checkout', 'inventory', 'payments']) assert.ok(names.includes(`JVM Runtime Metrics (${s})`), names.join(', '));

    const again = await steward(['plan', '--detailed-exitcode'], { cwd: dir, env });
    assert.is(again.code, 0, again.stdout + again.stderr);
    assert.match(again.stdout, 'Nothing to apply.');
    assert.not.match(again.stdout, 'Templates');

    // One threshold of the template changed: one summarized change across the three, then the detail.
    const t = join(dir, 'templates/jvm-runtime.yaml');
    const original = readFileSync(t, 'utf8');
    writeFileSync(t, original.replace('cpuWarn: { type: number, default: 0.8', 'cpuWarn: { type: number, default: 0.75'));
    const changed = await steward(['plan', '--detailed-exitcode'], { cwd: dir, env });
    assert.is(changed.code, 2, changed.stdout + changed.stderr);
    assert.match(
      changed.stdout,
      '\nTemplates\n  template jvm-runtime: 2 dashboards, 1 tile changed ("CPU Utilization"), the same change in each (2 to update)\n',
    );
    assert.ok(changed.stdout.indexOf('Templates') < changed.stdout.indexOf('Dashboards'), 'the summary comes before the items');
    assert.match(changed.stdout, 'jvm-runtime/checkout');
    assert.match(changed.stdout, 'jvm-runtime/inventory');
    const md = await steward(['plan', '--format', 'markdown'], { cwd: dir, env });
    assert.match(
      md.stdout,
      '**Templates**\n\n- template jvm-runtime: 2 dashboards, 1 tile changed ("CPU Utilization"), the same change in each (2 to update)\n',
    );

    // payments overrides cpuWarn, so it is untouched; a change to the shared default reaches all three.
    writeFileSync(t, readFileSync(t, 'utf8').replace('label: Busy', 'label: Hot'));
    const all = await steward(['plan'], { cwd: dir, env });
    assert.match(all.stdout, 'template jvm-runtime: 3 dashboards, 1 tile changed ("CPU Utilization") (3 to update)');

    // The alert's threshold, shared by the three: one summarized change, the same in each.
    writeFileSync(t, original.replace('cpuAlert: { type: number, default: 0.9', 'cpuAlert: { type: number, default: 0.85'));
    const alerts = await steward(['plan', '--format', 'markdown'], { cwd: dir, env });
    assert.match(alerts.stdout, '- template jvm-runtime: 3 alerts, the same change in each (3 to update)\n');
    assert.match(alerts.stdout, 'threshold: 0.9 → 0.85');

    // --target reaches one stamp by its name.
    const one = await steward(['plan', '--target', 'dashboard/jvm-runtime/payments', '--format', 'json'], { cwd: dir, env });
    assert.is(one.code, 0, one.stderr);
    assert.equal(
      (JSON.parse(one.stdout) as { items: Array<{ name: string }> }).items.map((i) => i.name),
      ['jvm-runtime/payments'],
    );
  }));

test('steward render prints the stamped resources as YAML; --target narrows; the files are not needed live', () =>
  withExample(async (dir, env) => {
    const r = await steward(['render'], { cwd: dir, env: { ...env, STEWARD_OBS_URL: 'http://127.0.0.1:9' } });
    assert.is(r.code, 0, r.stderr);
    const names = [...r.stdout.matchAll(/^  name: (\S+)$/gm)].map((m) => m[1]);
    // Each stamp's dashboard, then its alert, in the order of the instance's items.
    assert.equal(
      names,
      ['checkout', 'checkout', 'payments', 'payments', 'inventory', 'inventory'].map((n) => `jvm-runtime/${n}`),
    );
    assert.match(
      r.stdout,
      '---\n# jvm-runtime/payments: stamped by services/jvm.yaml from template jvm-runtime\napiVersion: steward/v1\nkind: Dashboard\nmetadata:\n  name: jvm-runtime/payments\n',
    );
    assert.match(r.stdout, "where: ServiceName = 'inventory'");
    const one = await steward(['render', '--target', 'dashboard/jvm-runtime/inventory'], { cwd: dir, env });
    assert.is(one.code, 0, one.stderr);
    assert.is([...one.stdout.matchAll(/^kind: Dashboard$/gm)].length, 1);
    const all = await steward(['render', '--all'], { cwd: dir, env });
    assert.match(all.stdout, 'name: checkout-overview');
  }));

test('steward render and validate stop at a bad parameter with file:line:col, exit 1, no stack trace', () =>
  withExample(async (dir, env) => {
    const f = join(dir, 'services/jvm.yaml');
    writeFileSync(f, readFileSync(f, 'utf8').replace('cpuWarn: 0.9 ', 'cpuWarn: high'));
    for (const cmd of ['render', 'validate']) {
      const r = await steward([cmd], { cwd: dir, env });
      assert.is(r.code, 1, cmd);
      assert.match(r.stdout + r.stderr, 'services/jvm.yaml:17:16');
      assert.match(r.stdout + r.stderr, 'parameter "cpuWarn" of template "jvm-runtime" must be a number, found the string "high"');
      assert.not.match(r.stderr, /\n\s+at /);
    }
  }));

test('import --all leaves stamped dashboards and alerts to their template: nothing is written for them', () =>
  withExample(async (dir, env) => {
    assert.is((await steward(['apply', '--auto-approve'], { cwd: dir, env })).code, 0);
    const before = readFileSync(join(dir, 'services/jvm.yaml'), 'utf8');
    const r = await steward(['import', '--all'], { cwd: dir, env });
    assert.is(r.code, 0, r.stdout + r.stderr);
    for (const s of ['checkout', 'payments', 'inventory']) {
      assert.match(r.stdout, `is jvm-runtime/${s}, stamped from a template by services/jvm.yaml: change the template or the instance`);
      assert.match(r.stdout, `alert "JVM CPU high (${s})"`);
    }
    assert.is(readFileSync(join(dir, 'services/jvm.yaml'), 'utf8'), before, 'the instance file is not rewritten');
    const files = [...readdirSync(join(dir, 'dashboards')), ...readdirSync(join(dir, 'alerts'))];
    assert.not.ok(
      files.some((f) => /jvm-runtime-metrics|jvm-cpu-high/.test(f)),
      files.join(', '),
    );
  }));

test('all six imported templates (examples/templates) stamp dashboards the server takes: server-validate, apply, plan clean', async () => {
  const names = ['browser-rum', 'dotnet-runtime', 'go-runtime', 'jvm-runtime', 'nodejs-runtime', 'python-runtime'];
  const p = tmpProject({
    'steward.yaml':
      'apiVersion: steward/v1\nkind: Project\nspec:\n  resources: ["templates/*.yaml", "services.yaml"]\n  observability: { api: hyperdx, url: "${STEWARD_OBS_URL}", token: { env: STEWARD_OBS_TOKEN }, requestsPerMinute: 6000 }\n',
    'services.yaml': names
      .map(
        (t) =>
          `apiVersion: steward/v1\nkind: TemplateInstance\nmetadata: { name: ${t} }\nspec:\n  template: ${t}\n  forEach: [{ service: web }, { service: api }]\n`,
      )
      .join('---\n'),
  });
  cpSync(join(EXAMPLES, 'templates'), join(p.dir, 'templates'), { recursive: true });
  const emu = await startEmulator({ seed: 5, api: 'hyperdx' });
  try {
    const env = { ...emu.env, STEWARD_NO_CACHE: '1' };
    const plan = await steward(['plan', '--server-validate', '--format', 'json'], { cwd: p.dir, env });
    assert.is(plan.code, 0, plan.stderr);
    const items = (JSON.parse(plan.stdout) as { items: Array<{ name: string; action: string; serverValidation?: { valid: boolean; errors: string[] } }> })
      .items;
    assert.is(items.length, 12);
    for (const i of items) assert.equal([i.action, i.serverValidation], ['create', { valid: true, errors: [] }], i.name);
    const apply = await steward(['apply', '--auto-approve'], { cwd: p.dir, env });
    assert.is(apply.code, 0, apply.stdout + apply.stderr);
    assert.match(apply.stdout, 'Apply complete: 12 created');
    const again = await steward(['plan', '--detailed-exitcode'], { cwd: p.dir, env });
    assert.is(again.code, 0, again.stdout + again.stderr);
  } finally {
    await emu.close();
    p.cleanup();
  }
});

test.run();
