/**
 * A plan saved by a steward before fingerprint format 3 (issue 15) still applies, through the built CLI
 * against the emulator: the fingerprint it carries is checked under its own formula. A plan whose
 * fingerprint holds under neither is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readState } from '../../src/apply/state.ts';
import { createObservabilityClient } from '../../src/clients/index.ts';
import { legacyFingerprint } from '../../src/plan/fingerprint.ts';
import { steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';

test('apply FILE: a plan saved with the format-2 fingerprint applies; one with a fingerprint of neither format is stale', async () => {
  const x = await examplesWithEmulator();
  try {
    const p = await steward(['plan', '--out', 'plan.json'], { cwd: x.dir, env: x.env });
    assert.is(p.code, 0, p.stderr);
    const file = join(x.dir, 'plan.json');
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { fingerprint: string };
    // GIVEN the plan as an earlier steward wrote it: the same items and binding, the format-2 fingerprint
    const live = await createObservabilityClient({ url: x.emu.url, token: x.emu.credentials.token }).listDashboards();
    const legacy = legacyFingerprint(live, readState(join(x.dir, '.steward/state.json')));
    assert.is.not(legacy, saved.fingerprint);
    writeFileSync(file, JSON.stringify({ ...saved, fingerprint: `sha256:${'0'.repeat(64)}` }));
    // WHEN its fingerprint is of neither format: stale, nothing written
    x.emu.clearRequests();
    const stale = await steward(['apply', 'plan.json'], { cwd: x.dir, env: x.env });
    assert.is(stale.code, 1, stale.stdout);
    assert.match(stale.stderr, 'plan is stale');
    assert.equal(
      x.emu.requests().map((r) => r.method),
      ['GET'],
    );
    // WHEN it carries the format-2 fingerprint of this live state: applied
    writeFileSync(file, JSON.stringify({ ...saved, fingerprint: legacy }));
    const a = await steward(['apply', 'plan.json'], { cwd: x.dir, env: x.env });
    assert.is(a.code, 0, a.stderr);
    assert.match(a.stdout, 'Apply complete: 3 created, 4 updated');
  } finally {
    await x.cleanup();
  }
});

test.run();
