/**
 * Plan benchmark: `steward plan --format json` on 100, 1,000 and 10,000 dashboard files of 12 tiles against
 * an emulator answering every request after 20 ms, side by side with a refresh-per-resource peer.
 *
 *   npm run build && node --import tsx bench/plan.ts            # ~4 min; prints a Markdown table
 *   node --import tsx bench/plan.ts --sizes 100,1000 --repeats 1
 *   node --import tsx bench/plan.ts --stages                    # where one plan's time goes, in-process
 *
 * Per size N: N files are written (bench/lib.ts), steward's own loader and plan turn them into the bodies
 * apply would POST, and an emulator (a child process, so its CPU is not the plan's) starts with those N
 * dashboards: the plan is all noop, the steady state of a project. Strategies, interleaved round by round
 * so a noisy neighbour hits them alike:
 * - steward, --no-cache: every file parsed (on worker threads above 500 files);
 * - steward, first run: an empty .steward/cache, filled by this run;
 * - steward, warm cache: nothing changed since the last run;
 * - refresh-per-resource (bench/refresh-peer.mjs): the same loader (warm cache) and plan, but live state
 *   read as Terraform-style providers refresh it: ids from one list call, then one GET per dashboard,
 *   through the real observability client with its default concurrency (4) and no rate limit. With the
 *   service's real limit (100 requests a minute) it would take (requests - 1) x 0.6 s: printed too.
 * - the floor (bench/plan-floor.mjs): what any plan must do, with node:fs and node:http alone: read the
 *   bytes of every file and GET the list once (node's start-up included, as in every run). Each steward
 *   row's ratio is over it.
 * For the sizes in `createSizes` (default 1,000) the all-create case runs too: the same files against an
 * empty emulator. Wall time and peak RSS are the child's (bench/lib.ts `timeNode`); requests are counted
 * from the emulator's request log (asked over IPC, so the counting itself is not logged).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIN, median, table, timeNode, writeDashboards } from './lib.ts';

export interface PlanBenchOptions {
  /** Dashboard counts (default 100, 1,000, 10,000). */
  sizes?: number[];
  /** Sizes that also run the all-create case (default 1,000). */
  createSizes?: number[];
  /** Emulator latency per request, ms (default 20). */
  latencyMs?: number;
  /** Rounds per size; the median is reported (default 5: at 10,000 one run moves by ±10% on a shared VM). */
  repeats?: number;
  /** Rounds of the refresh peer at 10,000 and above, where one takes about a minute (default 1). */
  largePeerRepeats?: number;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
}

export interface PlanBenchRow {
  n: number;
  case: 'noop' | 'all create';
  strategy: string;
  ms: number;
  peakRssMiB: number;
  requests: number;
  /** What the same requests need at the service's 100 requests a minute. */
  at100PerMinute: string;
  /** Wall time over steward's warm-cache run of the same size and case. */
  ratio: number;
  /** The floor's wall time for the same size and case (bytes read, one round trip). */
  floorMs: number;
}

const PEER = fileURLToPath(new URL('./refresh-peer.mjs', import.meta.url));
const FLOOR = fileURLToPath(new URL('./plan-floor.mjs', import.meta.url));
/** The name of the floor strategy (its rows are the bound of the others). */
export const FLOOR_STRATEGY = 'floor: the files read and one GET of the list (node:fs and node:http alone)';
/** Under tsx a worker cannot load the .ts entry (Node 20): in-process loads use the built one, as the CLI does. */
const BUILT_WORKER = new URL('../dist/config/parse-worker.js', import.meta.url);
const REAL_LIMIT_PER_MINUTE = 100;

type ToChild = 'count' | 'stop';
type FromChild = { url: string; env: Record<string, string> } | { count: number };

