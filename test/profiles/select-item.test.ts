/**
 * SelectItem's prose in HyperDX 2026-08: "The valueExpression must be omitted when aggFn is "count" ... The
 * level field may only be used with aggFn "quantile"". The server refuses both on a write (400), and leaves
 * both out of what it answers (convertToExternalSelectItem); a mock of the spec answers them anyway.
 *
 * - A file with either passed validate and plan, and the create failed: validate refuses them now, and the
 *   emulator answers them with HyperDX's 400 (test/emulator/hyperdx.test.ts).
 * - A server that answers them (the emulator behind a proxy that adds both, as a prism mock does) must not
 *   make an applied project drift, and import must write files that validate: the members mean nothing there.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { copyExample } from '../helpers/project.ts';
import { startProxy } from '../helpers/proxy.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { applyThenReadThroughProxy } from './through-proxy.ts';

type Item = Record<string, unknown>;

/** Every listed dashboard's select items gain what HyperDX never answers: a level off quantile, a count's value. */
function inertMembersProxy(target: string) {
  return startProxy(target, {
    rewrite: (req, path, status, text) => {
      if (req.method !== 'GET' || !path.endsWith('/dashboards') || status !== 200) return text;
      const json = JSON.parse(text) as { data: Array<{ tiles: Array<{ config?: { select?: unknown } }> }> };
      for (const d of json.data)
        for (const t of d.tiles) {
          const select = t.config?.select;
          if (!Array.isArray(select)) continue;
          for (const item of select as Item[]) {
            if (item['aggFn'] === 'count') item['valueExpression'] = 'Duration';
            else if (typeof item['aggFn'] === 'string' && item['aggFn'] !== 'quantile') item['level'] = 0.5;
          }
        }
      return JSON.stringify(json);
    },
  });
}

test('hyperdx: a level off quantile, or a count with a valueExpression, is refused by validate at the member', async () => {
  const p = tmpProject({});
  try {
    copyExample(p.dir, 'hyperdx');
    const f = join(p.dir, 'dashboards', 'checkout.yaml');
    const text = readFileSync(f, 'utf8');
    writeFileSync(
      f,
      text
        .replace(
          '{ aggFn: avg, valueExpression: Duration, alias: Mean duration }',
          '{ aggFn: avg, valueExpression: Duration, level: 0.95, alias: Mean duration }',
        )
        .replace(
          '{ aggFn: count, where: "ServiceName:checkout AND Body:order_placed"',
          '{ aggFn: count, valueExpression: Body, where: "ServiceName:checkout AND Body:order_placed"',
        ),
    );
    const r = await steward(['validate'], { cwd: p.dir });
    assert.is(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /dashboards\/checkout\.yaml:\d+:\d+ {2}\/spec\/tiles\/1\/config\/select\/0\/valueExpression {2}error: aggFn count counts rows and takes no valueExpression/,
    );
    assert.match(
      r.stdout,
      /dashboards\/checkout\.yaml:\d+:\d+ {2}\/spec\/tiles\/3\/config\/select\/0\/level {2}error: level is for aggFn quantile; the hyperdx API refuses it with aggFn avg/,
    );
  } finally {
    p.cleanup();
  }
});

test('hyperdx: a server answering those inert members: the applied project plans unchanged, import writes files that validate', async () => {
  const p = tmpProject({});
  const emu = await startEmulator({ api: 'hyperdx', seed: 7 });
  const proxy = await inertMembersProxy(emu.url);
  try {
    const { env, apply: a, plan, imp } = await applyThenReadThroughProxy(p.dir, emu.env as Record<string, string>, proxy.url);
    assert.is(a.code, 0, a.stdout + a.stderr);
    assert.is(plan.code, 0, plan.stdout + plan.stderr);
    assert.is(imp.code, 0, imp.stdout + imp.stderr);
    assert.match(imp.stdout, /left out select\[0\]\.level: unused with that aggFn/);
    assert.match(imp.stdout, /left out select\[0\]\.valueExpression: unused with that aggFn/);
    const check = await steward(['validate', 'imported'], { cwd: p.dir, env });
    assert.is(check.code, 0, check.stdout + check.stderr);
  } finally {
    await proxy.close();
    await emu.close();
    p.cleanup();
  }
});

test.run();
