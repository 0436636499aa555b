/**
 * `steward report` with `cloud.api: clickhouse-cloud` end to end against the emulator, which serves the same
 * services under the real paths (`/clickpipes`, `/clickpipesReversePrivateEndpoints`) and the seed's: the
 * report reads the real paths only and says exactly what it says with the seed profile.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { Report } from '../../src/report/types.ts';
import { steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';

function essence(r: Report): unknown {
  return r.services.map((s) => ({
    name: s.name,
    findings: s.findings.map((f) => [f.id, f.severity, f.object]),
    pipes: s.pipes.map((p) => [p.name, p.state, p.listed]),
    endpoints: s.endpoints.map((e) => [e.description, e.status, e.listed]),
    backups: s.backups.map((b) => b.id),
    readFailures: s.readFailures,
  }));
}

test('report with cloud.api clickhouse-cloud reads the real paths and reports what the seed profile reports', async () => {
  const x = await examplesWithEmulator();
  try {
    const run = async () => {
      const r = await steward(['report', '--out', 'reports', '--format', 'json'], { cwd: x.dir, env: x.env });
      return { ...r, report: JSON.parse(r.stdout) as Report };
    };
    const seed = await run();
    x.emu.clearRequests();

    const f = join(x.dir, 'steward.yaml');
    const yaml = readFileSync(f, 'utf8');
    assert.match(yaml, /\n  cloud:\n/);
    writeFileSync(f, yaml.replace('\n  cloud:\n', '\n  cloud:\n    api: clickhouse-cloud\n'));
    const real = await run();

    assert.is(real.code, seed.code, real.stderr);
    assert.ok(real.report.services.length > 0);
    assert.equal(real.report.summary.readFailures, 0);
    assert.equal(essence(real.report), essence(seed.report));

    const paths = x.emu.requests().map((r) => r.path);
    assert.ok(paths.some((p) => p.endsWith('/clickpipes')), paths.join('\n'));
    assert.ok(paths.some((p) => p.endsWith('/clickpipesReversePrivateEndpoints')), paths.join('\n'));
    assert.not.ok(paths.some((p) => p.includes('/ingestpipes')), paths.join('\n'));
  } finally {
    await x.cleanup();
  }
});

test('an unknown cloud.api is one line with file:line:col and a did-you-mean, before anything connects', async () => {
  const x = await examplesWithEmulator();
  try {
    const f = join(x.dir, 'steward.yaml');
    writeFileSync(f, readFileSync(f, 'utf8').replace('\n  cloud:\n', '\n  cloud:\n    api: clickhouse-clod\n'));
    const r = await steward(['report', '--out', 'reports'], { cwd: x.dir, env: x.env });
    assert.is(r.code, 1);
    assert.match(r.stdout + r.stderr, /steward\.yaml:\d+:\d+\s+\/spec\/cloud\/api .*did you mean "clickhouse-cloud"/);
    assert.equal(x.emu.requests(), []);
  } finally {
    await x.cleanup();
  }
});

test.run();
