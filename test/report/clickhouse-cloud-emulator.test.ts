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
    assert.ok(
      paths.some((p) => p.endsWith('/clickpipes')),
      paths.join('\n'),
    );
    assert.ok(
      paths.some((p) => p.endsWith('/clickpipesReversePrivateEndpoints')),
      paths.join('\n'),
    );
    assert.not.ok(
      paths.some((p) => p.includes('/ingestpipes')),
      paths.join('\n'),
    );
  } finally {
    await x.cleanup();
  }
});

test('pipe settings: a file may spell them as the seed (engine_*) or as ClickHouse Cloud (clickhouse_*), under either profile', async () => {
  const x = await examplesWithEmulator();
  try {
    const project = join(x.dir, 'steward.yaml');
    const service = join(x.dir, 'cloud', 'prod-warehouse.yaml');
    const baseProject = readFileSync(project, 'utf8');
    const baseService = readFileSync(service, 'utf8');
    assert.match(baseService, /- name: events-from-kafka\n        state: Running\n/);
    for (const api of ['seed', 'clickhouse-cloud']) {
      for (const prefix of ['engine_', 'clickhouse_']) {
        writeFileSync(project, baseProject.replace('\n  cloud:\n', `\n  cloud:\n    api: ${api}\n`));
        // The emulator's events-from-kafka runs with max_threads 8 and max_insert_threads 2.
        writeFileSync(
          service,
          baseService.replace(
            '- name: events-from-kafka\n        state: Running\n',
            `- name: events-from-kafka\n        state: Running\n        settings: { ${prefix}max_threads: 8, ${prefix}max_insert_threads: 3 }\n`,
          ),
        );
        const r = await steward(['report', '--out', 'reports', '--format', 'json'], { cwd: x.dir, env: x.env });
        const report = JSON.parse(r.stdout) as Report;
        const drift = report.services.flatMap((s) => s.findings).filter((f) => f.id === 'pipe.field-drift' && f.object.name === 'events-from-kafka');
        assert.is(drift.length, 1, `${api} ${prefix}: ${JSON.stringify(drift)}`);
        assert.equal(drift[0]!.patch, [{ op: 'replace', path: `/settings/${prefix}max_insert_threads`, value: 3 }], `${api} ${prefix}`);
      }
    }
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

test('backup types: the emulator sends full and incremental backups, and the size-jump check compares each with the previous of its type (built CLI, clickhouse-cloud)', async () => {
  const x = await examplesWithEmulator();
  try {
    const f = join(x.dir, 'steward.yaml');
    writeFileSync(f, readFileSync(f, 'utf8').replace('\n  cloud:\n', '\n  cloud:\n    api: clickhouse-cloud\n'));
    const r = await steward(['report', '--out', 'reports', '--format', 'json'], { cwd: x.dir, env: x.env });
    const report = JSON.parse(r.stdout) as Report;
    const prod = report.services.find((s) => s.name === 'prod-warehouse')!;
    // GIVEN a week's cycle of one full backup (~420 GiB) and six incrementals (~19 GiB), as the real API types them
    const types = new Map(prod.backups.map((b) => [b.id, b.type]));
    assert.equal([...new Set(types.values())].sort(), ['full', 'incremental']);
    const done = prod.backups.filter((b) => b.status === 'done');
    assert.is(done.filter((b) => b.type === 'full').length, 5);
    // THEN the one jump is the incremental of day 17 against the incremental before it (maxSizeChangePercent 50),
    // and no full backup is a jump against the incremental before it (+2,000 % if types were ignored)
    const jumps = prod.findings.filter((x) => x.id === 'backup.size-jump');
    assert.is(jumps.length, 1, JSON.stringify(jumps));
    const jump = jumps[0]!;
    const actual = jump.actual as { changePercent: number; previousId: string };
    assert.is(types.get(jump.object.id!), 'incremental');
    assert.is(types.get(actual.previousId), 'incremental');
    assert.ok(actual.changePercent > 50 && actual.changePercent < 100, String(actual.changePercent));
    // and a full backup against the full a week before it is within the limit
    const fulls = done.filter((b) => b.type === 'full');
    for (let i = 1; i < fulls.length; i++) {
      const change = Math.abs(fulls[i]!.sizeInBytes! / fulls[i - 1]!.sizeInBytes! - 1);
      assert.ok(change < 0.5, `full ${fulls[i]!.id}: ${change}`);
    }
  } finally {
    await x.cleanup();
  }
});

test.run();
