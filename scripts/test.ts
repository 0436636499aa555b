/**
 * The test runner behind `npm test`: every check CI needs (type check, lint and format check, every test
 * file), as jobs in one pool of child processes, so a 2-core machine is kept busy while some tests wait on
 * sockets and timers. uvu runs inside each file's process (each test file ends with `test.run()`), so a
 * file sees a fresh process, as it would alone.
 *
 *   node --import tsx scripts/test.ts [--jobs N|cores] [--no-checks] [--only REGEX]... [--skip REGEX]...
 *
 * The build runs before this (tests of the launcher and the parse workers use dist/). Exit 1 when any job
 * fails; each job's output is printed whole when it ends, failures again at the end.
 */
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { treeChanges, treeSnapshot } from '../test/helpers/tree.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

interface Job {
  name: string;
  cmd: string;
  args: string[];
  /** Rough seconds, to start the longest first (a static guess; order only, never asserted). */
  weight: number;
  /** The test files it runs (test/…), for a job of test files. */
  files?: string[];
}

interface Done {
  job: Job;
  code: number | null;
  output: string;
  ms: number;
  total: number;
  passed: number;
  skipped: number;
}

// Seconds a file takes alone beyond node's start-up, where that is 2 s or more; every other file counts 1. Measured
// one file at a time on the slow 2-core VM (bare node 0.16 s) on 2026-11-28, with other work running: wall time,
// since a file waiting on timers or a child holds its shard as long as one computing. Order only, never asserted:
// the longest start first so the pool ends evenly (an unweighted 212 s file once held one shard at 318 s of 430).
const HEAVY: Record<string, number> = {
  'test/apply/killed-leftover.test.ts': 44.6,
  'test/conformance/observability-hyperdx.test.ts': 32.8,
  'test/conformance/observability-clickstack.test.ts': 30.3,
  'test/config/parallel.test.ts': 18.8,
  'test/security/file-tree.test.ts': 17.7,
  'test/apply/plan-binding.test.ts': 16.2,
  'test/apply/alert-create-unknown.test.ts': 15.9,
  'test/conformance/observability-seed.test.ts': 15.8,
  'test/report/output-bounds.test.ts': 14.6,
  'test/apply/unmanaged-same-name.test.ts': 14.4,
  'test/apply/lost-answer-race.test.ts': 14.0,
  'test/clients/hostile-cli.test.ts': 13.8,
  'test/apply/update-unknown.test.ts': 13.4,
  'test/fuzz/documents.test.ts': 11.5,
  'test/profiles/series-members.test.ts': 11.4,
  'test/github/action.test.ts': 11.0,
  'test/apply/create-429-after-commit.test.ts': 10.8,
  'test/security/yaml-cost.test.ts': 10.7,
  'test/bench/run.test.ts': 10.5,
  'test/conformance/report-clickhouse-cloud.test.ts': 10.2,
  'test/apply/concurrent.test.ts': 10.1,
  'test/profiles/live.test.ts': 10.0,
  'test/cli/import.test.ts': 9.7,
  'test/security/credentials.test.ts': 9.2,
  'test/secrets/canary.test.ts': 8.9,
  'test/clients/hostile-more.test.ts': 8.9,
  'test/security/killed-create.test.ts': 8.9,
  'test/security/echo-forms.test.ts': 8.4,
  'test/fuzz/workspace.test.ts': 8.3,
  'test/clients/interim-responses.test.ts': 8.2,
  'test/cli/apply.test.ts': 8.2,
  'test/cli/apply-hint.test.ts': 8.2,
  'test/profiles/series-stored.test.ts': 7.9,
  'test/profiles/server-semantics.test.ts': 7.7,
  'test/scale/scale.test.ts': 7.4,
  'test/apply/update-tiles-unknown.test.ts': 7.2,
  'test/cli/import-unread.test.ts': 7.1,
  'test/config/bench-plan.test.ts': 7.0,
  'test/security/id-collision.test.ts': 6.9,
  'test/profiles/select-item.test.ts': 6.6,
  'test/apply/listed-twice.test.ts': 6.6,
  'test/apply/create-see-other.test.ts': 6.4,
  'test/conformance/report-loose.test.ts': 6.4,
  'test/security/glob-cost.test.ts': 6.3,
  'test/security/half-character.test.ts': 6.1,
  'test/profiles/filter-modes.test.ts': 6.1,
  'test/cli/import-skips.test.ts': 6.1,
  'test/conformance/harness.test.ts': 6.0,
  'test/security/hostile-server.test.ts': 5.9,
  'test/apply/interrupt.test.ts': 5.9,
  'test/emulator/cli.test.ts': 5.7,
  'test/cli/plan.test.ts': 5.7,
  'test/apply/fake-backend.test.ts': 5.4,
  'test/cli/demo.test.ts': 5.3,
  'test/security/output-paths.test.ts': 5.3,
  'test/security/allowed-hosts.test.ts': 5.3,
  'test/config/fast-parse.test.ts': 5.3,
  'test/apply/prompt-stale.test.ts': 4.9,
  'test/templates/bounds.test.ts': 4.8,
  'test/report/html-browser.test.ts': 4.8,
  'test/security/cut-secrets.test.ts': 4.8,
  'test/profiles/import-rewrite-names.test.ts': 4.7,
  'test/clients/properties.test.ts': 4.7,
  'test/profiles/import-rewrite-spacing.test.ts': 4.6,
  'test/profiles/lost-tiles.test.ts': 4.4,
  'test/emulator/profiles-contracts.test.ts': 4.4,
  'test/cli/apply-gone.test.ts': 4.4,
  'test/conformance/suite-helper.test.ts': 4.3,
  'test/templates/hyperdx-example.test.ts': 4.3,
  'test/profiles/clickstack-channel.test.ts': 4.3,
  'test/apply/targets.test.ts': 4.3,
  'test/profiles/update-config.test.ts': 4.2,
  'test/security/huge-id.test.ts': 4.0,
  'test/apply/outcomes.test.ts': 3.9,
  'test/security/import-secret-variable.test.ts': 3.8,
  'test/emulator/hyperdx.test.ts': 3.7,
  'test/cli/server-validate.test.ts': 3.7,
  'test/security/cache-secrets.test.ts': 3.7,
  'test/ux/init-show.test.ts': 3.6,
  'test/report/cli.test.ts': 3.6,
  'test/clients/parse-room.test.ts': 3.6,
  'test/clients/api-types.test.ts': 3.5,
  'test/report/clickhouse-cloud-emulator.test.ts': 3.3,
  'test/security/outside-writes.test.ts': 3.2,
  'test/apply/lock-holder.test.ts': 3.2,
  'test/security/live-names-cost.test.ts': 3.1,
  'test/emulator/series-members.test.ts': 3.0,
  'test/clients/interim-hostile.test.ts': 3.0,
  'test/security/duplicates.test.ts': 3.0,
  'test/report/malformed-items.test.ts': 2.9,
  'test/security/names-and-links.test.ts': 2.9,
  'test/cli/validate.test.ts': 2.9,
  'test/bench/normalize.test.ts': 2.8,
  'test/security/forged-cache.test.ts': 2.7,
  'test/emulator/faults.test.ts': 2.7,
  'test/config/bad-input.test.ts': 2.5,
  'test/cli/malformed-answer.test.ts': 2.5,
  'test/profiles/partial-list.test.ts': 2.5,
  'test/apply/alert-rate-limit.test.ts': 2.5,
  'test/ux/marker.test.ts': 2.4,
  'test/apply/faults.test.ts': 2.4,
  'test/schema/schemas.test.ts': 2.3,
  'test/emulator/contracts.test.ts': 2.3,
  'test/emulator/bench.test.ts': 2.3,
  'test/clients/hostile.test.ts': 2.3,
  'test/cli/plan-early-reads.test.ts': 2.3,
  'test/emulator/clickstack.test.ts': 2.2,
  'test/report/foreign-items.test.ts': 2.2,
  'test/clients/retry.test.ts': 2.2,
  'test/security/dense-yaml.test.ts': 2.1,
  'test/profiles/heatmap-source.test.ts': 2.1,
  'test/cli/report.test.ts': 2.1,
  'test/emulator/observability.test.ts': 2.0,
};

