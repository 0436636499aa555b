import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { steward } from '../helpers/exec.ts';
import { EXAMPLES, examplesWithEmulator } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';

test('plan of examples/ against a fresh emulator: every dashboard a create, every alert an update with no record; only GETs', async () => {
  const x = await examplesWithEmulator();
  try {
    const r = await steward(['plan', '--detailed-exitcode', '--out', 'plan.json'], { cwd: x.dir, env: x.env });
    assert.is(r.code, 2, r.stderr);
    assert.match(r.stdout, 'steward plan: 3 to create, 4 to update, 0 blocked, 0 unchanged');
    const plan = JSON.parse(readFileSync(join(x.dir, 'plan.json'), 'utf8'));
    assert.is(plan.formatVersion, 1);
    assert.equal(
      plan.items.map((i: { kind: string; name: string; action: string }) => `${i.kind}/${i.name}/${i.action}`),
      [
        'Dashboard/api-latency/create',
        'Dashboard/checkout-overview/create',
        'Dashboard/jvm-runtime/create',
        'Alert/api-latency-high/update',
        'Alert/checkout-errors/update',
        'Alert/gc-pause-long/update',
        'Alert/jvm-heap-high/update',
      ],
    );
    for (const a of plan.items.filter((i: { kind: string }) => i.kind === 'Alert')) assert.match(a.message, 'no record');
    // THEN the service saw reads only: one list of dashboards and nothing else
    const log = x.emu.requests();
    assert.equal(
      log.map((e) => `${e.method} ${e.path}`),
      ['GET /api/v2/dashboards'],
    );
    assert.not.ok(existsSync(join(x.dir, '.steward/state.json')), 'plan writes no state');
  } finally {
    await x.cleanup();
  }
});

test('plan formats: json, markdown, github; --target narrows', async () => {
  const x = await examplesWithEmulator();
  try {
    const js = await steward(['plan', '--format', 'json'], { cwd: x.dir, env: x.env });
    assert.is(JSON.parse(js.stdout).summary.create, 3);
    const md = await steward(['plan', '--format', 'markdown'], { cwd: x.dir, env: x.env });
    assert.match(md.stdout, '| 🟢 create | 3 | 0 |');
    assert.match(md.stdout, '<details><summary>');
    const gh = await steward(['plan', '--format', 'github'], { cwd: x.dir, env: x.env });
    assert.match(gh.stdout, '::notice file=dashboards/jvm-runtime.yaml,title=steward create%3A Dashboard jvm-runtime::no live dashboard has this name');
    const one = await steward(['plan', '--target', 'dashboard/jvm-runtime', '--format', 'json'], { cwd: x.dir, env: x.env });
    assert.equal(
      JSON.parse(one.stdout).items.map((i: { name: string }) => i.name),
      ['jvm-runtime'],
    );
    const bad = await steward(['plan', '--target', 'dashboard/jvm'], { cwd: x.dir, env: x.env });
    assert.is(bad.code, 1);
    assert.match(bad.stderr, 'no Dashboard named "jvm"');
  } finally {
    await x.cleanup();
  }
});

