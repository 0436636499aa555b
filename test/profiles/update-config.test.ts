/**
 * A dashboard update (hyperdx) replaces each tile's config. A config member the live tile holds and the file
 * does not declare (set in the UI) is not drift on its own, but the update removes it: the plan must show it
 * going. examples/hyperdx against `emulator --api hyperdx` over loopback, through the CLI.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { copyExample } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';

const DASHBOARD = 'Checkout overview (HyperDX)';
const TILE = 'Payment latency p95';

interface Applied {
  run: (...args: string[]) => ReturnType<typeof steward>;
  /** The example's dashboard as the emulator now lists it. */
  live: () => Promise<any>;
  /** The file's Error count tile one unit taller; the dashboard's planned update, as `op path` lines. */
  tallerErrorCount: () => Promise<string[]>;
}

/** examples/hyperdx applied to a fresh hyperdx emulator, then its live tiles edited as in the UI (`edit`), before `check`. */
async function afterUiEdit(edit: (tiles: any[]) => void, check: (a: Applied) => Promise<void>): Promise<void> {
  const p = tmpProject({});
  copyExample(p.dir, 'hyperdx');
  const emu = await startEmulator({ api: 'hyperdx', seed: 7 });
  try {
    const env = { ...emu.env, XDG_CACHE_HOME: join(p.dir, '.cache') };
    const run = (...args: string[]) => steward(args, { cwd: p.dir, env });
    assert.is((await run('apply', '--auto-approve')).code, 0);
    const api = (method: string, path: string, body?: unknown) =>
      fetch(`${emu.url}/api/v2${path}`, {
        method,
        headers: { authorization: 'Bearer dev-token', 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }).then(async (r) => ((await r.json()) as { data: any }).data);
    const live = async () => (await api('GET', '/dashboards')).find((d: { name: string }) => d.name === DASHBOARD);
    const before = await live();
    edit(before.tiles);
    await api('PUT', `/dashboards/${before.id}`, { name: before.name, tiles: before.tiles, tags: before.tags, filters: before.filters });
    const tallerErrorCount = async () => {
      const f = join(p.dir, 'dashboards/checkout.yaml');
      writeFileSync(f, readFileSync(f, 'utf8').replace('      w: 8\n      h: 3\n', '      w: 8\n      h: 4\n'));
      const plan = await run('plan', '--format', 'json');
      const item = JSON.parse(plan.stdout).items.find((i: { kind: string; name: string }) => i.kind === 'Dashboard' && i.name === 'checkout-overview');
      assert.is(item.action, 'update');
      return item.patch.map((op: { op: string; path: string }) => `${op.op} ${op.path}`) as string[];
    };
    await check({ run, live, tallerErrorCount });
  } finally {
    await emu.close();
    p.cleanup();
  }
}

test('an update shows the config members set outside the files that it removes, on every tile it replaces', () =>
  // In the UI: a number format on one tile.
  afterUiEdit(
    (tiles) => (tiles.find((t: { name: string }) => t.name === TILE).config.numberFormat = { output: 'time', factor: 0.001 }),
    async ({ run, live, tallerErrorCount }) => {
      const quiet = await run('plan', '--detailed-exitcode');
      assert.is(quiet.code, 0, 'a member the file does not declare is not drift: ' + quiet.stdout);
      // The file changes another tile: the update replaces every tile's config, the number format with it.
      const paths = await tallerErrorCount();
      assert.ok(paths.includes(`remove /tiles/${TILE}/config/numberFormat`), JSON.stringify(paths));
      assert.ok(paths.includes('replace /tiles/Error count/h'), JSON.stringify(paths));
      const text = await run('plan');
      assert.match(text.stdout, 'numberFormat');
      assert.is((await run('apply', '--auto-approve')).code, 0);
      const after = await live();
      assert.is(after.tiles.find((t: { name: string }) => t.name === TILE).config.numberFormat, undefined, 'removed, as the plan said');
      assert.is((await run('plan', '--detailed-exitcode')).code, 0);
    },
  ));

test('a member a newer server keeps inside a config member the file declares is not drift; an update shows it going', () =>
  // HyperDX's spec leaves its objects open, so a live select item (or onClick, numberFormat...) may carry a
  // member steward's schema does not know. import leaves it out of the file; plan compared it, so the imported
  // (or applied) dashboard planned as an update after every apply (on seed: blocked for good).
  afterUiEdit(
    (tiles) => (tiles.find((t: { name: string }) => t.name === 'Error count').config.select[0].futureMember = { since: '2027' }),
    async ({ run, tallerErrorCount }) => {
      const quiet = await run('plan', '--detailed-exitcode');
      assert.is(quiet.code, 0, 'a member steward does not know is not drift: ' + quiet.stdout);
      assert.match(quiet.stdout, 'tiles[].config.select[].futureMember');
      // The file changes that tile: the update replaces its config, the unknown member with it, and says so.
      const paths = await tallerErrorCount();
      assert.ok(paths.includes('replace /tiles/Error count/h'), JSON.stringify(paths));
      assert.ok(paths.includes('remove /tiles/Error count/config/select/0/futureMember'), JSON.stringify(paths));
      assert.is((await run('apply', '--auto-approve')).code, 0);
      assert.is((await run('plan', '--detailed-exitcode')).code, 0);
    },
  ));

test.run();