function parseArgs(argv: string[]) {
  // One job more than there are cores: about a fifth of the suite's job time is spent waiting (timeouts,
  // retries, servers' latency), which a third job on two cores fills (measured: 163-175 s against 215 s);
  // a fourth only adds contention.
  const out = { jobs: Math.max(3, availableParallelism() + 1), checks: true, only: [] as RegExp[], skip: [] as RegExp[] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--jobs') {
      // `--jobs cores`: one per core, for runs without waiting tests (test:fast is CPU-bound throughout).
      const v = value();
      out.jobs = v === 'cores' ? Math.max(2, availableParallelism()) : Math.max(1, Number.parseInt(v, 10) || 1);
    } else if (a === '--no-checks') out.checks = false;
    else if (a === '--only') out.only.push(new RegExp(value()));
    else if (a === '--skip') out.skip.push(new RegExp(value()));
    else throw new Error(`unknown argument ${a}`);
  }
  if (process.env['STEWARD_TEST_JOBS']) out.jobs = Math.max(1, Number.parseInt(process.env['STEWARD_TEST_JOBS'], 10) || 1);
  return out;
}

function testFiles(dir: string): string[] {
  const found: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) found.push(...testFiles(p));
    else if (e.name.endsWith('.test.ts')) found.push(relative(ROOT, p).split(sep).join('/'));
  }
  return found.sort();
}