/** The child side: an emulator with the given latency and seed file; answers request counts over IPC. */
async function serve(options: { latencyMs: number; data: string }): Promise<void> {
  const { startEmulator } = await import('../src/emulator/index.ts');
  const emu = await startEmulator({ seed: 1, latencyMs: options.latencyMs, data: options.data, logLimit: 1_000_000 });
  const send = (m: FromChild) => process.send?.(m);
  process.on('message', (m: ToChild) => {
    if (m === 'count') {
      const count = emu.requests().length;
      emu.clearRequests();
      send({ count });
    }
    if (m === 'stop') void emu.close().then(() => process.exit(0));
  });
  send({ url: emu.url, env: { ...emu.env } });
}

interface EmulatorChild {
  env: Record<string, string>;
  /** Requests logged since the last call. */
  takeCount(): Promise<number>;
  stop(): Promise<void>;
}

export async function startChild(latencyMs: number, data: string): Promise<EmulatorChild> {
  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ['--serve', JSON.stringify({ latencyMs, data })], {
    execArgv: ['--import', import.meta.resolve('tsx')],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const next = () =>
    new Promise<FromChild>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`emulator child exited (${code})`));
      child.once('exit', onExit);
      child.once('message', (m: FromChild) => {
        child.off('exit', onExit);
        resolve(m);
      });
    });
  const ready = (await next()) as { env: Record<string, string> };
  return {
    env: ready.env,
    async takeCount() {
      const m = next();
      child.send('count' satisfies ToChild);
      return ((await m) as { count: number }).count;
    },
    stop: () =>
      new Promise((resolve) => {
        const t = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('exit', () => {
          clearTimeout(t);
          resolve();
        });
        child.send('stop' satisfies ToChild);
      }),
  };
}

/** The bodies apply would POST for the files in `dir`: steward's own load and plan against nothing live. */
export async function createBodies(dir: string): Promise<unknown[]> {
  const [{ nodeFileSystem }, { loadWorkspace }, { computePlan }] = await Promise.all([
    import('../src/config/fs.ts'),
    import('../src/config/load.ts'),
    import('../src/plan/plan.ts'),
  ]);
  const env = { STEWARD_OBS_URL: 'http://unused', STEWARD_OBS_TOKEN: 'unused' };
  const loaded = await loadWorkspace({ fs: nodeFileSystem, env, cwd: dir }, { requireProject: true, cache: false, parallel: { workerUrl: BUILT_WORKER } });
  const plan = computePlan({
    resources: loaded.resources,
    live: [],
    state: { formatVersion: 1, alerts: {} },
    markerTag: loaded.project!.markerTag,
    now: new Date(),
    projectDir: dir,
  });
  return plan.items.filter((i) => i.action === 'create').map((i) => i.body);
}

/** The summary counts from the head of a JSON plan (the rest may be 100+ MiB and is not kept). */
function summaryOf(head: string): Record<string, number> {
  const m = /"summary": \{([^}]*)\}/.exec(head);
  if (!m) throw new Error(`no plan summary in output: ${head.slice(0, 300)}`);
  return Object.fromEntries(Array.from(m[1]!.matchAll(/"(\w+)": (\d+)/g), (x) => [x[1]!, Number(x[2])]));
}

function boundAtRealLimit(requests: number): string {
  if (requests <= 1) return 'no wait';
  const s = ((requests - 1) * 60) / REAL_LIMIT_PER_MINUTE;
  return s < 120 ? `≥ ${s.toFixed(0)} s` : `≥ ${(s / 60).toFixed(0)} min`;
}

interface Strategy {
  name: string;
  args: string[];
  /** Runs before each round of this strategy. */
  before?: () => void;
  /** Only in the first `rounds` rounds. */
  rounds?: number;
  /** Prints no plan (the floor): its output is not checked for N items. */
  floor?: boolean;
}

