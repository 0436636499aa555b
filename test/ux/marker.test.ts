import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultMarkerTag } from '../../src/config/project.ts';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { tmpProject } from '../helpers/tmp.ts';

// Issue 14, point 5: the default marker tag was the same for every project, so a second team's nightly
// plan exited 3 on the first team's dashboards (orphans).

test('the default marker tag is per project; without a name it is the old shared one', () => {
  assert.is(defaultMarkerTag('team-a'), 'managed-by:steward/team-a');
  assert.is(defaultMarkerTag(undefined), 'managed-by:steward');
});

for (const api of ['seed', 'hyperdx'] as const) {
  test(`two projects on one ${api} service: neither sees the other's dashboards as orphans`, async () => {
    const p = tmpProject({});
    const emu = await startEmulator({ seed: 1, api });
    try {
      const env = emu.env as Record<string, string>;
      for (const team of ['team-a', 'team-b']) {
        const r = await steward(['init', team, '--api', api], { cwd: p.dir });
        assert.is(r.code, 0, r.stderr);
        const f = join(p.dir, team, 'dashboards/service-errors.yaml');
        writeFileSync(f, readFileSync(f, 'utf8').replace('name: Service errors', `name: Service errors (${team})`));
        // The rate limiter has its own tests: 100 requests a minute would make each run here wait.
        const sy = join(p.dir, team, 'steward.yaml');
        writeFileSync(sy, readFileSync(sy, 'utf8').replace('requestsPerMinute: 100', 'requestsPerMinute: 6000'));
      }
      const a = join(p.dir, 'team-a');
      const b = join(p.dir, 'team-b');
      const applyA = await steward(['apply', '--auto-approve'], { cwd: a, env });
      assert.is(applyA.code, 0, applyA.stdout + applyA.stderr);
      assert.match(applyA.stdout, 'managed-by:steward/team-a');

      // team B's nightly drift check: its own dashboard to create (2), never blocked on A's (3)
      const planB = await steward(['plan', '--detailed-exitcode'], { cwd: b, env });
      assert.is(planB.code, 2, planB.stdout + planB.stderr);
      assert.not.match(planB.stdout, /orphan/i);
      assert.match(planB.stdout, '1 to create, 0 to update, 0 blocked');
      const applyB = await steward(['apply', '--auto-approve'], { cwd: b, env });
      assert.is(applyB.code, 0, applyB.stdout + applyB.stderr);
      for (const dir of [a, b]) {
        const again = await steward(['plan', '--detailed-exitcode'], { cwd: dir, env });
        assert.is(again.code, 0, `${dir}: ${again.stdout}${again.stderr}`);
      }
      // and an explicit markerTag still wins
      const sy = join(b, 'steward.yaml');
      writeFileSync(
        sy,
        readFileSync(sy, 'utf8').replace('    requestsPerMinute: 6000\n', '    requestsPerMinute: 6000\n    markerTag: managed-by:steward/team-a\n'),
      );
      const shared = await steward(['plan', '--detailed-exitcode'], { cwd: b, env });
      assert.match(shared.stdout, /orphan/i, "with the same marker, A's dashboard is an orphan to B");
    } finally {
      await emu.close();
      p.cleanup();
    }
  });
}