/**
 * Helpers whose modules cost a second or more of CPU to load in every process that imports them: the test
 * files that reach one (through any chain of test/ imports) share shards, so it loads in two processes
 * rather than in seven.
 */
const COSTLY_HELPERS = ['test/helpers/prism.ts'];

/**
 * The files as units of work for the shards, heaviest first: one per file, except that the files reaching a
 * costly helper go together, in as many units as keep each no heavier than an even share of the suite.
 */
function units(files: string[], shardCount: number): { files: string[]; weight: number }[] {
  const weight = (f: string) => HEAVY[f] ?? 1;
  const grouped = new Map<string, string[]>();
  const single: string[] = [];
  for (const f of files) {
    const helper = COSTLY_HELPERS.find((h) => reaches(f, h));
    if (helper) grouped.set(helper, [...(grouped.get(helper) ?? []), f]);
    else single.push(f);
  }
  const share = files.reduce((n, f) => n + weight(f), 0) / shardCount;
  const out = single.map((f) => ({ files: [f], weight: weight(f) }));
  for (const group of grouped.values()) {
    const total = group.reduce((n, f) => n + weight(f), 0);
    const parts = Array.from({ length: Math.max(1, Math.ceil(total / share)) }, () => ({ files: [] as string[], weight: 0 }));
    for (const f of group.sort((a, b) => weight(b) - weight(a))) {
      const lightest = parts.reduce((m, p) => (p.weight < m.weight ? p : m));
      lightest.files.push(f);
      lightest.weight += weight(f);
    }
    out.push(...parts);
  }
  return out.sort((a, b) => b.weight - a.weight);
}

const importsOf = new Map<string, string[]>();

