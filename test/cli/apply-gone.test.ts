/**
 * An alert whose metadata.id names nothing on the service: apply says so in the user's terms (issue 11),
 * not as the request's `PUT /api/v2/alerts/<id> → 404`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';

test('apply: an alert id the service does not know is named as such, with the way out', async () => {
  const x = await examplesWithEmulator();
  try {
    const file = join(x.dir, 'alerts/checkout.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('id: 65f5e4a3b9e77c001a000001', 'id: 65f5e4a3b9e77c001a0fffff'));
    const r = await steward(['apply', '--auto-approve'], { cwd: x.dir, env: x.env });
    assert.is(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stdout + r.stderr,
      /alert checkout-errors \(id 65f5e4a3b9e77c001a0fffff\) does not exist on this service: it was deleted since the plan was made \(HyperDX deletes the alerts of a tile a dashboard update removes or renames\), or its metadata\.id names no alert there; plan again/,
    );
  } finally {
    await x.cleanup();
  }
});

test('apply --yes is --auto-approve (the habit of other tools), not an unknown option', async () => {
  const x = await examplesWithEmulator();
  try {
    const r = await steward(['apply', '--yes'], { cwd: x.dir, env: x.env });
    assert.is(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /Apply complete/);
  } finally {
    await x.cleanup();
  }
});

test.run();