test('a marker tag written as ${VAR} is refused at its file:line:col (it was taken literally), in the spec and in any environment', async () => {
  const CASES: Array<[string, string, RegExp]> = [
    [
      'spec',
      '  observability:\n    url: http://127.0.0.1:1\n    markerTag: managed-by:${TEAM}\n',
      /steward\.yaml:9:16 .*spec\.observability\.markerTag is "managed-by:\$\{TEAM\}"/,
    ],
    [
      'an environment not chosen',
      '  environments:\n    prod:\n      observability:\n        markerTag: ${TAG:-managed-by:steward}\n',
      /steward\.yaml:10:20 .*spec\.environments\.prod\.observability\.markerTag/,
    ],
    ['the $${ escape', '  observability:\n    markerTag: tag-$${x}\n', /steward\.yaml:8:16 .*markerTag is "tag-\$\$\{x\}"/],
  ];
  for (const [name, section, where] of CASES) {
    const p = tmpProject({
      'steward.yaml': `apiVersion: steward/v1\nkind: Project\nmetadata:\n  name: team-a\nspec:\n  resources: ['dashboards/*.yaml']\n${section}`,
    });
    try {
      const r = await steward(['validate'], { cwd: p.dir, env: { TEAM: 'a', TAG: 'b' } });
      assert.is(r.code, 1, `${name}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, where, `${name}: ${r.stderr}`);
      assert.match(r.stderr, 'is not resolved there', name);
    } finally {
      p.cleanup();
    }
  }
  // A literal tag with a lone $ is still a tag.
  const p = tmpProject({
    'steward.yaml': "apiVersion: steward/v1\nkind: Project\nspec:\n  resources: ['dashboards/*.yaml']\n  observability:\n    markerTag: cost$team\n",
    'dashboards/a.yaml': 'apiVersion: steward/v1\nkind: Dashboard\nmetadata:\n  name: a\nspec:\n  name: A\n  tiles: []\n',
  });
  try {
    const r = await steward(['validate'], { cwd: p.dir });
    assert.not.match(r.stderr, 'markerTag', r.stderr);
  } finally {
    p.cleanup();
  }
});

test("the project's name, which makes the default marker tag, is never resolved: ${VAR} there is refused at its line, set or not", async () => {
  // Resolved, `team-${TEAM}` made a marker that differs between runners (and published the variable).
  const p = tmpProject({
    'steward.yaml': "apiVersion: steward/v1\nkind: Project\nmetadata:\n  name: team-${TEAM:-a}\nspec:\n  resources: ['dashboards/*.yaml']\n",
    'dashboards/a.yaml': 'apiVersion: steward/v1\nkind: Dashboard\nmetadata:\n  name: a\nspec:\n  name: A\n  tiles: []\n',
  });
  try {
    for (const env of [{ TEAM: 'b' }, {}] as Array<Record<string, string>>) {
      const r = await steward(['validate'], { cwd: p.dir, env });
      assert.is(r.code, 1, `${JSON.stringify(env)}: ${r.stdout}${r.stderr}`);
      assert.match(r.stdout, /steward\.yaml:4:9 +\/metadata\/name .*"team-\$\{TEAM:-a\}"/, r.stdout);
    }
  } finally {
    p.cleanup();
  }
});
test("a file naming another project's dashboard does not take it over: blocked, never updated, never pruned later", async () => {
  const p = tmpProject({});
  const emu = await startEmulator({ seed: 1, api: 'hyperdx' });
  try {
    const env = emu.env as Record<string, string>;
    for (const team of ['team-a', 'team-b']) {
      const r = await steward(['init', team, '--api', 'hyperdx'], { cwd: p.dir });
      assert.is(r.code, 0, r.stderr);
      const sy = join(p.dir, team, 'steward.yaml');
      writeFileSync(sy, readFileSync(sy, 'utf8').replace('requestsPerMinute: 100', 'requestsPerMinute: 6000'));
    }
    const a = join(p.dir, 'team-a');
    const b = join(p.dir, 'team-b');
    const fa = join(a, 'dashboards/service-errors.yaml');
    writeFileSync(fa, readFileSync(fa, 'utf8').replace('name: Service errors', 'name: Checkout errors'));
    const applyA = await steward(['apply', '--auto-approve'], { cwd: a, env });
    assert.is(applyA.code, 0, applyA.stdout + applyA.stderr);
    const owned = () => emu.state().dashboards.find((d) => d.name === 'Checkout errors')!;
    const before = structuredClone(owned());
    assert.ok(before.tags.includes('managed-by:steward/team-a'));

    // Team B's file (a hostile pull request, or two teams picking one name) names A's dashboard.
    const fb = join(b, 'dashboards/service-errors.yaml');
    writeFileSync(
      fb,
      readFileSync(fb, 'utf8')
        .replace('name: Service errors', 'name: Checkout errors')
        .replace(/\n  tags:.*\n/, '\n  tags: [stolen]\n'),
    );
    const planB = await steward(['plan'], { cwd: b, env });
    assert.match(planB.stdout, 'managed-by:steward/team-a', planB.stdout);
    assert.match(planB.stdout, /another steward project/, planB.stdout);
    assert.not.match(planB.stdout, /1 to update/, planB.stdout);
    const applyB = await steward(['apply', '--auto-approve', '--prune'], { cwd: b, env });
    assert.equal(owned(), before, applyB.stdout + applyB.stderr);
    // B drops the file and prunes: A's dashboard never carried B's marker, so it stays.
    const { rmSync } = await import('node:fs');
    rmSync(fb);
    const pruneB = await steward(['apply', '--auto-approve', '--prune'], { cwd: b, env });
    assert.ok(
      emu.state().dashboards.some((d) => d.id === before.id),
      pruneB.stdout + pruneB.stderr,
    );
    // Pinned by id, the takeover is on purpose (the plan says update).
    writeFileSync(fb, readFileSync(fa, 'utf8').replace(/^metadata:\n/m, `metadata:\n  id: ${before.id}\n`));
    const pinned = await steward(['plan'], { cwd: b, env });
    assert.not.match(pinned.stdout, /another steward project/, pinned.stdout);
  } finally {
    await emu.close();
    p.cleanup();
  }
});

test("an alert file naming another project's alert does not take it over either", async () => {
  const p = tmpProject({});
  const emu = await startEmulator({ seed: 1, api: 'hyperdx' });
  try {
    const env = emu.env as Record<string, string>;
    const hook = (emu.state() as unknown as { webhooks: Array<{ id: string }> }).webhooks[0]!.id;
    const alert = (name: string) =>
      `apiVersion: steward/v1\nkind: Alert\nmetadata:\n  name: errors-high\nspec:\n  name: ${name}\n  threshold: 10\n  thresholdType: above\n  interval: 5m\n  source: tile\n  tile: { dashboard: service-errors, name: Errors by service }\n  channel: { type: webhook, webhookId: ${hook} }\n`;
    for (const team of ['team-a', 'team-b']) {
      const r = await steward(['init', team, '--api', 'hyperdx'], { cwd: p.dir });
      assert.is(r.code, 0, r.stderr);
      const sy = join(p.dir, team, 'steward.yaml');
      writeFileSync(
        sy,
        readFileSync(sy, 'utf8')
          .replace('requestsPerMinute: 100', 'requestsPerMinute: 6000')
          .replace('- dashboards/**/*.yaml', '- dashboards/**/*.yaml\n    - alerts/*.yaml'),
      );
      const fd = join(p.dir, team, 'dashboards/service-errors.yaml');
      writeFileSync(fd, readFileSync(fd, 'utf8').replace('name: Service errors', `name: Service errors (${team})`));
      const { mkdirSync } = await import('node:fs');
      mkdirSync(join(p.dir, team, 'alerts'));
      writeFileSync(join(p.dir, team, 'alerts/errors.yaml'), alert(`Errors high (${team})`));
    }
    const a = join(p.dir, 'team-a');
    const b = join(p.dir, 'team-b');
    const applyA = await steward(['apply', '--auto-approve'], { cwd: a, env });
    assert.is(applyA.code, 0, applyA.stdout + applyA.stderr);
    const owned = () => (emu.state().alerts as unknown as Array<{ name?: string; note?: string }>).find((x) => x.name === 'Errors high (team-a)')!;
    const before = structuredClone(owned());
    assert.is(before.note, 'managed-by:steward/team-a');
    writeFileSync(join(b, 'alerts/errors.yaml'), alert('Errors high (team-a)'));
    const planB = await steward(['plan'], { cwd: b, env });
    assert.match(planB.stdout, /another steward project/, planB.stdout);
    await steward(['apply', '--auto-approve', '--prune'], { cwd: b, env });
    assert.equal(owned(), before);
  } finally {
    await emu.close();
    p.cleanup();
  }
});

test.run();