/** Whether `file` imports `target`, directly or through other files of the repository (relative imports only). */
function reaches(file: string, target: string, seen = new Set<string>()): boolean {
  if (file === target) return true;
  if (seen.has(file)) return false;
  seen.add(file);
  let imports = importsOf.get(file);
  if (!imports) {
    let text = '';
    try {
      text = readFileSync(join(ROOT, file), 'utf8');
    } catch {
      // A file that cannot be read imports nothing here; running it says why.
    }
    imports = [...text.matchAll(/\bfrom\s+'(\.{1,2}\/[^']+\.ts)'/g)].map((m) =>
      relative(ROOT, join(ROOT, dirname(file), m[1]!))
        .split(sep)
        .join('/'),
    );
    importsOf.set(file, imports);
  }
  return imports.some((i) => reaches(i, target, seen));
}

/**
 * The environment of every job. Tests only talk to 127.0.0.1, so NODE_EXTRA_CA_CERTS (set on some CI images
 * for their registry's proxy) is left out: Node reads and parses that bundle at every start, ~0.14 s a process
 * on these VMs, and the suite starts hundreds of them (test/cli/validate.test.ts: 3.1 s with it, 2.6 s without).
 */
function jobEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
  delete env['NODE_EXTRA_CA_CERTS'];
  return env;
}

