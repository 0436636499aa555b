/**
 * Hostile servers end to end: `steward plan`, `apply` and `report`, run as a user runs them, against a
 * server that answers an HTML 502 page, truncated JSON, a 100 MB body, wrong types, a body that never ends,
 * a stall after the headers, or nothing at all. Each run must exit 1 with one clear line and no stack trace,
 * within the timeout, with memory bounded, leaving the state file absent, the journal without an entry, and
 * no half-written report file.
 *
 * The project's timeoutSeconds is 0.25, so a GET that never completes gives up after 5 tries of 0.25 s plus
 * the backoff between them (at most 0.5 + 1 + 2 + 4 s, with full jitter).
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { confirmedEntries, parseJournal } from '../../src/apply/journal.ts';
import { BIN, steward } from '../helpers/exec.ts';
import { EXAMPLES } from '../helpers/project.ts';
import { tmpProject } from '../helpers/tmp.ts';
import { HOSTILE_MODES, startHostileServer, type HostileMode } from './hostile-server.ts';

const PROBE = fileURLToPath(new URL('../../bench/rss-probe.mjs', import.meta.url));
const MiB = 1024 * 1024;
/** Longest a failing run may take: 5 tries × 0.25 s + backoff ≤ 7.5 s + start-up, with room for a busy machine. */
const DEADLINE_MS = 25_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  peakRssMiB: number;
  dir: string;
}

/**
 * examples/ in a temp folder, with a short timeout and no client-side rate limit to wait on. The 100 MB
 * cases get 10 s: up to 64 MiB must arrive before the size limit can refuse it, on a machine running twenty of these.
 */
function project(timeoutSeconds: number): { dir: string; cleanup: () => void } {
  const p = tmpProject({});
  cpSync(EXAMPLES, p.dir, { recursive: true });
  const f = join(p.dir, 'steward.yaml');
  writeFileSync(f, readFileSync(f, 'utf8').replaceAll('requestsPerMinute: 100', `requestsPerMinute: 6000\n    timeoutSeconds: ${timeoutSeconds}`));
  return p;
}

/**
 * Runs steward with a minimal env. The body-100mb runs spawn the built CLI with the peak-RSS probe (the
 * probe's line is removed from stderr), as memory is what they check; the others run in this process
 * (`steward()`, the same main as the binary), which spares a node start-up each.
 */
async function run(args: string[], dir: string, url: string, extraEnv: Record<string, string> = {}, spawned = false): Promise<Run> {
  const env = {
    ...extraEnv,
    PATH: process.env['PATH'] ?? '',
    NO_COLOR: '1',
    STEWARD_OBS_URL: url,
    STEWARD_CLOUD_URL: url,
    STEWARD_OBS_TOKEN: 'tok-hostile-1',
    STEWARD_CLOUD_KEY_ID: 'kid-hostile-1',
    STEWARD_CLOUD_KEY_SECRET: 'sec-hostile-1',
  };
  if (!spawned) {
    const t0 = performance.now();
    const r = await steward(args, { cwd: dir, env });
    return { ...r, ms: performance.now() - t0, peakRssMiB: NaN, dir };
  }
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, ['--import', PROBE, BIN, ...args], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const m = /\n?STEWARD_BENCH_MAXRSS_KB=(\d+)\n/.exec(stderr);
      resolve({
        code,
        stdout,
        stderr: stderr.replace(/\n?STEWARD_BENCH_MAXRSS_KB=\d+\n/, ''),
        ms: performance.now() - t0,
        peakRssMiB: m ? Number(m[1]) / 1024 : NaN,
        dir,
      });
    });
  });
}

interface Case {
  name: string;
  mode: HostileMode;
  scope: 'all' | 'writes';
  /** Commands run in order in one project; the last one is the one under test. */
  commands: string[][];
  check: (r: Run, c: Case) => void;
}

/**
 * The size limit a body-100mb run gets, in MiB (STEWARD_MAX_RESPONSE_MIB; the default is a tenth of the heap
 * limit, more than the 100 MB sent on most machines). plan runs at 64, the client's own default; apply and
 * report, which refuse three bodies each, at 4, so the same refusal costs a sixteenth of the transfer (the
 * suite runs on two cores).
 */
const limitMiB = (c: Case): number => (c.commands.at(-1)![0] === 'plan' ? 64 : 4);

