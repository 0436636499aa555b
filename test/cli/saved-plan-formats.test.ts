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

/** The plan's text as an editor or a Windows shell may save it: with a byte-order mark, or as UTF-16. */
const ENCODINGS: Array<{ name: string; bytes: (text: string) => Buffer }> = [
  { name: 'UTF-8 with a byte-order mark (Notepad)', bytes: (t) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(t, 'utf8')]) },
  { name: "UTF-16LE with a byte-order mark (Windows PowerShell 5's >)", bytes: (t) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(t, 'utf16le')]) },
  { name: 'UTF-16BE with a byte-order mark', bytes: (t) => Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(t, 'utf16le').swap16()]) },
];

test('show and apply FILE read a plan saved with a byte-order mark or as UTF-16', async () => {
  const x = await examplesWithEmulator();
  try {
    const p = await steward(['plan', '--out', 'plan.json'], { cwd: x.dir, env: x.env });
    assert.is(p.code, 0, p.stderr);
    const file = join(x.dir, 'plan.json');
    const text = readFileSync(file, 'utf8');
    for (const e of ENCODINGS) {
      writeFileSync(file, e.bytes(text));
      const shown = await steward(['show', 'plan.json'], { cwd: x.dir, env: x.env });
      assert.is(shown.code, 0, `${e.name}: ${shown.stdout}${shown.stderr}`);
      assert.match(shown.stdout, 'to create', e.name);
    }
    // The last of them (UTF-16BE) applies: the digest holds over the decoded text.
    const a = await steward(['apply', 'plan.json'], { cwd: x.dir, env: x.env });
    assert.is(a.code, 0, a.stdout + a.stderr);
    assert.match(a.stdout, 'Apply complete');
  } finally {
    await x.cleanup();
  }
});

test.run();