function run(job: Job): Promise<Done> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(job.cmd, job.args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: jobEnv() });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.on('error', (e) => {
      output += `\ncould not start: ${e.message}\n`;
    });
    child.on('close', (code) => {
      const count = (label: string) => Number(new RegExp(`${label}:\\s+(\\d+)`).exec(output)?.[1] ?? 0);
      const total = count('Total');
      // A test file that ran no test is a defect (a missing test.run(), a suite that returns early).
      const passed = count('Passed');
      const skipped = count('Skipped');
      const empty = job.files !== undefined && code === 0 && total === 0 && skipped === 0;
      if (empty) output += '\nthis test file ran no tests\n';
      // uvu exits 0 when a suite's before hook throws (its finally swallows the error): the suite's tests
      // then count in Total but never ran. That is a failure, whatever the exit code says.
      const unrun = job.files !== undefined && code === 0 && passed + skipped < total;
      if (unrun) output += `\n${total - passed - skipped} tests did not run: a suite's before hook failed (uvu hides its error; run the file alone)\n`;
      resolve({ job, code: empty || unrun ? 1 : code, output, ms: Date.now() - started, total, passed, skipped });
    });
  });
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const node = process.execPath;
  const bin = (name: string) => join(ROOT, 'node_modules', name);
  const jobs: Job[] = [];
  if (opts.checks) {
    // src/ was type-checked by the build; this checks the rest against the build's declarations
    // (tsconfig.test.json references tsconfig.build.json), which spares checking src/ a second time.
    jobs.push({
      name: 'typecheck (tsc -p tsconfig.test.json)',
      cmd: node,
      args: [bin('typescript/bin/tsc'), '-p', 'tsconfig.test.json', '--noEmit'],
      weight: 7,
    });
    jobs.push({ name: 'lint (eslint)', cmd: node, args: [bin('eslint/bin/eslint.js'), '.'], weight: 10 });
    jobs.push({
      name: 'format (prettier --check)',
      cmd: node,
      args: [
        bin('prettier/bin/prettier.cjs'),
        '--check',
        '--log-level',
        'warn',
        'src/**/*.ts',
        'test/**/*.ts',
        'scripts/**/*.ts',
        'bench/**/*.ts',
        'bin/**/*.js',
        '*.js',
      ],
      weight: 9,
    });
  }
  const files = testFiles(join(ROOT, 'test')).filter((f) => (opts.only.length === 0 || opts.only.some((r) => r.test(f))) && !opts.skip.some((r) => r.test(f)));
  // Files are run in shards, each one uvu process over several files (as `uvu test` runs them all): node,
  // tsx and the modules load once per shard, not once per file. Two shards per slot, so the pool evens out
  // (measured 2026-11-26: 75 s for six shards, 82 s for nine, 79 s for four, where one shard ran 64 s).
  const shards = Array.from({ length: Math.min(files.length, opts.jobs * 2) }, () => ({ files: [] as string[], weight: 0 }));
  for (const unit of units(files, shards.length)) {
    const lightest = shards.reduce((m, s) => (s.weight < m.weight ? s : m));
    lightest.files.push(...unit.files);
    lightest.weight += unit.weight;
  }
  for (const shard of shards.filter((s) => s.files.length > 0)) {
    const names = shard.files.map((f) => f.slice('test/'.length));
    const pattern = `^(${names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})$`;
    jobs.push({
      name:
        shard.files.length === 1
          ? shard.files[0]!
          : `${shard.files.length} test files (${shard.files.map((f) => f.replace(/^test\/|\.test\.ts$/g, '')).join(', ')})`,
      cmd: node,
      args: ['--import', 'tsx', bin('uvu/bin.js'), 'test', pattern],
      weight: shard.weight,
      files: shard.files,
    });
  }
  jobs.sort((a, b) => b.weight - a.weight);

  const started = Date.now();
  // Tests never write into the source tree; examples/ is where a stray run would (its parse cache).
  const examples = join(ROOT, 'examples');
  const examplesBefore = treeSnapshot(examples);
  const results: Done[] = [];
  if (files.length === 0) throw new Error('no test file matched');
  const queue = [...jobs];
  const worker = async () => {
    for (let job = queue.shift(); job; job = queue.shift()) {
      const done = await run(job);
      results.push(done);
      const ok = done.code === 0;
      const counts = done.total > 0 ? ` ${done.passed}/${done.total}` : '';
      process.stdout.write(`${ok ? 'ok  ' : 'FAIL'} ${job.name}${counts} (${(done.ms / 1000).toFixed(1)} s)\n`);
      if (!ok) process.stdout.write(indent(done.output));
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.jobs, jobs.length) }, worker));

  // A test file that failed is run once more, alone. When it passes then, the run passes, and the end of the
  // output says which test failed first and how: a machine shared with other work sometimes misses a
  // deadline, and one such miss should not hide the rest of a run. A file that fails again fails the run.
  // A failed property is never run again: it failed for the seed it drew, which a retry would not draw (one
  // such failure was a real bug, passed by a retry), and the seed in its output reproduces it.
  const flaky: { file: string; failures: Failure[] }[] = [];
  for (const [i, r] of results.entries()) {
    if (r.code === 0 || !r.job.files || PROPERTY_FAILED.test(r.output)) continue;
    const files = failedFiles(r.output, r.job.files);
    if (files.length === 0) continue;
    const again = await Promise.all(files.map((f) => run(fileJob(f))));
    process.stdout.write(`${again.map((a) => `${a.code === 0 ? 'ok  ' : 'FAIL'} ${a.job.name} (run again alone)`).join('\n')}\n`);
    for (const a of again) if (a.code !== 0) process.stdout.write(indent(a.output));
    if (again.every((a) => a.code === 0)) {
      for (const f of files) flaky.push({ file: f, failures: failuresOf(r.output).filter((x) => x.file === undefined || x.file === f) });
      results[i] = { ...r, code: 0, passed: r.total - r.skipped };
    }
  }
  const failed = results.filter((r) => r.code !== 0);
  const total = results.reduce((n, r) => n + r.total, 0);
  const passed = results.reduce((n, r) => n + r.passed, 0);
  const skipped = results.reduce((n, r) => n + r.skipped, 0);
  const cpu = results.reduce((n, r) => n + r.ms, 0);
  process.stdout.write(
    `\n${failed.length === 0 ? 'passed' : 'FAILED'}: ${passed}/${total} tests` +
      `${skipped ? `, ${skipped} skipped` : ''} in ${files.length} files` +
      `${opts.checks ? ' + type check, lint, format' : ''}; ${((Date.now() - started) / 1000).toFixed(1)} s wall, ` +
      `${(cpu / 1000).toFixed(1)} s of jobs on ${opts.jobs} at once\n`,
  );
  if (flaky.length > 0) {
    process.stdout.write(`passed when run again alone (failed the first time): ${flaky.map((f) => f.file).join(', ')}\n`);
    for (const f of flaky) process.stdout.write(digest(f.failures));
  }
  if (failed.length > 0) {
    process.stdout.write(`failed: ${failed.map((f) => f.job.name).join(', ')}\n`);
    // Each failed test in a few lines, last: where a log is cut in the middle, its end still says what failed.
    for (const f of failed) process.stdout.write(digest(failuresOf(f.output)));
    process.exitCode = 1;
  }
  const written = treeChanges(examplesBefore, treeSnapshot(examples));
  if (written.length > 0) {
    process.stdout.write(`FAILED: the tests wrote into examples/: ${written.join(', ')}\n`);
    process.exitCode = 1;
  }
}

