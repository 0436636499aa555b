/**
 * The live memo through the CLI, against the emulator (issue 15): `steward plan` writes
 * `.steward/cache/live.memo` beside the parse pack, a warm plan answers from it without writing it again,
 * and whatever the memo holds (a changed file, a forged body) the plan is the one `--no-cache` computes.
 */
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { nodeFileSystem } from '../../src/config/fs.ts';
import { loadWorkspace } from '../../src/config/load.ts';
import { desiredDigest } from '../../src/plan/normalize.ts';
import type { DashboardSpec } from '../../src/schema/kinds.ts';
import { steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';

const MEMO = '.steward/cache/live.memo';

test('plan: the live memo is written, used, and never changes the plan (changed file, forged memo)', async () => {
  const x = await examplesWithEmulator();
  try {
    // A dashboard no alert is on: the plan reads no more of it than its id, name and tags while it is unchanged.
    const plain = join(x.dir, 'dashboards/plain.yaml');
    writeFileSync(
      plain,
      readFileSync(join(x.dir, 'dashboards/api-latency.yaml'), 'utf8').replace('name: api-latency', 'name: plain').replace('Public API latency', 'Plain'),
    );
    const applied = await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env });
    assert.is(applied.code, 0, applied.stderr);
    // What `--debug` said of the memo, the last plan that asked for it.
    let said = '';
    const plan = async (args: string[] = []) => {
      const r = await steward(['plan', '--format', 'json', ...args], { cwd: x.dir, env: x.env });
      assert.is(r.code, 0, r.stderr);
      said = r.stderr
        .split('\n')
        .filter((l) => l.startsWith('[cache]'))
        .join('\n');
      const { createdAt: _t, ...rest } = JSON.parse(r.stdout) as Record<string, unknown> & { summary: Record<string, number> };
      return rest;
    };
    const memo = join(x.dir, MEMO);

    // GIVEN the examples applied: every dashboard unchanged
    // (the apply's own plan wrote one: the live list's body, with no dashboard of the project yet)
    rmSync(join(x.dir, '.steward/cache'), { recursive: true, force: true });
    const reference = await plan(['--no-cache', '--debug']);
    assert.not.ok(existsSync(memo), '--no-cache writes no memo');
    assert.is(said, '[cache] live memo .steward/cache/live.memo: off (--no-cache)');
    assert.ok(reference.summary['noop']! >= 3, JSON.stringify(reference.summary));
    // WHEN planned cold, then warm
    const cold = await plan(['--debug']);
    assert.ok(existsSync(memo), `a cold plan wrote no memo; --debug said:\n${said}`);
    assert.is(said, '[cache] live memo .steward/cache/live.memo: written');
    const written = statSync(memo);
    const warm = await plan(['--debug']);
    assert.is(said, '[cache] live memo .steward/cache/live.memo: unchanged');
    // THEN the same plan; the warm one found every live dashboard in the memo (it wrote nothing)
    assert.equal(cold, reference);
    assert.equal(warm, reference);
    assert.is(statSync(memo).ino, written.ino, 'a warm plan of an unchanged service rewrote the memo');
    // The list's bytes are the ones remembered: the plan is made from the memo's summaries, the body unparsed.
    const traced = async () => (await steward(['plan', '--debug'], { cwd: x.dir, env: x.env })).stderr;
    const unparsed = await traced();
    assert.match(unparsed, /GET \S*\/dashboards: body known to the caller \(sha256 [\w-]{12}…\): kept unparsed/);
    assert.not.match(unparsed, 'parsing the kept body');
    // The list's body is remembered whole (its live digest), so the warm plan hashed no dashboard.
    assert.match(readFileSync(memo, 'utf8'), /"bodies":\{"[\w-]+":\["[0-9a-f]{64}",\[\[/);

    // WHEN the service changes under steward (a dashboard made by hand): another body, the same plan as without memo
    const made = await fetch(`${x.emu.url}/api/v2/dashboards`, {
      method: 'POST',
      headers: { authorization: `Bearer ${x.emu.credentials.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'made by hand', tiles: [], tags: [] }),
    });
    assert.ok(made.ok, String(made.status));
    const handRef = await plan(['--no-cache']);
    assert.is((handRef['live'] as { unmanaged: number }).unmanaged, (reference['live'] as { unmanaged: number }).unmanaged + 1);
    assert.equal(await plan(), handRef);
    assert.equal(await plan(), handRef);

    // WHEN a file changes (the live dashboard does not)
    const file = join(x.dir, 'dashboards/checkout-overview.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('      w: 8\n', '      w: 7\n'));
    const changedRef = await plan(['--no-cache']);
    assert.is.not(changedRef['fingerprint'], undefined);
    assert.ok(changedRef.summary['blocked']! >= 1, JSON.stringify(changedRef.summary));
    // THEN the memo's entry (the live side) still holds, and the drift is found
    assert.equal(await plan(), changedRef);

    // WHEN a dashboard no alert is on changes in its file: it is read from the kept body, then kept whole
    // in the memo, so the next plan of the same list parses nothing
    writeFileSync(plain, readFileSync(plain, 'utf8').replace('w: 12', 'w: 11'));
    const plainRef = await plan(['--no-cache']);
    assert.match(await traced(), /kept unparsed[^]*parsing the kept body/);
    assert.equal(await plan(), plainRef);
    const again = await traced();
    assert.match(again, 'kept unparsed');
    assert.not.match(again, 'parsing the kept body');
    writeFileSync(plain, readFileSync(plain, 'utf8').replace('w: 11', 'w: 12'));

    // WHEN the memo is forged to say every live dashboard matches the changed file (its HMAC now fails)
    const loaded = await loadWorkspace({ fs: nodeFileSystem, env: x.env, cwd: x.dir }, { requireProject: true, cache: false });
    const spec = loaded.resources.find((r) => r.kind === 'Dashboard' && r.name === 'checkout-overview')!.doc.spec as DashboardSpec;
    const lie = desiredDigest(spec, loaded.project!.markerTag)!;
    const text = readFileSync(memo, 'utf8');
    assert.match(text, /sha256:[0-9a-f]{64}/);
    writeFileSync(memo, text.replace(/sha256:[0-9a-f]{64}/g, lie));
    // THEN it is ignored: the plan is still the one computed without it
    assert.equal(await plan(), changedRef);
  } finally {
    await x.cleanup();
  }
});

test.run();
