/**
 * apply (no saved plan) in a terminal plans, shows the plan and waits for "yes": minutes may pass. A dashboard
 * made meanwhile of a name the plan creates (a person, another tool) ended as two of the name after the
 * apply. Now, once a person was asked, apply reads the live state again and refuses a plan it no longer
 * matches before any write, as it refuses a stale saved plan; with nothing changed it applies as before. Over
 * real HTTP: the emulator (hyperdx and seed), the CLI in this process with a terminal's input.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { Readable } from 'node:stream';
import { main } from '../../src/cli/main.ts';
import { startEmulator } from '../../src/emulator/index.ts';
import { copyExample } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';

/** `steward apply` in a terminal: `atPrompt` runs when the question is written, then "yes" is typed. */
async function applyAtPrompt(dir: string, env: Record<string, string>, atPrompt: () => Promise<void>) {
  let stdout = '';
  let stderr = '';
  const stdin = Object.assign(new Readable({ read() {} }), { isTTY: true });
  const code = await main(['apply'], {
    env: { PATH: process.env['PATH'] ?? '', NO_COLOR: '1', ...env },
    cwd: dir,
    stdout: { write: (t: string) => (stdout += t), isTTY: true, columns: 100 },
    stderr: {
      write: (t: string) => {
        stderr += t;
        if (t.includes('Only "yes"')) void atPrompt().then(() => stdin.push('yes\n'));
      },
    },
    stdin,
  });
  return { code, stdout, stderr };
}

const profiles = [
  { api: 'hyperdx' as const, sub: 'hyperdx' as const, name: 'Checkout overview (HyperDX)', path: '/api/v2/dashboards' },
  { api: 'seed' as const, sub: undefined, name: 'Checkout overview', path: '/api/v2/dashboards' },
];

for (const p of profiles) {
  test(`${p.api}: a dashboard of a planned name made while apply waits for "yes": refused as stale, nothing written`, async () => {
    const dir = tmpProject({});
    copyExample(dir.dir, p.sub);
    const emu = await startEmulator({ api: p.api, seed: 19 });
    try {
      const r = await applyAtPrompt(dir.dir, emu.env, async () => {
        const made = await fetch(emu.url + p.path, {
          method: 'POST',
          headers: { authorization: `Bearer ${emu.env.STEWARD_OBS_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: p.name, tiles: [], tags: ['team:payments'] }),
        });
        assert.is(made.status < 300, true, await made.text());
      });
      assert.is(r.code, 1, r.stdout + r.stderr);
      assert.match(r.stderr, 'plan is stale: live dashboards or alert records changed while apply waited for "yes"');
      assert.match(r.stderr, 'nothing was changed');
      assert.equal(emu.requests().filter((q) => q.method !== 'GET').length, 1, 'only the dashboard made by hand: apply wrote nothing');
    } finally {
      await emu.close();
      dir.cleanup();
    }
  });

  test(`${p.api}: nothing changed while apply waits for "yes": applied (the live state read again matches the plan)`, async () => {
    const dir = tmpProject({});
    copyExample(dir.dir, p.sub);
    const emu = await startEmulator({ api: p.api, seed: 19 });
    try {
      const r = await applyAtPrompt(dir.dir, emu.env, async () => {});
      assert.is(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, 'Apply complete');
    } finally {
      await emu.close();
      dir.cleanup();
    }
  });
}

test.run();