const NO_STACK = /\n\s+at .+[(:]\d+|internal error|this is a bug/;

/** Nothing of a write survives: no state file, no journal entry. */
function nothingWritten(r: Run) {
  assert.not.ok(existsSync(join(r.dir, '.steward/state.json')), 'no state file');
  const journal = join(r.dir, '.steward/journal.jsonl');
  if (existsSync(journal)) assert.equal(confirmedEntries(parseJournal(readFileSync(journal, 'utf8'))), [], 'no journal entry');
  assert.ok(!existsSync(join(r.dir, '.steward')) || readdirSync(join(r.dir, '.steward')).every((f) => !f.endsWith('.tmp')), 'no temp file left');
}

/** The common verdict: exit 1, no stack trace, in time. */
function failedClearly(r: Run, c: Case) {
  const all = r.stdout + r.stderr;
  assert.is(r.code, 1, `${c.name}: exit ${r.code}\n${all}`);
  assert.not.match(all, NO_STACK, `${c.name}: a stack trace or internal error\n${all}`);
  assert.ok(r.ms < DEADLINE_MS, `${c.name}: took ${Math.round(r.ms)} ms`);
}

/**
 * The error is one line: `error: <method> <path> …` naming what went wrong. Progress lines that explain a
 * wait before a retry (`waiting 3 s: ETIMEDOUT…`, issue 14) may come before it; nothing else may.
 */
function oneLine(r: Run, c: Case, what: RegExp) {
  const lines = r.stderr.split('\n').filter((l) => l.trim() !== '' && !/^waiting \d+ s: /.test(l));
  assert.is(lines.length, 1, `${c.name}: stderr is not one line:\n${r.stderr}`);
  assert.match(lines[0]!, what, `${c.name}: ${lines[0]}`);
}

/** What each mode must say, in the one line. */
const SAYS: Record<HostileMode, RegExp> = {
  'html-502': /→ 502 Bad Gateway: 502 Bad Gateway: nginx\/1\.25\.3/,
  'truncated-json': /response is not valid JSON \(200, application\/json, \d+ bytes\)/,
  'body-100mb': /response larger than \d+ MiB \(maxResponseBytes; STEWARD_MAX_RESPONSE_MIB raises it\); refused/,
  'wrong-types': /(data|result)(\[0\])?\.id: must be string/,
  'never-ends': /no complete response within 250 ms \(timeout\)/,
  'stalls-after-headers': /no complete response within 250 ms \(timeout\)|the connection stalled/,
  'never-answers': /no complete response within 250 ms \(timeout\)|the connection stalled/,
};

const cases: Case[] = [
  // plan: every mode, on the one read it makes.
  ...HOSTILE_MODES.map((mode): Case => ({
    name: `plan against ${mode}`,
    mode,
    scope: 'all',
    commands: [['plan']],
    check: (r, c) => {
      failedClearly(r, c);
      oneLine(r, c, new RegExp(`^error: GET /api/v2/dashboards.*(${SAYS[mode].source})`));
      assert.is(r.stdout, '');
      nothingWritten(r);
    },
  })),
  // apply: the list itself hostile.
  ...(['wrong-types'] as const).map((mode): Case => ({
    name: `apply --auto-approve against ${mode} on the list`,
    mode,
    scope: 'all',
    commands: [['apply', '--auto-approve']],
    check: (r, c) => {
      failedClearly(r, c);
      oneLine(r, c, new RegExp(`^error: GET /api/v2/dashboards.*(${SAYS[mode].source})`));
      nothingWritten(r);
    },
  })),
  // apply: an honest list, hostile answers to every POST: each create fails with the cause, the alerts bound
  // to it are skipped, nothing is recorded.
  ...(['html-502', 'body-100mb', 'never-answers'] as const).map((mode): Case => ({
    name: `apply --auto-approve with ${mode} on every POST`,
    mode,
    scope: 'writes',
    commands: [['apply', '--auto-approve']],
    check: (r, c) => {
      failedClearly(r, c);
      for (const d of ['api-latency', 'checkout-overview', 'jvm-runtime']) {
        assert.match(r.stdout, new RegExp(`dashboard ${d}.*POST /api/v2/dashboards.*(${SAYS[mode].source}).*outcome unknown`), `${c.name}: ${d} failure line`);
      }
      assert.match(r.stdout, /alert checkout-errors: dashboard checkout-overview was not created/);
      nothingWritten(r);
    },
  })),
  // apply of a saved plan (made against the honest list), then hostile POSTs.
  {
    name: 'apply plan.json with truncated JSON on every POST',
    mode: 'truncated-json',
    scope: 'writes',
    commands: [
      ['plan', '--out', 'plan.json'],
      ['apply', 'plan.json'],
    ],
    check: (r, c) => {
      failedClearly(r, c);
      assert.match(r.stdout, /dashboard checkout-overview.*response is not valid JSON/);
      nothingWritten(r);
    },
  },
  // report: the cloud reads hostile; the review is written, complete, saying which reads failed.
  ...(['truncated-json', 'body-100mb', 'never-ends'] as const).map((mode): Case => ({
    name: `report against ${mode}`,
    mode,
    scope: 'all',
    commands: [['report']],
    check: (r, c) => {
      failedClearly(r, c);
      oneLine(r, c, /^error: 3 reads failed, so the review is incomplete \(see the read\.failed findings\)$/);
      for (const part of ['ingest pipes', 'reverse private endpoints', 'backups'])
        assert.match(r.stdout, new RegExp(`read\\.failed  could not list ${part}: GET /v1/.*(${SAYS[mode].source})`));
      // The three files are whole (written through a temp file and a rename), and nothing else is left.
      const dir = join(r.dir, 'reports');
      assert.equal(readdirSync(dir).sort(), ['report.html', 'report.json', 'report.md']);
      const json = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as { findings?: Array<{ check?: string; id?: string }> };
      assert.ok(JSON.stringify(json).includes('read.failed'), 'report.json names the failed reads');
      assert.match(readFileSync(join(dir, 'report.html'), 'utf8'), /<\/html>\s*$/);
      assert.match(readFileSync(join(dir, 'report.md'), 'utf8'), /read\.failed/);
      nothingWritten(r);
    },
  })),
];

test(`${cases.length} hostile runs of plan, apply and report: exit 1, one clear line, nothing written, memory bounded`, async () => {
  const results = await Promise.all(
    cases.map(async (c) => {
      const server = await startHostileServer(c.mode, c.scope);
      // The short timeout is what the timeout modes test; the others answer at once, and on a loaded machine
      // (the test pool) 250 ms could turn their answer into a timeout: they get 1 s (which is also the settle
      // window after an unknown outcome, so not more).
      const p = project(c.mode === 'body-100mb' ? 10 : ['never-ends', 'stalls-after-headers', 'never-answers'].includes(c.mode) ? 0.25 : 1);
      try {
        let r: Run | undefined;
        const env: Record<string, string> = c.mode === 'body-100mb' ? { STEWARD_MAX_RESPONSE_MIB: String(limitMiB(c)) } : {};
        for (const args of c.commands) r = await run(args, p.dir, server.url, env, c.mode === 'body-100mb');
        c.check(r!, c);
        if (c.mode === 'body-100mb') {
          assert.ok(server.bigBytesSent() < 100 * MiB, `${c.name}: the whole 100 MB was sent`);
          assert.match(r!.stdout + r!.stderr, new RegExp(`response larger than ${limitMiB(c)} MiB`), `${c.name}: the limit it ran with`);
          // What arrived of a refused body is held once, up to the size limit, per request in flight: plan
          // has one, apply sends its three creates at once, report reads three lists at once. Allow twice that
          // (garbage not yet collected) over the start-up (100 MiB; 150 for the small limit, whose bound would
          // otherwise be within noise of the start-up alone); without the limit a run would hold 100 MB per
          // request (over 300 MiB for three), and any size the server chose.
          const inFlight = c.commands.at(-1)![0] === 'plan' ? 1 : 3;
          const bound = (limitMiB(c) === 64 ? 100 : 150) + inFlight * 2 * limitMiB(c);
          assert.ok(r!.peakRssMiB < bound, `${c.name}: peak RSS ${r!.peakRssMiB.toFixed(0)} MiB`);
        }
        return `${c.name}: ${Math.round(r!.ms)} ms, peak RSS ${r!.peakRssMiB.toFixed(0)} MiB`;
      } finally {
        await server.close();
        p.cleanup();
      }
    }),
  );
  if (process.env['HOSTILE_VERBOSE']) process.stderr.write(results.join('\n') + '\n');
});

test.run();
