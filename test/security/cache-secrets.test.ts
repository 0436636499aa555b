/**
 * The caches in the work tree (`.steward/cache/parse.pack`, `.steward/cache/live.memo`) never hold the value
 * of a variable whose name says it is a secret. With `spec.resourceVariablePrefix`, a resource may read
 * `${DASH_API_KEY}`; its value is redacted from every output, and it must not land in clear in a cache file
 * either (red team, round 11: the parse pack stored the interpolated document, the live memo the list the
 * service echoed it in).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';

const SECRET = 'SuperSecretValue12345';

test('a prefixed variable that says it is a secret: its value is read, redacted, and in no cache file', async () => {
  const x = await examplesWithEmulator();
  try {
    // GIVEN a project with a prefix, and a dashboard that reads a secret-named variable with it
    const project = join(x.dir, 'steward.yaml');
    writeFileSync(project, readFileSync(project, 'utf8').replace(/^ {2}state:/m, '  resourceVariablePrefix: DASH_\n  state:'));
    const dash = join(x.dir, 'dashboards/api-latency.yaml');
    // (a tile's name too: the journal, which CI keeps as an artifact, records tiles by name)
    writeFileSync(
      dash,
      readFileSync(dash, 'utf8')
        .replace('name: Public API latency', 'name: "Public API latency ${DASH_API_KEY}"')
        .replace('- name: 5xx ratio', '- name: "5xx ratio ${DASH_API_KEY}"'),
    );
    const env = { ...x.env, DASH_API_KEY: SECRET };
    // WHEN applied (the service then lists the dashboard by its name), then planned twice with the caches on
    const applied = await steward(['apply', '--auto-approve'], { cwd: x.dir, env });
    assert.is(applied.code, 0, applied.stderr);
    for (let i = 0; i < 2; i++) {
      const r = await steward(['plan', '--debug'], { cwd: x.dir, env });
      assert.is(r.code, 0, r.stderr);
      assert.not.ok(r.stdout.includes(SECRET) || r.stderr.includes(SECRET), 'the value was printed');
    }
    // THEN no file steward keeps in the work tree holds the value
    const dir = join(x.dir, '.steward/cache');
    const files = readdirSync(dir);
    assert.ok(files.includes('parse.pack') && files.includes('live.memo'), files.join(', '));
    for (const f of files) assert.not.ok(readFileSync(join(dir, f), 'latin1').includes(SECRET), `${f} holds the secret's value`);
    const kept = readdirSync(join(x.dir, '.steward'));
    assert.ok(kept.includes('journal.jsonl'), kept.join(', '));
    for (const f of kept) {
      if (f === 'cache') continue;
      assert.not.ok(readFileSync(join(x.dir, '.steward', f), 'latin1').includes(SECRET), `.steward/${f} holds the secret's value`);
    }
  } finally {
    await x.cleanup();
  }
});

test('an alert that reads a prefixed secret: the state file (committed after apply) holds no value, and the alert stays in sync', async () => {
  const x = await examplesWithEmulator();
  try {
    // GIVEN a project with a prefix, and an alert whose message reads a secret-named variable with it
    const project = join(x.dir, 'steward.yaml');
    writeFileSync(project, readFileSync(project, 'utf8').replace(/^ {2}state:/m, '  resourceVariablePrefix: DASH_\n  state:'));
    const alert = join(x.dir, 'alerts/api.yaml');
    writeFileSync(alert, readFileSync(alert, 'utf8').replace(/^ {2}message: .*$/m, '  message: "call ${DASH_API_KEY}"'));
    const env = { ...x.env, DASH_API_KEY: SECRET };
    // WHEN applied
    const applied = await steward(['apply', '--auto-approve'], { cwd: x.dir, env });
    assert.is(applied.code, 0, applied.stderr);
    // THEN the service got the value, the state file did not
    const state = readFileSync(join(x.dir, '.steward/state.json'), 'utf8');
    assert.not.ok(state.includes(SECRET), 'the state file holds the value');
    assert.ok(state.includes('call [redacted]'), state);
    const sent = JSON.stringify(await (await fetch(`${x.emu.url}/__emulator/state`)).json());
    assert.ok(sent.includes(`call ${SECRET}`), 'the service did not get the value');
    // AND a plan finds the alert unchanged (its record is compared as written); a new value is still sent with --reassert-alerts
    const plan = await steward(['plan', '--format', 'json'], { cwd: x.dir, env });
    assert.is(plan.code, 0, plan.stderr);
    const items = (JSON.parse(plan.stdout) as { items: Array<{ kind: string; name: string; action: string }> }).items;
    assert.is(items.find((i) => i.kind === 'Alert' && i.name === 'api-latency-high')?.action, 'noop', plan.stdout);
  } finally {
    await x.cleanup();
  }
});

test.run();
