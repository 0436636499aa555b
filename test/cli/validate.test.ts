import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';

const examples = fileURLToPath(new URL('../../examples', import.meta.url));

test('validate examples: exit 0, says how many files and resources', async () => {
  // --no-cache: tests never write into examples/ (the cache would land in examples/.steward/)
  const r = await steward(['validate', examples, '--no-cache']);
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /valid: 8 files, 8 resources \(3 dashboards, 4 alerts, 1 cloud service\)/);
});

test('validate inside the project folder, with nothing set in the environment', async () => {
  const r = await steward(['validate', '--no-cache'], { cwd: examples });
  assert.is(r.code, 0, r.stderr);
});

test('a misspelt key: exit 1, file:line:col and did you mean', async () => {
  const p = tmpProject({});
  try {
    cpSync(examples, p.dir, { recursive: true });
    const f = join(p.dir, 'alerts/checkout.yaml');
    writeFileSync(f, readFileSync(f, 'utf8').replace('threshold: 50', 'thresold: 5'));
    const r = await steward(['validate'], { cwd: p.dir });
    assert.is(r.code, 1);
    assert.match(r.stdout, 'alerts/checkout.yaml:11:3  /spec/thresold  error: unknown key "thresold"; did you mean "threshold"?');
    const gh = await steward(['validate', '--format', 'github'], { cwd: p.dir });
    assert.match(gh.stdout, '::error file=alerts/checkout.yaml,line=11,col=3::/spec/thresold: unknown key "thresold"; did you mean "threshold"?');
    const js = await steward(['validate', '--format', 'json'], { cwd: p.dir });
    const parsed = JSON.parse(js.stdout);
    assert.is(parsed.valid, false);
    assert.is(parsed.issues.length, 2, 'the unknown key and the missing threshold');
  } finally {
    p.cleanup();
  }
});

test('a path that does not exist is one clear line', async () => {
  const r = await steward(['validate', 'nope.yaml']);
  assert.is(r.code, 1);
  assert.is(r.stderr, 'error: nope.yaml: no such file or folder\n');
});

test('--debug shows the stack of an error', async () => {
  const r = await steward(['validate', 'nope.yaml', '--debug']);
  assert.is(r.code, 1);
  assert.match(r.stderr, /\n\s+at /);
});

test('a file named like a workflow command never starts a line of output (CI logs run such lines)', async () => {
  const p = tmpProject({
    'steward.yaml':
      'apiVersion: steward/v1\nkind: Project\nmetadata: { name: forged }\nspec:\n  observability: { url: "${STEWARD_OBS_URL}", token: { env: STEWARD_OBS_TOKEN } }\n  resources: ["dashboards/*.yaml"]\n',
  });
  try {
    mkdirSync(join(p.dir, 'dashboards'));
    writeFileSync(
      join(p.dir, 'dashboards', '::warning title=Forged by PR::Security review passed.yaml'),
      'apiVersion: steward/v1\nkind: Dashboard\nmetadata: { name: x }\nspec: { name: 1 }\n',
    );
    const env = { STEWARD_OBS_URL: 'http://127.0.0.1:9', STEWARD_OBS_TOKEN: 't' };
    const cwd = join(p.dir, 'dashboards');
    const runs = [await steward(['validate'], { cwd }), await steward(['plan', '--format', 'markdown'], { cwd, env }), await steward(['render'], { cwd })];
    for (const r of runs) {
      const lines = (r.stdout + r.stderr).split('\n');
      assert.ok(
        lines.some((l) => l.includes('Forged by PR')),
        r.stdout + r.stderr,
      );
      assert.equal(
        lines.filter((l) => /^\s*::/.test(l)),
        [],
      );
    }
    assert.match(runs[0]!.stdout, './::warning title=Forged by PR::Security review passed.yaml:4:');
  } finally {
    p.cleanup();
  }
});

test.run();