// A typo (`--out steward.yaml`, or a resource file's name) replaced the project's own file with the plan.
test('plan --out refuses to replace a file of the project (the project file, the state, a resource file): nothing written', async () => {
  const x = await examplesWithEmulator();
  try {
    for (const [out, says] of [
      ['steward.yaml', 'names the project file'],
      ['.steward/state.json', 'names the state file'],
      ['dashboards/checkout.yaml', 'names a resource file (it matches "dashboards/**/*.yaml")'],
      // One file with those on macOS and Windows (and refused as such everywhere).
      [
        'STEWARD.yaml',
        'names the project file ("STEWARD.yaml" differs from "steward.yaml" only in case, Unicode form or trailing dots, so macOS and Windows take them for one file; refused on every system)',
      ],
      [
        'Dashboards/Checkout.yaml',
        'names a resource file as macOS and Windows compare names (it matches "dashboards/**/*.yaml" but for case, Unicode form or trailing dots; refused on every system)',
      ],
    ] as const) {
      const before = existsSync(join(x.dir, out)) ? readFileSync(join(x.dir, out), 'utf8') : undefined;
      const r = await steward(['plan', '--out', out], { cwd: x.dir, env: x.env });
      assert.is(r.code, 1, `${out}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, `--out ${out} ${says}, which the plan would replace; save the plan under a name of its own (plan.json)`);
      assert.is(existsSync(join(x.dir, out)) ? readFileSync(join(x.dir, out), 'utf8') : undefined, before, `${out} unchanged`);
    }
  } finally {
    await x.cleanup();
  }
});

test('plan of a path that does not exist says so, as validate does; one without resources says that', async () => {
  const x = await examplesWithEmulator();
  try {
    const missing = await steward(['plan', 'dashboards/nope.yaml'], { cwd: x.dir, env: x.env });
    assert.is(missing.code, 1, missing.stdout + missing.stderr);
    assert.match(missing.stderr, 'dashboards/nope.yaml: no such file or folder');
    mkdirSync(join(x.dir, 'notes'));
    writeFileSync(join(x.dir, 'notes/readme.txt'), 'no resources here');
    const empty = await steward(['plan', 'notes'], { cwd: x.dir, env: x.env });
    assert.is(empty.code, 1, empty.stdout + empty.stderr);
    assert.match(empty.stderr, 'no resources under notes');
  } finally {
    await x.cleanup();
  }
});

test('a wrong token: one clear line naming the variable, exit 1, the token never printed', async () => {
  const x = await examplesWithEmulator();
  try {
    const r = await steward(['plan', '--debug'], { cwd: x.dir, env: { ...x.env, STEWARD_OBS_TOKEN: 'canary-token-0123456789' } });
    assert.is(r.code, 1);
    assert.match(r.stderr, /401/);
    assert.match(r.stderr, 'STEWARD_OBS_TOKEN');
    assert.not.match(r.stdout + r.stderr, 'canary-token-0123456789');
  } finally {
    await x.cleanup();
  }
});

test('an unset connection variable is an error naming file:line; validate still works offline', async () => {
  const x = await examplesWithEmulator();
  try {
    const { STEWARD_OBS_URL: _u, ...env } = x.env;
    const r = await steward(['plan'], { cwd: x.dir, env });
    assert.is(r.code, 1);
    assert.is(
      r.stderr,
      'steward.yaml:14:10  /spec/observability/url  environment variable STEWARD_OBS_URL is not set (use ${STEWARD_OBS_URL:-default} for a fallback)\n',
    );
    const v = await steward(['validate'], { cwd: x.dir });
    assert.is(v.code, 0);
    // set but empty (a CI secret the job cannot see): said as such, for the url and for the token
    const empty = await steward(['plan'], { cwd: x.dir, env: { ...x.env, STEWARD_OBS_URL: '' } });
    assert.is(empty.code, 1);
    assert.match(empty.stderr, 'environment variable STEWARD_OBS_URL is set but empty');
    const token = await steward(['plan'], { cwd: x.dir, env: { ...x.env, STEWARD_OBS_TOKEN: '' } });
    assert.is(token.code, 1);
    assert.match(token.stderr, 'environment variable STEWARD_OBS_TOKEN is set but empty: it holds the');
  } finally {
    await x.cleanup();
  }
});

test('a service that is down: a clear error within the timeout, exit 1', async () => {
  const x = await examplesWithEmulator();
  await x.emu.close();
  try {
    const r = await steward(['plan'], { cwd: x.dir, env: x.env });
    assert.is(r.code, 1);
    assert.match(r.stderr, /GET \/api\/v2\/dashboards/);
    assert.not.match(r.stderr, /\n\s+at /);
  } finally {
    await x.cleanup().catch(() => {});
  }
});

test('plan --format markdown of invalid files escapes what it quotes from them: no forged line, workflow command, link or mention', async () => {
  const p = tmpProject({});
  try {
    cpSync(EXAMPLES, p.dir, { recursive: true });
    const key = 'x\\n::error title=Security::Forged\\n@octo-org/security [click](https://evil.example/phish) \\e]0;pwn\\a`';
    appendFileSync(join(p.dir, 'dashboards/api-latency.yaml'), `  "${key}": 1\n`);
    const r = await steward(['plan', '--format', 'markdown'], { cwd: p.dir, env: { STEWARD_OBS_URL: 'http://127.0.0.1:9', STEWARD_OBS_TOKEN: 't' } });
    assert.is(r.code, 1, r.stderr);
    const line = r.stdout.split('\n').find((l) => l.includes('api-latency.yaml'))!;
    assert.ok(line, r.stdout);
    assert.ok(
      r.stdout.split('\n').every((l) => !l.startsWith('::')),
      'a line GitHub would run as a workflow command',
    );
    assert.not.match(r.stdout, /[\u0000-\u0009\u000b-\u001f]/, 'a raw control character');
    assert.match(line, '@\u200bocto-org', 'the mention is defused');
    assert.match(line, '\\[click\\](https:\u200b//evil.example/phish)', 'the link is not live');
  } finally {
    p.cleanup();
  }
});

test.run();
