/**
 * Smoke test of the benchmark harness: `bench/run.ts --quick --only apply`, in process (the emulator still
 * runs in its child process). Proves the apply benchmark runs end to end, checks what it created, and that
 * its rows and the other benchmarks' row shapes become one table. Figures are not checked: too small to mean
 * anything.
 */
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { benchmarks, formatTable, normalizeAny, normalizeNamed, normalizeReport, normalizeValidate, parseArgs, runBenchmarks } from '../../bench/run.ts';

test('--quick --only apply: every case creates exactly its dashboards, one table row each', async () => {
  const rows = await runBenchmarks(parseArgs(['--quick', '--only', 'apply']));
  assert.ok(rows.length >= 4, `rows: ${rows.length}`);
  for (const r of rows) {
    assert.is(r.benchmark, 'apply');
    assert.not.match(r.notes, 'WRONG', r.case);
    assert.match(r.notes, /12\/12 on the server/);
    assert.ok(Number.isFinite(r.figure) && r.figure > 0, `${r.case}: figure ${r.figure}`);
    assert.ok(r.ratio !== undefined && r.ratio > 0, `${r.case}: ratio ${r.ratio}`);
  }
  assert.ok(
    rows.some((r) => /client .* > server/.test(r.case)),
    'the over-limit case ran',
  );
  const table = formatTable(rows);
  assert.is(table.split('\n').length, rows.length + 2);
  assert.match(table, '| benchmark | case | figure | unit | peer / bound | ratio | notes |');
});

test('the other row shapes normalize to the same columns', () => {
  const v = normalizeValidate([
    { case: 'node -e "" (bare start-up)', 'median ms': 30, 'peak RSS MiB': 40, peer: '', ratio: '' },
    { case: 'steward --version', 'median ms': 90, 'peak RSS MiB': 50, peer: 'bare node', ratio: 3 },
  ]);
  assert.is(v[1]!.peer, 'bare node: 30 ms');
  assert.is(v[1]!.ratio, 3);
  assert.is(v[0]!.ratio, undefined);
  const e = normalizeNamed('emulator', [{ name: 'GET one', value: 9000, unit: 'req/s', detail: 'p50 1 ms' }]);
  assert.equal(e[0], { benchmark: 'emulator', case: 'GET one', figure: 9000, unit: 'req/s', peer: '', ratio: undefined, notes: 'p50 1 ms' });
  const r = normalizeReport([
    { services: 5, requests: 20, requestsPerMinute: 600, latencyMs: 20, concurrency: 4, boundMs: 1900, wallMs: 2000, ratio: 1.05, rejected: 0, failures: 0 },
  ]);
  assert.is(r[0]!.ratio, 1.05);
  assert.match(r[0]!.peer, '1900 ms');
  // An unknown shape (bench/plan.ts is written elsewhere): case, the first usual number, the rest as notes.
  const p = normalizeAny('plan', [{ case: 'plan 1000 dashboards', wallMs: 1234.5, peer: 'list only', ratio: 1.5, requests: 1 }]);
  assert.equal(p[0], { benchmark: 'plan', case: 'plan 1000 dashboards', figure: 1234.5, unit: 'ms', peer: 'list only', ratio: 1.5, notes: 'requests 1' });
  assert.is(normalizeAny('plan', { rows: [{ name: 'x', value: 1, unit: 'ms', detail: '' }] })[0]!.case, 'x');
});

test('--only refuses an unknown name and lists the benchmarks', async () => {
  const names = benchmarks().map((b) => b.name);
  for (const n of ['validate', 'emulator', 'report', 'apply']) assert.ok(names.includes(n), n);
  try {
    await runBenchmarks({ only: ['nope'], build: false });
    assert.unreachable();
  } catch (e) {
    assert.match((e as Error).message, 'no benchmark named nope; there are: validate, emulator, report, apply');
  }
  assert.throws(() => parseArgs(['--fast']), /unknown argument --fast/);
});

test.run();