/** Runs the benchmark and returns its rows (progress goes to `log`). */
export async function runPlanBench(options: PlanBenchOptions = {}): Promise<PlanBenchRow[]> {
  const sizes = options.sizes ?? [100, 1000, 10_000];
  const createSizes = options.createSizes ?? [1000];
  const latencyMs = options.latencyMs ?? 20;
  const repeats = options.repeats ?? 5;
  const log = options.log ?? (() => {});
  const rows: PlanBenchRow[] = [];

  for (const n of sizes) {
    const dir = mkdtempSync(join(tmpdir(), 'steward-bench-plan-'));
    try {
      writeDashboards(dir, n);
      const dropCache = () => rmSync(join(dir, '.steward'), { recursive: true, force: true });
      const steward = (extra: string[] = []) => [BIN, 'plan', '--format', 'json', ...extra];
      const strategies = (kase: 'noop' | 'all create'): Strategy[] => [
        { name: 'steward, --no-cache', args: steward(['--no-cache']) },
        { name: 'steward, first run (fills the cache)', args: steward(), before: dropCache },
        { name: 'steward, warm cache', args: steward() },
        ...(kase === 'noop'
          ? [
              {
                name: 'refresh-per-resource (1 GET per dashboard, concurrency 4, no rate limit)',
                args: [PEER],
                rounds: n >= 10_000 ? (options.largePeerRepeats ?? 1) : repeats,
              },
            ]
          : []),
        { name: FLOOR_STRATEGY, args: [FLOOR], floor: true },
      ];

      const runCase = async (kase: 'noop' | 'all create', seed: unknown[]) => {
        const seedFile = join(dir, `seed-${kase === 'noop' ? 'noop' : 'empty'}.json`);
        writeFileSync(seedFile, JSON.stringify({ dashboards: seed, alerts: [], organizations: [] }));
        const emu = await startChild(latencyMs, seedFile);
        try {
          const list = strategies(kase);
          const runs = new Map<Strategy, Array<{ ms: number; rss: number; requests: number }>>(list.map((s) => [s, []]));
          for (let round = 0; round < repeats; round++) {
            for (const s of list) {
              if (round >= (s.rounds ?? repeats)) continue;
              s.before?.();
              await emu.takeCount();
              // The parse cache's machine key lives under XDG_CACHE_HOME (kept in the temp folder).
              const r = await timeNode(s.args, { cwd: dir, env: { ...emu.env, XDG_CACHE_HOME: join(dir, '.xdg') }, keepStdout: 2048 });
              const requests = await emu.takeCount();
              if (r.code !== 0) throw new Error(`${s.name} (N=${n}) exited ${r.code}: ${r.stderr.slice(0, 2000)}`);
              const summary = summaryOf(r.stdout);
              const want = s.floor ? 'files' : kase === 'noop' ? 'noop' : 'create';
              // The floor reads the project file too.
              const count = s.floor ? n + 1 : n;
              if (summary[want] !== count) throw new Error(`${s.name} (N=${n}): expected ${count} ${want}, got ${JSON.stringify(summary)}`);
              runs.get(s)!.push({ ms: r.ms, rss: r.peakRssMiB, requests });
              log(`N=${n} ${kase} round ${round + 1}: ${s.name}: ${r.ms.toFixed(0)} ms, ${r.peakRssMiB.toFixed(0)} MiB, ${requests} requests`);
            }
          }
          const warm = median(runs.get(list[2]!)!.map((x) => x.ms));
          const floor = median(runs.get(list.find((s) => s.floor)!)!.map((x) => x.ms));
          for (const s of list) {
            const rs = runs.get(s)!;
            const ms = median(rs.map((x) => x.ms));
            const requests = Math.max(...rs.map((x) => x.requests));
            rows.push({
              n,
              case: kase,
              strategy: s.name,
              ms,
              peakRssMiB: Math.max(...rs.map((x) => x.rss)),
              requests,
              at100PerMinute: boundAtRealLimit(requests),
              ratio: ms / warm,
              floorMs: floor,
            });
          }
        } finally {
          await emu.stop();
        }
      };

      log(`N=${n}: writing files and the create bodies`);
      const bodies = await createBodies(dir);
      if (bodies.length !== n) throw new Error(`expected ${n} create bodies, got ${bodies.length}`);
      if (createSizes.includes(n)) await runCase('all create', []);
      await runCase('noop', bodies);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

export interface StageRow {
  n: number;
  stage: string;
  /** Median and fastest of the repeats (the fastest is the least disturbed by a busy machine). */
  ms: number;
  minMs: number;
  detail: string;
}

/**
 * Where the time of one plan goes, stage by stage, in this process (median of `repeats`): loading cold and
 * warm, the list call and its validation, computePlan, and the renderers, for all-noop and all-create plans.
 */
export async function runPlanStages(
  options: { sizes?: number[]; latencyMs?: number; repeats?: number; log?: (line: string) => void } = {},
): Promise<StageRow[]> {
  const sizes = options.sizes ?? [1000, 10_000];
  const repeats = options.repeats ?? 3;
  const log = options.log ?? (() => {});
  const [
    { nodeFileSystem },
    { loadWorkspace },
    { computePlan },
    { fingerprintLive },
    { createObservabilityClient },
    { checkResponse },
    { renderPlanText },
    { renderPlanMarkdown },
    { PARALLEL_MIN_FILES },
  ] = await Promise.all([
    import('../src/config/fs.ts'),
    import('../src/config/load.ts'),
    import('../src/plan/plan.ts'),
    import('../src/plan/fingerprint.ts'),
    import('../src/clients/observability.ts'),
    import('../src/clients/validate.ts'),
    import('../src/render/plan-text.ts'),
    import('../src/render/plan-markdown.ts'),
    import('../src/config/parse-pool.ts'),
  ]);
  const rows: StageRow[] = [];
  const time =
    <T>(f: () => T | Promise<T>) =>
    async (): Promise<{ ms: number; value: T }> => {
      const t0 = performance.now();
      const value = await f();
      return { ms: performance.now() - t0, value };
    };
  const stage = async <T>(n: number, name: string, f: () => T | Promise<T>, detail: (v: T) => string = () => '') => {
    const runs: Array<{ ms: number; value: T }> = [];
    for (let i = 0; i < repeats; i++) runs.push(await time(f)());
    const ms = median(runs.map((r) => r.ms));
    rows.push({ n, stage: name, ms, minMs: Math.min(...runs.map((r) => r.ms)), detail: detail(runs[0]!.value) });
    log(`N=${n} ${name}: ${ms.toFixed(0)} ms`);
    return runs[0]!.value;
  };

  for (const n of sizes) {
    const dir = mkdtempSync(join(tmpdir(), 'steward-bench-stages-'));
    try {
      writeDashboards(dir, n);
      const bodies = await createBodies(dir);
      const seedFile = join(dir, 'seed.json');
      writeFileSync(seedFile, JSON.stringify({ dashboards: bodies, alerts: [], organizations: [] }));
      const emu = await startChild(options.latencyMs ?? 20, seedFile);
      try {
        const env: Record<string, string> = { ...emu.env, XDG_CACHE_HOME: join(dir, '.xdg') };
        const load = (cache: boolean) =>
          loadWorkspace({ fs: nodeFileSystem, env, cwd: dir }, { requireProject: true, cache, parallel: { workerUrl: BUILT_WORKER } });
        await stage(
          n,
          `load, no cache (workers above ${PARALLEL_MIN_FILES} files)`,
          () => load(false),
          (l) => `${l.stats.parsed} files parsed${l.stats.workers ? ` on ${l.stats.workers} workers` : ' in one thread'}`,
        );
        await load(true);
        const loaded = await stage(
          n,
          'load, warm cache (glob, read, sha256, pack)',
          () => load(true),
          (l) => `${l.stats.cache?.hits} hits`,
        );
        const client = createObservabilityClient({ url: env['STEWARD_OBS_URL']!, token: env['STEWARD_OBS_TOKEN']! });
        const live = await stage(
          n,
          'list call: 20 ms + transfer + JSON.parse + response check',
          () => client.listDashboards(),
          (l) => `${l.length} dashboards`,
        );
        await stage(n, '  of which the ajv response check', () => checkResponse('observability.dashboards', { data: live }));
        const input = { resources: loaded.resources, state: { formatVersion: 1 as const, alerts: {} }, markerTag: loaded.project!.markerTag, projectDir: dir };
        const noop = await stage(
          n,
          'computePlan, all noop',
          () => computePlan({ ...input, live, now: new Date() }),
          (p) => `${p.summary.noop} noop`,
        );
        await stage(n, '  of which fingerprintLive', () => fingerprintLive(live, input.state));
        const create = await stage(
          n,
          'computePlan, all create',
          () => computePlan({ ...input, live: [], now: new Date() }),
          (p) => `${p.summary.create} create`,
        );
        await stage(
          n,
          'JSON (--format json), all noop',
          () => JSON.stringify(noop, null, 2) + '\n',
          (t) => `${(t.length / 1048576).toFixed(1)} MiB`,
        );
        await stage(
          n,
          'JSON (--format json), all create',
          () => JSON.stringify(create, null, 2) + '\n',
          (t) => `${(t.length / 1048576).toFixed(1)} MiB`,
        );
        await stage(
          n,
          'text renderer, all noop',
          () => renderPlanText(noop, { color: false, columns: 100 }),
          (t) => `${t.split('\n').length} lines`,
        );
        await stage(
          n,
          'text renderer, all create',
          () => renderPlanText(create, { color: false, columns: 100 }),
          (t) => `${t.split('\n').length} lines, ${(t.length / 1048576).toFixed(1)} MiB`,
        );
        await stage(
          n,
          'Markdown renderer, all create',
          () => renderPlanMarkdown(create),
          (t) => `${t.length} characters`,
        );
      } finally {
        await emu.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  return rows;
}

/** Rows as a Markdown table. */
export function formatPlanBench(rows: PlanBenchRow[]): string {
  return table(
    rows.map((r) => ({
      N: r.n.toLocaleString('en-US'),
      case: r.case,
      strategy: r.strategy,
      'wall ms': Math.round(r.ms),
      'peak RSS MiB': Math.round(r.peakRssMiB),
      requests: r.requests,
      'at 100 req/min': r.at100PerMinute,
      'ratio vs steward warm': r.ratio,
      'ratio vs floor': r.ms / r.floorMs,
    })),
  );
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain && process.argv[2] === '--serve') {
  await serve(JSON.parse(process.argv[3]!) as { latencyMs: number; data: string });
} else if (isMain) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i === -1 ? undefined : process.argv[i + 1];
  };
  const list = (s: string | undefined) => s?.split(',').map((x) => Number(x.replace(/_/g, '')));
  const sizes = list(arg('--sizes'));
  const createSizes = list(arg('--create-sizes'));
  const repeats = arg('--repeats');
  if (process.argv.includes('--stages')) {
    const stages = await runPlanStages({
      ...(sizes ? { sizes } : {}),
      ...(repeats ? { repeats: Number(repeats) } : {}),
      log: (line) => process.stderr.write(line + '\n'),
    });
    process.stdout.write(
      table(
        stages.map((r) => ({ N: r.n.toLocaleString('en-US'), stage: r.stage, 'median ms': Math.round(r.ms), 'min ms': Math.round(r.minMs), detail: r.detail })),
      ) + '\n',
    );
    process.exit(0);
  }
  const rows = await runPlanBench({
    ...(sizes ? { sizes } : {}),
    ...(createSizes ? { createSizes } : {}),
    ...(repeats ? { repeats: Number(repeats) } : {}),
    log: (line) => process.stderr.write(line + '\n'),
  });
  process.stdout.write(
    `Node ${process.version}, ${availableParallelism()} cores (${cpus()[0]?.model ?? '?'}), emulator latency 20 ms, ${new Date().toISOString()}\n\n${formatPlanBench(rows)}\n`,
  );
}
