/**
 * The generated validators are loaded one file at a time, when first used (src/shared/generated.ts): a warm
 * plan checks the project file alone and reads one list, and loading every kind's and every response's code
 * was ~40-50 ms of each start-up. Each case runs in a fresh process, so that nothing loaded before counts.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CliError } from '../../src/errors.ts';
import { lazyGenerated } from '../../src/shared/generated.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Runs `body` (an ES module's text) under tsx in a fresh process; returns the generated files it loaded. */
function loadedBy(body: string): string[] {
  const script = `import { createRequire } from 'node:module';
${body}
const cache = createRequire(import.meta.url).cache;
process.stdout.write(JSON.stringify(Object.keys(cache).filter((f) => f.endsWith('.gen.cjs')).map((f) => f.split('/').slice(-2).join('/')).sort()));`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '' },
  });
  return JSON.parse(out) as string[];
}

test('checking a project file loads the Project validator alone', () => {
  const loaded = loadedBy(`import { validateKind } from './src/schema/validator.ts';
const problems = validateKind('Project', { apiVersion: 'steward/v1', kind: 'Project', spec: { resources: ['a/*.yaml'] } });
if (problems.length !== 0) throw new Error(JSON.stringify(problems));`);
  assert.equal(loaded, ['validators/Project.gen.cjs']);
});

test('a dashboard and an alert load their own validators, each once', () => {
  const loaded = loadedBy(`import { validateKind } from './src/schema/validator.ts';
for (let i = 0; i < 3; i++) {
  validateKind('Dashboard', { apiVersion: 'steward/v1', kind: 'Dashboard', metadata: { name: 'd' }, spec: { name: 'D', tiles: [] } });
  validateKind('Alert', { kind: 'Alert' });
}`);
  assert.equal(loaded, ['validators/Alert.gen.cjs', 'validators/Dashboard.gen.cjs']);
});

test('checking a dashboard list loads that response check alone', () => {
  const loaded = loadedBy(`import { checkResponse } from './src/clients/validate.ts';
const problems = checkResponse('observability.dashboards', { data: [] });
if (problems.length !== 0) throw new Error(JSON.stringify(problems));`);
  assert.equal(loaded, ['response-validators/observability_dashboards.gen.cjs']);
});

test('a name that is not one of the generated files is refused before it becomes a path', () => {
  const get = lazyGenerated<unknown>(new URL('../../src/schema/validators/', import.meta.url), ['Project']);
  for (const name of ['../../../package', 'Dashboard', '', 'Project/../Alert']) {
    assert.throws(() => get(name), /no generated code named/, name);
  }
  assert.type(get('Project'), 'function');
});

test('a generated file missing from the installation is said as such, not as a bug', () => {
  const get = lazyGenerated<unknown>(new URL('../../src/schema/validators/', import.meta.url), ['Nope']);
  try {
    get('Nope');
    assert.unreachable('a missing file loaded');
  } catch (e) {
    assert.instance(e, CliError);
    assert.match((e as Error).message, /this installation of steward lacks .*Nope\.gen\.cjs, generated code it loads when needed: reinstall steward/);
    assert.not.match((e as Error).message, /Require stack/);
  }
});

test.run();
