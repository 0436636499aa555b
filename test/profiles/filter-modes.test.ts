/**
 * A dashboard filter's modes (HyperDX 2026-08 FilterInput): variableName "is rejected when isVariableEnabled is
 * not true, and is omitted from responses for such a filter"; appliesToSourceIds alike when isBroadcastEnabled
 * is false. validate passed a file setting them and the create failed with a 400 (the emulator now refuses it
 * as HyperDX does, test/emulator/hyperdx.test.ts). A server that answers such a member anyway (a mock of the
 * spec does) must not make an applied project drift, and import must not write it into a file.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { startEmulator } from '../../src/emulator/index.ts';
import { steward } from '../helpers/exec.ts';
import { copyExample } from '../helpers/project.ts';
import { startProxy } from '../helpers/proxy.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { applyThenReadThroughProxy } from './through-proxy.ts';

const ENVIRONMENT = '{ type: QUERY_EXPRESSION, name: Environment, expression: environment, source: Logs }';

test('hyperdx: a variableName on a filter that is not a variable is refused by validate at the member', async () => {
  const p = tmpProject({});
  try {
    copyExample(p.dir, 'hyperdx');
    const f = join(p.dir, 'dashboards', 'checkout.yaml');
    writeFileSync(f, readFileSync(f, 'utf8').replace(ENVIRONMENT, ENVIRONMENT.replace(' }', ', variableName: env }')));
    const r = await steward(['validate'], { cwd: p.dir });
    assert.is(r.code, 1, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /dashboards\/checkout\.yaml:\d+:\d+ {2}\/spec\/filters\/0\/variableName {2}error: filter "Environment" sets variableName but is not a variable; the hyperdx API refuses it/,
    );
    // As a variable it is fine.
    writeFileSync(f, readFileSync(f, 'utf8').replace('variableName: env }', 'variableName: env, isVariableEnabled: true }'));
    const ok = await steward(['validate'], { cwd: p.dir });
    assert.is(ok.code, 0, ok.stdout + ok.stderr);
  } finally {
    p.cleanup();
  }
});

test('hyperdx: a server answering a filter member it omits for the filter mode: no drift, and import leaves it out', async () => {
  const p = tmpProject({});
  const emu = await startEmulator({ api: 'hyperdx', seed: 7 });
  const proxy = await startProxy(emu.url, {
    rewrite: (req, path, status, text) => {
      if (req.method !== 'GET' || !path.endsWith('/dashboards') || status !== 200) return text;
      const json = JSON.parse(text) as { data: Array<{ filters?: Array<Record<string, unknown>> }> };
      for (const d of json.data) for (const f of d.filters ?? []) if (f['isVariableEnabled'] !== true) f['variableName'] = 'env';
      return JSON.stringify(json);
    },
  });
  try {
    const { env, apply: a, plan, imp } = await applyThenReadThroughProxy(p.dir, emu.env as Record<string, string>, proxy.url);
    assert.is(a.code, 0, a.stdout + a.stderr);
    assert.is(plan.code, 0, plan.stdout + plan.stderr);
    assert.is(imp.code, 0, imp.stdout + imp.stderr);
    const written = readdirSync(join(p.dir, 'imported'))
      .map((n) => readFileSync(join(p.dir, 'imported', n), 'utf8'))
      .join('\n');
    assert.match(written, '{ source: Logs, type: QUERY_EXPRESSION, name: Environment, expression: environment }');
    const check = await steward(['validate', 'imported'], { cwd: p.dir, env });
    assert.is(check.code, 0, check.stdout + check.stderr);
  } finally {
    await proxy.close();
    await emu.close();
    p.cleanup();
  }
});

test.run();
