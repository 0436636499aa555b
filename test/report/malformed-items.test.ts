/**
 * `steward report` against the emulator serving what real ClickHouse Cloud servers send: `null` where the
 * spec leaves a member optional (an endpoint's `dnsNames: null`, a backup's `type: null`) and, in one pipe,
 * `replicaCpuMillicores: "500m"`. The nulls read as absent; the bad pipe is one finding naming it and its
 * member, in every output, while the other pipes (the Failed one too) are checked; the review is incomplete,
 * so the command exits 1. Before, one such item failed its whole list: the Failed pipe went unreported.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defaultSeedFor } from '../../src/emulator/index.ts';
import type { Report } from '../../src/report/types.ts';
import { steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';

type Json = Record<string, any>;

/** The default seed, with prod-warehouse's items as a real server may send them. */
function realisticSeed(): Json {
  const seed = structuredClone(defaultSeedFor('seed')) as Json;
  const prod = (seed['organizations'] as Json[]).flatMap((o) => o['services'] as Json[]).find((s) => s['name'] === 'prod-warehouse')!;
  const kafka = (prod['pipes'] as Json[]).find((p) => p['name'] === 'events-from-kafka')!;
  kafka['scaling'] = { ...kafka['scaling'], replicaCpuMillicores: '500m' };
  for (const e of prod['reversePrivateEndpoints'] as Json[]) e['dnsNames'] = null;
  for (const b of prod['backups'] as Json[]) b['type'] = null;
  return seed;
}

for (const api of ['clickhouse-cloud', 'seed'] as const) {
  test(`cloud.api ${api}: nulls read as absent; one malformed pipe is a finding, the others are checked, exit 1`, async () => {
    const x = await examplesWithEmulator({ data: realisticSeed() as never });
    try {
      const f = join(x.dir, 'steward.yaml');
      writeFileSync(f, readFileSync(f, 'utf8').replace('\n  cloud:\n', `\n  cloud:\n    api: ${api}\n`));
      const r = await steward(['report', '--out', 'reports', '--format', 'json'], { cwd: x.dir, env: x.env });
      assert.is(r.code, 1, r.stderr);
      assert.match(r.stderr, /error: 1 item malformed, so the review is incomplete \(see the read\.malformed-item findings\)/);
      const report = JSON.parse(r.stdout) as Report;
      const prod = report.services.find((s) => s.name === 'prod-warehouse')!;
      // Every list was read: no read failed, the endpoints' and backups' nulls were no problem.
      assert.equal(prod.readFailures, []);
      assert.equal(report.summary.malformedItems, 1);
      assert.equal(
        prod.malformedItems.map((m) => [m.part, m.name, m.kept, m.problems]),
        [['pipes', 'events-from-kafka', true, ['scaling.replicaCpuMillicores: must be number or null, got "500m"']]],
      );
      const bad = prod.findings.filter((x) => x.id === 'read.malformed-item');
      assert.is(bad.length, 1);
      assert.is(bad[0]!.severity, 'error');
      assert.equal(bad[0]!.object.name, 'events-from-kafka');
      assert.ok(bad[0]!.object.id);
      assert.match(bad[0]!.message, /events-from-kafka.*scaling\.replicaCpuMillicores: must be number or null, got "500m"; checked without that member/);
      // The Failed pipe beside it is reported; the bad pipe itself is still checked (its state, its scaling).
      assert.ok(
        prod.findings.some((x) => x.id === 'pipe.state' && x.object.name === 'logs-from-s3'),
        JSON.stringify(prod.findings.map((x) => [x.id, x.object.name])),
      );
      assert.ok(prod.pipes.some((p) => p.name === 'events-from-kafka'));
      assert.not.ok(prod.findings.some((x) => x.id === 'pipe.missing' && x.object.name === 'events-from-kafka'));
      assert.is(prod.endpoints.length, 2);
      assert.ok(prod.backups.length > 0);
      // Every output shows it.
      const md = readFileSync(join(x.dir, 'reports', 'report.md'), 'utf8');
      const html = readFileSync(join(x.dir, 'reports', 'report.html'), 'utf8');
      assert.match(md, /read\.malformed-item/);
      assert.match(md, /1 item malformed: the review is incomplete/);
      assert.match(html, /data-finding-id="read\.malformed-item"/);
      assert.match(html, /events-from-kafka/);
      const text = await steward(['report', '--out', 'reports'], { cwd: x.dir, env: x.env });
      assert.is(text.code, 1);
      assert.match(text.stdout, /error\s+read\.malformed-item\s+the server sent pipe "events-from-kafka" \(id [0-9a-f-]+\) malformed/);
      assert.match(text.stdout, /1 item malformed, the review is incomplete/);
    } finally {
      await x.cleanup();
    }
  });
}

test.run();
