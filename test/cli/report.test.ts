import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { steward } from '../helpers/exec.ts';
import { examplesWithEmulator } from '../helpers/project.ts';

interface Finding {
  id: string;
  severity: string;
  object: { kind: string; name?: string; id?: string };
  expected?: unknown;
  actual?: unknown;
  patch?: unknown;
}

test("report on examples/ against the emulator's default seed: the expected findings, one by one", async () => {
  const x = await examplesWithEmulator();
  try {
    const r = await steward(['report', '--out', 'out', '--fail-on', 'error'], { cwd: x.dir, env: x.env });
    assert.is(r.code, 2, 'errors reach --fail-on error');
    const report = JSON.parse(readFileSync(join(x.dir, 'out/report.json'), 'utf8'));
    assert.is(report.formatVersion, 1);
    const f: Finding[] = report.services[0].findings;
    const one = (id: string, name?: string) => {
      const hits = f.filter((x) => x.id === id && (name === undefined || JSON.stringify(x.object).includes(name)));
      assert.is(hits.length, 1, `${id} ${name ?? ''}: ${JSON.stringify(f.map((x) => x.id))}`);
      return hits[0]!;
    };
    assert.is(one('backup.failed').severity, 'warning', 'a later backup succeeded');
    assert.is(one('backup.slow').severity, 'warning');
    assert.is(one('backup.size-jump').severity, 'warning');
    assert.is(one('backup.in-progress').severity, 'info');
    const failedPipe = one('pipe.state', 'logs-from-s3');
    assert.is(failedPipe.severity, 'error');
    assert.equal([failedPipe.expected, failedPipe.actual], ['Running', 'Failed']);
    assert.is(one('pipe.missing', 'sessions-from-kafka').severity, 'error');
    assert.ok(one('pipe.field-drift', 'clicks-from-kinesis').patch, 'drift shown as a patch');
    assert.is(one('pipe.in-progress', 'orders-cdc').severity, 'info', 'Snapshot is in progress, not drift');
    assert.is(one('pipe.unlisted', 'audit-from-gcs').severity, 'warning');
    assert.is(one('endpoint.status', 'msk-analytics').actual, 'PendingAcceptance');
    assert.not.ok(
      f.some((x) => x.id === 'backup.stale'),
      'the newest finished backup is 6 h old',
    );
    assert.not.ok(
      f.some((x) => JSON.stringify(x.object).includes('events-from-kafka')),
      'the matching pipe has no finding',
    );
    assert.is(f.length, 10);
    // the service was read with GETs only
    assert.ok(x.emu.requests().every((q) => q.method === 'GET' && q.path.startsWith('/v1/')));
  } finally {
    await x.cleanup();
  }
});

test('credentials never leave: the seed connection strings and the configured secret appear in no output', async () => {
  const x = await examplesWithEmulator({ keySecret: 'canary-secret-7f3a9c' });
  try {
    const env = { ...x.env, STEWARD_CLOUD_KEY_SECRET: 'canary-secret-7f3a9c' };
    const outs: string[] = [];
    for (const format of ['text', 'json', 'markdown', 'github']) {
      const r = await steward(['report', '--out', 'out', '--format', format, '--debug'], { cwd: x.dir, env });
      if (format === 'github') assert.match(r.stdout, /^::(error|warning|notice) title=steward report /m);
      assert.is(r.code, 0, r.stderr);
      outs.push(r.stdout, r.stderr);
    }
    for (const f of ['report.md', 'report.json', 'report.html']) outs.push(readFileSync(join(x.dir, 'out', f), 'utf8'));
    const all = outs.join('\n');
    assert.match(all, 'logs-from-s3', 'the pipe with the connection string is reported');
    assert.not.match(all, 'FAKE-SECRET');
    assert.not.match(all, 'canary-secret-7f3a9c');
    assert.not.match(all, Buffer.from('dev-key:canary-secret-7f3a9c').toString('base64'));
  } finally {
    await x.cleanup();
  }
});

test.run();