/** A job that runs one test file alone. */
function fileJob(file: string): Job {
  const name = file.slice('test/'.length);
  return {
    name: file,
    cmd: process.execPath,
    args: ['--import', 'tsx', join(ROOT, 'node_modules', 'uvu/bin.js'), 'test', `^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`],
    weight: 1,
    files: [file],
  };
}

interface Failure {
  /** test/…, where the output says. */
  file: string | undefined;
  title: string;
  /** The assertion's message and first lines of its diff, and where in a test file it failed. */
  lines: string[];
}

const ANSI = /\u001b\[[0-9;]*m/g;

/**
 * The tests uvu reports as failed in a job's output: a file's name, then its marks (✘ for a failure), and
 * after all of a file's marks each failure as `FAIL  "title"`, its message, a diff, and its stack.
 */
/** fast-check's message when a property fails: `Property failed after 3 tests` then `{ seed: …, path: … }`. */
const PROPERTY_FAILED = /Property failed after \d+ tests?/;

function failuresOf(output: string): Failure[] {
  const lines = output.replace(ANSI, '').split('\n');
  const out: Failure[] = [];
  let file: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (/^[\w./-]+\.test\.ts$/.test(line)) file = `test/${line}`;
    const m = /^FAIL\s+"(.*)"$/.exec(line);
    if (!m) continue;
    const f: Failure = { file, title: m[1]!, lines: [] };
    let j = i + 1;
    for (; j < lines.length && !/^\s*(FAIL\s+"|at\s)/.test(lines[j]!) && f.lines.length < 8; j++)
      if (lines[j]!.trim()) f.lines.push(lines[j]!.trim().slice(0, 300));
    // The first frame in a test file (the test, or the helper it called), before the next failure.
    for (; j < lines.length && j < i + 60 && !/^\s*FAIL\s+"/.test(lines[j]!); j++) {
      const at = /\/(test\/[^:)]+\.ts:\d+:\d+)/.exec(lines[j]!);
      if (at) {
        f.lines.push(`at ${at[1]}`);
        break;
      }
    }
    out.push(f);
  }
  return out;
}

/** The files among `files` whose marks show a failure: each is named on a line of its own before them. */
function failedFiles(output: string, files: string[]): string[] {
  if (files.length === 1) return files;
  const lines = output.replace(ANSI, '').split('\n');
  const out: string[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    const name = `test/${lines[i]!.trim()}`;
    if (files.includes(name) && lines[i + 1]!.includes('✘')) out.push(name);
  }
  return out;
}

function digest(failures: Failure[]): string {
  return failures.map((f) => `  ✘ ${f.file ? `${f.file}: ` : ''}${f.title}\n${f.lines.map((l) => `      ${l}\n`).join('')}`).join('');
}

function indent(text: string): string {
  return (
    text
      .trimEnd()
      .split('\n')
      .map((l) => `    ${l}`)
      .join('\n') + '\n'
  );
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 2;
});
