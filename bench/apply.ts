/**
 * Apply benchmark (issue 5, Speed): create N dashboards of 12 tiles through the real observability client
 * and `applyPlan`, against the emulator at 20 ms latency.
 *
 *   node --import tsx bench/apply.ts [--quick] [--production | --production-only]
 *
 * Every figure is the creates' span at the server: from the first create's arrival to the last create's
 * answer (the emulator's request log), the time N × latency / concurrency and N / rate bound. The library
 * cases' notes also give the whole run (the list and plan before, the duplicate check's list after, and the
 * second list and plan that find nothing left to create), whose efficiency is lower by those ~0.2 s.
 *
 * 1. Concurrency sweep, no rate limit: the creates of `applyPlan` against the bound `N × latency /
 *    concurrency`; efficiency = bound / span (1.0: the latency is the only cost). The journal is the real
 *    one (a file, `fdatasync` per confirmed write), as `steward apply` writes it; peer rows at the default
 *    and the highest concurrency keep the journal in memory to show what the flush costs.
 * 2. Rate limit: wall time against the rate bound `N / rpm` and the count of 429s the server answered,
 *    with the client's `requestsPerMinute` equal to the server's limit and at twice it, at a few
 *    concurrencies.
 *    A floor row sends the same create bodies with Node's own HTTP client alone (keep-alive, nothing read
 *    but the status): what the emulator and loopback cost per request on this machine, with no client
 *    library, plan, journal or checks. No client can do better than it here.
 * 3. The built CLI with no `--concurrency`: how many creates the server really sees in flight, i.e. whether
 *    DEFAULT_APPLY_CONCURRENCY is what users get.
 * 4. `--production`: the real service's 100 requests a minute with the emulator's own 60 s window, 200
 *    creates (about 2 minutes a case, so opt-in).
 *
 * After every case the emulator's state is checked: exactly N bench dashboards, no two with one name.
 *
 * The emulator runs in a child process (its own event loop and CPU). Its rate limit is a sliding window of
 * 60 s: at 6,000/min no 1,000-dashboard run can ever fill it, and any run that does fill a 60 s window lasts
 * over a minute. So the rate-limit cases that must trip the window run the emulator with the window scaled
 * down (600 requests per 6 s is 6,000/min); the child sets that by overriding the window of the emulator's
 * own limiter class (see `serve`), the rest of the emulator is unchanged.
 *
 * `runApplyBench(options)` returns the rows for bench/run.ts; nothing is printed.
 */
import { fork } from 'node:child_process';
import { Agent, request } from 'node:http';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { applyPlan, type ApplyResult } from '../src/apply/apply.ts';
import { memoryJournal, openJournal, type Journal } from '../src/apply/journal.ts';
import { writeState } from '../src/apply/state.ts';
import { DEFAULT_APPLY_CONCURRENCY } from '../src/apply/types.ts';
import { createObservabilityClient } from '../src/clients/observability.ts';
import { nodeFileSystem } from '../src/config/fs.ts';
import { loadWorkspace } from '../src/config/load.ts';
import type { AnyResource } from '../src/model/resource.ts';
import { RateLimiter } from '../src/emulator/faults.ts';
import { startEmulator, type Emulator } from '../src/emulator/index.ts';
import { computePlan } from '../src/plan/plan.ts';
import type { StateFile } from '../src/plan/types.ts';
import { BIN, dashboardYaml, table, timeNode } from './lib.ts';

export interface ApplyBenchOptions {
  /** Dashboards created per case (default 1,000; quick 12). */
  dashboards?: number;
  /** Tiles per dashboard (default 12). */
  tiles?: number;
  /** Emulator latency per request, ms (default 20). */
  latencyMs?: number;
  /** Concurrencies of the sweep (default 1, 2, 4, 8, 16, 32; quick 1, 4). */
  concurrencies?: number[];
  /** Concurrencies of the cases that fill the scaled rate window (default 1, DEFAULT_APPLY_CONCURRENCY, 16; quick the default alone). */
  rateConcurrencies?: number[];
  /** The server's rate limit in the rate-limited cases, per minute (default 6,000; quick 600). */
  requestsPerMinute?: number;
  /** Length of the scaled-down rate-limit window, ms (default 6,000; quick 1,000). */
  windowMs?: number;
  /** Also run the rate case against the emulator's own 60 s window (default true; quick false). */
  fullWindow?: boolean;
  /** Also run the built CLI with its default concurrency (default true; quick false). Needs `npm run build`. */
  cli?: boolean;
  /**
   * Also run the production-like cases (default false; several minutes): the service's 100 requests a
   * minute with the emulator's own 60 s window, `productionDashboards` creates (default 200).
   */
  production?: boolean | 'only';
  productionDashboards?: number;
  /** Small sizes for a smoke run (the defaults above marked quick). */
  quick?: boolean;
}

export interface ApplyBenchRow {
  /** Which part: the concurrency sweep, the rate limit, or the CLI. */
  group: 'concurrency' | 'rate limit' | 'cli';
  case: string;
  concurrency: number;
  dashboards: number;
  /** Client-side requestsPerMinute (0: none). */
  clientRpm: number;
  /** Server limit, per minute (0: none), and its window. */
  serverRpm: number;
  serverWindowMs: number;
  /** The creates' span at the server (first arrival to last answer; all applies when it took more than one), ms. */
  wallMs: number;
  /** The library cases: the whole run at the client (lists, plans, creates, duplicate check), ms. */
  wholeMs?: number;
  /** The bound the case is measured against, ms, and what it is. */
  boundMs: number;
  bound: string;
  /** bound / span: 1.0 means nothing but the bound costs time. */
  efficiency: number;
  /** Without a rate limit: the server's mean time per create, arrival to answer, ms (see serverBound). */
  serverMeanMs?: number;
  /** Answers 429 the server gave. */
  rejected429: number;
  /** Creates apply reported failed (summed over applies). */
  failed: number;
  /** Creates refused with 429 that apply sent again after the server's wait. */
  resent: number;
  /** Time from each journal append to its entry being synced (group commit; the waits overlap), ms in all. */
  journalMs: number;
  /** Applies needed until the plan had nothing to create (1 when the first did it all). */
  applies: number;
  /** Bench dashboards on the emulator at the end, distinct names among them. */
  created: number;
  distinct: number;
  /** Most creates the server had in flight at once (from its request log). */
  peakInFlight: number;
  /** Exactly N dashboards, no duplicates. */
  ok: boolean;
  detail: string;
}

// ---------------------------------------------------------------------------------------------------------
// The emulator's side, in a child process.

interface StartMessage {
  op: 'start';
  latencyMs: number;
  /** Requests allowed per window (the emulator's rateLimitPerMinute), and the window, ms. */
  limit?: number;
  windowMs?: number;
}
type ParentMessage = StartMessage | { op: 'check'; prefix: string } | { op: 'stop' } | { op: 'exit' };

export interface ServerCheck {
  dashboards: number;
  distinct: number;
  requests: number;
  statuses: Record<string, number>;
  /** Most POST /api/v2/dashboards in flight at once, and from the first arrival to the last answer, ms. */
  peakPosts: number;
  postSpanMs: number;
  /** Mean server time of a create, arrival to answer (the injected latency and the emulator's own work). */
  postMeanMs: number;
}
type ChildMessage = { op: 'started'; url: string; token: string } | ({ op: 'checked' } & ServerCheck) | { op: 'stopped' } | { op: 'error'; message: string };

let windowOverrideMs: number | undefined;

/**
 * The emulator's limiter keeps its window in a field set by its constructor (60 s; `startEmulator` has no
 * option for it). Before each check, set it to the window this run asked for. Loud if the class changes.
 */
function overrideRateLimitWindow(): void {
  const proto = RateLimiter.prototype;
  const take = proto.take;
  proto.take = function (this: RateLimiter, key: string, nowMs: number) {
    const self = this as unknown as { windowMs: unknown };
    if (typeof self.windowMs !== 'number')
      throw new Error('bench/apply.ts: the emulator RateLimiter has no numeric windowMs any more; update overrideRateLimitWindow');
    if (windowOverrideMs !== undefined) self.windowMs = windowOverrideMs;
    return take.call(this, key, nowMs);
  };
}

async function serve(): Promise<void> {
  overrideRateLimitWindow();
  let emu: Emulator | undefined;
  const send = (m: ChildMessage) => process.send?.(m);
  process.on('message', (m: ParentMessage) => {
    void (async () => {
      try {
        if (m.op === 'start') {
          await emu?.close();
          windowOverrideMs = m.windowMs;
          emu = await startEmulator({
            seed: 1,
            data: { dashboards: [], alerts: [] },
            latencyMs: m.latencyMs,
            logLimit: 1_000_000,
            ...(m.limit !== undefined ? { rateLimitPerMinute: m.limit } : {}),
          });
          send({ op: 'started', url: emu.url, token: emu.credentials.token });
        } else if (m.op === 'check') {
          if (!emu) throw new Error('no emulator running');
          const names = emu
            .state()
            .dashboards.map((d) => d.name)
            .filter((n) => n.startsWith(m.prefix));
          const log = emu.requests();
          const statuses: Record<string, number> = {};
          for (const e of log) statuses[e.status] = (statuses[e.status] ?? 0) + 1;
          const posts = log.filter((e) => e.method === 'POST' && e.path === '/api/v2/dashboards');
          send({ op: 'checked', dashboards: names.length, distinct: new Set(names).size, requests: log.length, statuses, ...inFlight(posts) });
        } else if (m.op === 'stop') {
          await emu?.close();
          emu = undefined;
          send({ op: 'stopped' });
        } else if (m.op === 'exit') {
          await emu?.close();
          process.exit(0);
        }
      } catch (e) {
        send({ op: 'error', message: e instanceof Error ? e.message : String(e) });
      }
    })();
  });
  process.send?.({ op: 'stopped' });
}

/** Peak concurrency and span of a set of requests from their arrival times and server durations. */
function inFlight(entries: Array<{ time: string; ms: number }>): { peakPosts: number; postSpanMs: number; postMeanMs: number } {
  if (entries.length === 0) return { peakPosts: 0, postSpanMs: 0, postMeanMs: 0 };
  let sum = 0;
  const events: Array<[number, number]> = [];
  let first = Infinity;
  let last = -Infinity;
  for (const e of entries) {
    const t = Date.parse(e.time);
    // Arrival times are whole ms (truncated): end an answer 1 ms early so a request that followed it on the
    // same connection within that ms is not counted as overlapping it.
    events.push([t, 1], [t + Math.max(0, e.ms - 1), -1]);
    sum += e.ms;
    first = Math.min(first, t);
    last = Math.max(last, t + e.ms);
  }
  // Ends before starts at the same instant: a slot handed over is not two in flight.
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let now = 0;
  let peak = 0;
  for (const [, d] of events) peak = Math.max(peak, (now += d));
  return { peakPosts: peak, postSpanMs: last - first, postMeanMs: sum / entries.length };
}

/**
 * What the server itself took: a create is answered a few tenths of a millisecond after the latency asked for
 * (the emulator parses, checks and stores the body after its wait, which lasts the latency on average), so not
 * even a client that costs nothing reaches N × latency / concurrency. The bound with the server's measured time instead: what
 * is left of the gap is the client's own.
 */
export function serverBound(r: Pick<ApplyBenchRow, 'dashboards' | 'concurrency' | 'wallMs' | 'serverMeanMs'>): { ms: number; efficiency: number } | undefined {
  if (r.serverMeanMs === undefined) return undefined;
  const ms = (r.dashboards * r.serverMeanMs) / r.concurrency;
  return { ms: Math.round(ms), efficiency: round2(ms / r.wallMs) };
}

function serverNote(r: Parameters<typeof serverBound>[0]): string {
  const b = serverBound(r);
  return b ? `the server took ${r.serverMeanMs} ms a create (N × that / ${r.concurrency}: ${b.ms} ms, efficiency ${b.efficiency})` : '';
}

/** The parent's handle on the child. */
class EmulatorProcess {
  private readonly child = fork(fileURLToPath(import.meta.url), ['--serve'], {
    execArgv: ['--import', import.meta.resolve('tsx')],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  private readonly ready = this.next();

  private next(): Promise<ChildMessage> {
    return new Promise((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the emulator process exited (${code})`));
      this.child.once('exit', onExit);
      this.child.once('message', (m: ChildMessage) => {
        this.child.off('exit', onExit);
        if (m.op === 'error') reject(new Error(`emulator process: ${m.message}`));
        else resolve(m);
      });
    });
  }

  private async ask<T extends ChildMessage['op']>(m: ParentMessage, op: T): Promise<Extract<ChildMessage, { op: T }>> {
    await this.ready;
    const reply = this.next();
    this.child.send(m);
    const r = await reply;
    if (r.op !== op) throw new Error(`emulator process answered ${r.op}, expected ${op}`);
    return r as Extract<ChildMessage, { op: T }>;
  }

  start(opts: Omit<StartMessage, 'op'>) {
    return this.ask({ op: 'start', ...opts }, 'started');
  }
  check(prefix: string) {
    return this.ask({ op: 'check', prefix }, 'checked');
  }
  stop() {
    return this.ask({ op: 'stop' }, 'stopped');
  }
  async close(): Promise<void> {
    await this.ready.catch(() => undefined);
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    const t = setTimeout(() => this.child.kill('SIGKILL'), 3000);
    this.child.send({ op: 'exit' });
    await exited;
    clearTimeout(t);
  }
}

// ---------------------------------------------------------------------------------------------------------
// The client's side.

const NAME_PREFIX = 'Bench dashboard ';

interface Fixture {
  dir: string;
  resources: AnyResource[];
  markerTag: string;
}

async function makeFixture(n: number, tiles: number): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'steward-bench-apply-'));
  mkdirSync(join(dir, 'dashboards'));
  writeFileSync(
    join(dir, 'steward.yaml'),
    [
      'apiVersion: steward/v1',
      'kind: Project',
      'spec:',
      '  resources: ["dashboards/*.yaml"]',
      '  observability: { url: "${STEWARD_OBS_URL}", token: { env: STEWARD_OBS_TOKEN }, requestsPerMinute: 100000 }',
      '',
    ].join('\n'),
  );
  for (let i = 0; i < n; i++) writeFileSync(join(dir, 'dashboards', `d${i}.yaml`), dashboardYaml(i, tiles));
  const loaded = await loadWorkspace(
    { fs: nodeFileSystem, env: { STEWARD_OBS_URL: 'http://127.0.0.1:1', STEWARD_OBS_TOKEN: 'x' }, cwd: dir },
    { requireProject: true },
  );
  const errors = loaded.issues.filter((i) => i.severity === 'error');
  if (errors.length > 0) throw new Error(`bench fixture does not load: ${errors[0]!.message}`);
  return { dir, resources: loaded.resources, markerTag: loaded.project!.markerTag };
}

interface CaseSpec {
  group: ApplyBenchRow['group'];
  name: string;
  concurrency: number;
  latencyMs: number;
  clientRpm: number;
  serverRpm: number;
  serverWindowMs: number;
  journal: 'file' | 'memory';
  bound: { ms: number; what: string };
}

async function runCase(emu: EmulatorProcess, fx: Fixture, n: number, c: CaseSpec): Promise<ApplyBenchRow> {
  const limit = c.serverRpm > 0 ? Math.round((c.serverRpm * c.serverWindowMs) / 60_000) : undefined;
  const { url, token } = await emu.start({ latencyMs: c.latencyMs, ...(limit !== undefined ? { limit, windowMs: c.serverWindowMs } : {}) });
  const work = mkdtempSync(join(tmpdir(), 'steward-bench-apply-run-'));
  let journal: Journal | undefined;
  try {
    const client = createObservabilityClient({
      url,
      token,
      concurrency: c.concurrency,
      ...(c.clientRpm > 0 ? { requestsPerMinute: c.clientRpm } : {}),
    });
    const inner = c.journal === 'file' ? openJournal(join(work, '.steward/journal.jsonl')) : memoryJournal();
    // Time from append to its entry being on disk (write, then the group commit's shared fdatasync, which
    // runs off the main thread: the waits overlap, so their sum can exceed the wall time at high concurrency).
    let journalMs = 0;
    let journalWrites = 0;
    journal = {
      append: async (entry) => {
        const t = performance.now();
        await inner.append(entry);
        journalMs += performance.now() - t;
        journalWrites++;
      },
      close: () => inner.close(),
    };
    let state: StateFile = { formatVersion: 1, alerts: {} };
    let applies = 0;
    let failed = 0;
    let resent = 0;
    const errors = new Map<string, number>();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    // Apply until the plan has nothing left to create, as a person re-running a failed CI job would.
    for (; applies < 5;) {
      const live = await client.listDashboards();
      const plan = computePlan({ resources: fx.resources, live, state, markerTag: fx.markerTag, now: new Date(), projectDir: fx.dir });
      if (plan.summary.create + plan.summary.update === 0) break;
      applies++;
      const r: ApplyResult = await applyPlan(
        {
          client,
          journal,
          saveState: (s) => writeState(join(work, '.steward/state.json'), s),
          now: () => new Date(),
          emit: (e) => void (e.type === 'create-rate-limited' && resent++),
        },
        plan,
        state,
        { concurrency: c.concurrency, runId: randomUUID(), freshLive: live },
      );
      state = r.state;
      failed += r.failed.length;
      for (const f of r.failed) {
        const key = f.error.replace(/\d+/g, '#').slice(0, 80);
        errors.set(key, (errors.get(key) ?? 0) + 1);
      }
      if (r.failed.length === 0) break;
    }
    const wallMs = performance.now() - t0;
    const cpuMs = cpuSince(cpu0);
    const check = await emu.check(NAME_PREFIX);
    const rejected429 = check.statuses['429'] ?? 0;
    const ok = check.dashboards === n && check.distinct === n;
    const serverMeanMs = c.serverRpm === 0 ? round2(check.postMeanMs) : undefined;
    const notes = [
      // The figure is the creates alone, as the floor's and the CLI's: the lists, the plans and the duplicate
      // check before and after them are in this whole, not in N × latency / concurrency.
      `whole run ${Math.round(wallMs)} ms (lists, plans, creates, duplicate check; efficiency ${round2(c.bound.ms / wallMs)})`,
      `${check.requests} requests`,
      `peak ${check.peakPosts} creates in flight`,
      ...(serverMeanMs !== undefined ? [serverNote({ dashboards: n, concurrency: c.concurrency, wallMs: check.postSpanMs, serverMeanMs })] : []),
      `client CPU ${Math.round(cpuMs)} ms (${round2(cpuMs / n)} ms a create)`,
      `journal waits ${Math.round(journalMs)} ms in all (${round2(journalMs / Math.max(1, journalWrites))} ms each, overlapping)`,
      ...(resent > 0 ? [`${resent} creates refused with 429 and sent again after the wait`] : []),
      ...(applies > 1 ? [`${applies} applies`] : []),
      ...[...errors].map(([e, k]) => `${k}× ${e}`),
      ...(ok ? [] : [`WRONG: ${check.dashboards} dashboards, ${check.distinct} distinct, ${n} expected`]),
    ];
    return {
      group: c.group,
      case: c.name,
      concurrency: c.concurrency,
      dashboards: n,
      clientRpm: c.clientRpm,
      serverRpm: c.serverRpm,
      serverWindowMs: c.serverWindowMs,
      wallMs: Math.round(check.postSpanMs),
      wholeMs: Math.round(wallMs),
      boundMs: Math.round(c.bound.ms),
      bound: c.bound.what,
      efficiency: round2(c.bound.ms / check.postSpanMs),
      ...(serverMeanMs !== undefined ? { serverMeanMs } : {}),
      rejected429,
      failed,
      resent,
      journalMs: Math.round(journalMs),
      applies,
      created: check.dashboards,
      distinct: check.distinct,
      peakInFlight: check.peakPosts,
      ok,
      detail: notes.join(', '),
    };
  } finally {
    journal?.close();
    await emu.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

/** The built CLI, no --concurrency: what the server sees in flight is the concurrency users really get. */
/**
 * The same create bodies POSTed with node:http alone (one keep-alive agent, `c` at a time, the answer read
 * whole and its status checked): what the emulator and loopback cost per request here.
 */
async function runFloorCase(emu: EmulatorProcess, fx: Fixture, n: number, c: number, latencyMs: number): Promise<ApplyBenchRow> {
  const { url, token } = await emu.start({ latencyMs });
  const agent = new Agent({ keepAlive: true, maxSockets: c });
  try {
    const plan = computePlan({
      resources: fx.resources,
      live: [],
      state: { formatVersion: 1, alerts: {} },
      markerTag: fx.markerTag,
      now: new Date(),
      projectDir: fx.dir,
    });
    const bodies = plan.items.flatMap((i) => (i.kind === 'Dashboard' && i.action === 'create' ? [JSON.stringify(i.body)] : []));
    const target = new URL('/api/v2/dashboards', url);
    const post = (body: string) =>
      new Promise<void>((resolve, reject) => {
        const req = request(
          target,
          { method: 'POST', agent, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' } },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => {
              // What any client must do with the answer: read the new dashboard's id.
              const id = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { id?: unknown } }).data?.id;
              if ((res.statusCode === 200 || res.statusCode === 201) && typeof id === 'string') resolve();
              else reject(new Error(`status ${res.statusCode}, id ${String(id)}`));
            });
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(body);
      });
    let next = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: c }, async () => {
        while (next < bodies.length) await post(bodies[next++]!);
      }),
    );
    const clientMs = performance.now() - t0;
    const cpuMs = cpuSince(cpu0);
    const check = await emu.check(NAME_PREFIX);
    const ok = check.dashboards === n && check.distinct === n;
    const boundMs = (n * latencyMs) / c;
    const wallMs = check.postSpanMs;
    return {
      group: 'concurrency',
      case: `node:http alone, concurrency ${c} (the floor: no client library, plan, journal or checks; the answer's id read)`,
      concurrency: c,
      dashboards: n,
      clientRpm: 0,
      serverRpm: 0,
      serverWindowMs: 0,
      wallMs: Math.round(wallMs),
      boundMs: Math.round(boundMs),
      bound: `N × latency / ${c}`,
      efficiency: round2(boundMs / wallMs),
      serverMeanMs: round2(check.postMeanMs),
      rejected429: check.statuses['429'] ?? 0,
      failed: 0,
      resent: 0,
      journalMs: 0,
      applies: 1,
      created: check.dashboards,
      distinct: check.distinct,
      peakInFlight: check.peakPosts,
      ok,
      detail: `at the client ${Math.round(clientMs)} ms, ${check.requests} requests, peak ${check.peakPosts} creates in flight, ${serverNote({ dashboards: n, concurrency: c, wallMs, serverMeanMs: round2(check.postMeanMs) })}, client CPU ${Math.round(cpuMs)} ms (${round2(cpuMs / n)} ms a create)${ok ? '' : `, WRONG: ${check.dashboards} dashboards, ${check.distinct} distinct, ${n} expected`}`,
    };
  } finally {
    agent.destroy();
    await emu.stop();
  }
}

/** CPU time of this process (user + system) since `start`, ms. */
function cpuSince(start: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1000;
}

async function runCliCase(emu: EmulatorProcess, fx: Fixture, n: number, latencyMs: number): Promise<ApplyBenchRow> {
  const { url, token } = await emu.start({ latencyMs });
  rmSync(join(fx.dir, '.steward'), { recursive: true, force: true });
  try {
    const run = await timeNode([BIN, 'apply', '--auto-approve'], { cwd: fx.dir, env: { STEWARD_OBS_URL: url, STEWARD_OBS_TOKEN: token } });
    const check = await emu.check(NAME_PREFIX);
    const ok = run.code === 0 && check.dashboards === n && check.distinct === n;
    const bound = (n * latencyMs) / DEFAULT_APPLY_CONCURRENCY;
    return {
      group: 'cli',
      case: `steward apply (built CLI, no --concurrency; DEFAULT_APPLY_CONCURRENCY ${DEFAULT_APPLY_CONCURRENCY})`,
      concurrency: DEFAULT_APPLY_CONCURRENCY,
      dashboards: n,
      clientRpm: 100_000,
      serverRpm: 0,
      serverWindowMs: 0,
      wallMs: Math.round(check.postSpanMs),
      boundMs: Math.round(bound),
      bound: `N × latency / ${DEFAULT_APPLY_CONCURRENCY}`,
      efficiency: round2(bound / check.postSpanMs),
      serverMeanMs: round2(check.postMeanMs),
      rejected429: check.statuses['429'] ?? 0,
      failed: 0,
      resent: 0,
      journalMs: NaN,
      applies: 1,
      created: check.dashboards,
      distinct: check.distinct,
      peakInFlight: check.peakPosts,
      ok,
      detail: [
        `figure: first create's arrival to last create's answer, server side`,
        `peak ${check.peakPosts} creates in flight`,
        serverNote({ dashboards: n, concurrency: DEFAULT_APPLY_CONCURRENCY, wallMs: check.postSpanMs, serverMeanMs: round2(check.postMeanMs) }),
        `whole command ${Math.round(run.ms)} ms (load, plan, apply), peak RSS ${Math.round(run.peakRssMiB)} MiB`,
        ...(run.code === 0 ? [] : [`exit ${run.code}`]),
        ...(ok ? [] : [`WRONG: ${check.dashboards} dashboards, ${check.distinct} distinct, ${n} expected`]),
      ].join(', '),
    };
  } finally {
    await emu.stop();
  }
}

const round2 = (x: number) => Math.round(x * 100) / 100;

/** The service's real limit, 100 a minute, with the emulator's own 60 s window: slow, opt-in. */
async function runProductionCases(n: number, tiles: number, latencyMs: number, defaultC: number): Promise<ApplyBenchRow[]> {
  const fx = await makeFixture(n, tiles);
  const emu = new EmulatorProcess();
  const rows: ApplyBenchRow[] = [];
  const rpm = 100;
  const bound = { ms: (n * 60_000) / rpm, what: `N / ${rpm} per min` };
  const base = { group: 'rate limit' as const, latencyMs, journal: 'file' as const, serverRpm: rpm, serverWindowMs: 60_000, bound };
  try {
    for (const c of [...new Set([1, defaultC])]) {
      rows.push(
        await runCase(emu, fx, n, {
          ...base,
          name: `production-like: client ${rpm}/min = server ${rpm}/min (60 s window), concurrency ${c}`,
          concurrency: c,
          clientRpm: rpm,
        }),
      );
    }
    rows.push(
      await runCase(emu, fx, n, {
        ...base,
        name: `production-like: client ${2 * rpm}/min > server ${rpm}/min (60 s window), concurrency ${defaultC}`,
        concurrency: defaultC,
        clientRpm: 2 * rpm,
      }),
    );
  } finally {
    await emu.close();
    rmSync(fx.dir, { recursive: true, force: true });
  }
  return rows;
}

/** Runs the benchmark and returns its rows (nothing is printed). */
export async function runApplyBench(options: ApplyBenchOptions = {}): Promise<ApplyBenchRow[]> {
  const quick = options.quick ?? false;
  const n = options.dashboards ?? (quick ? 12 : 1000);
  const tiles = options.tiles ?? 12;
  const latencyMs = options.latencyMs ?? 20;
  const concurrencies = options.concurrencies ?? (quick ? [1, 4] : [1, 2, 4, 8, 16, 32]);
  const rateC = DEFAULT_APPLY_CONCURRENCY;
  const rateConcurrencies = options.rateConcurrencies ?? (quick ? [rateC] : [...new Set([1, rateC, 16])]);
  const rpm = options.requestsPerMinute ?? (quick ? 600 : 6000);
  const windowMs = options.windowMs ?? (quick ? 1000 : 6000);
  const fullWindow = options.fullWindow ?? !quick;
  const cli = options.cli ?? !quick;

  if (options.production === 'only') return runProductionCases(options.productionDashboards ?? 200, tiles, latencyMs, rateC);
  const fx = await makeFixture(n, tiles);
  const emu = new EmulatorProcess();
  const rows: ApplyBenchRow[] = [];
  const base = { latencyMs, journal: 'file' as const };
  try {
    // Warm-up (JIT, sockets, the emulator's code paths); not reported.
    await runCase(emu, fx, n, {
      ...base,
      group: 'concurrency',
      name: 'warm-up',
      concurrency: Math.max(...concurrencies),
      clientRpm: 0,
      serverRpm: 0,
      serverWindowMs: 0,
      bound: { ms: 1, what: '' },
    });

    for (const c of concurrencies) {
      rows.push(
        await runCase(emu, fx, n, {
          ...base,
          group: 'concurrency',
          name: `concurrency ${c}, no rate limit`,
          concurrency: c,
          clientRpm: 0,
          serverRpm: 0,
          serverWindowMs: 0,
          bound: { ms: (n * latencyMs) / c, what: `N × latency / ${c}` },
        }),
      );
    }
    // The floor: the same creates with Node's HTTP client alone, at the default concurrency.
    rows.push(await runFloorCase(emu, fx, n, rateC, latencyMs));
    // Peers: the same runs with the journal in memory, so the cost of its fdatasync per write shows.
    for (const c of [...new Set([rateC, Math.max(...concurrencies)])]) {
      rows.push(
        await runCase(emu, fx, n, {
          ...base,
          journal: 'memory',
          group: 'concurrency',
          name: `concurrency ${c}, no rate limit, journal in memory (no fdatasync)`,
          concurrency: c,
          clientRpm: 0,
          serverRpm: 0,
          serverWindowMs: 0,
          bound: { ms: (n * latencyMs) / c, what: `N × latency / ${c}` },
        }),
      );
    }

    // The rate bound, or the latency bound when that is the higher (concurrency 1 cannot send 100 a second
    // at 20 ms a request).
    const rateBound = (r: number, c: number) => {
      const rate = (n * 60_000) / r;
      const lat = (n * latencyMs) / c;
      return rate >= lat ? { ms: rate, what: `N / ${r.toLocaleString('en-US')} per min` } : { ms: lat, what: `N × latency / ${c} (above N / rate)` };
    };
    const perWindow = (r: number) => `${Math.round((r * windowMs) / 60_000)} per ${windowMs / 1000} s`;
    if (fullWindow) {
      rows.push(
        await runCase(emu, fx, n, {
          ...base,
          group: 'rate limit',
          name: `client ${rpm}/min = server ${rpm}/min (60 s window), concurrency ${rateC}`,
          concurrency: rateC,
          clientRpm: rpm,
          serverRpm: rpm,
          serverWindowMs: 60_000,
          bound: rateBound(rpm, rateC),
        }),
      );
    }
    // The window filled, at the server's rate and at twice it, for a few concurrencies: how many requests
    // the server refuses grows with what the client has under way when it says "stop".
    for (const clientRpm of [rpm, 2 * rpm]) {
      for (const c of rateConcurrencies) {
        rows.push(
          await runCase(emu, fx, n, {
            ...base,
            group: 'rate limit',
            name: `client ${clientRpm}/min ${clientRpm === rpm ? '=' : '>'} server ${rpm}/min (${perWindow(rpm)}), concurrency ${c}`,
            concurrency: c,
            clientRpm,
            serverRpm: rpm,
            serverWindowMs: windowMs,
            bound: rateBound(rpm, c),
          }),
        );
      }
    }

    if (cli) rows.push(await runCliCase(emu, fx, n, latencyMs));
  } finally {
    await emu.close();
    rmSync(fx.dir, { recursive: true, force: true });
  }
  if (options.production) rows.push(...(await runProductionCases(options.productionDashboards ?? 200, tiles, latencyMs, rateC)));
  return rows;
}

/** The rows as a Markdown table, as bench/README.md shows them. */
export function formatApplyRows(rows: ApplyBenchRow[]): string {
  return table(
    rows.map((r) => ({
      case: r.case,
      'wall ms': r.wallMs,
      'bound ms': `${r.boundMs} (${r.bound})`,
      efficiency: r.efficiency,
      '429s': r.rejected429,
      'failed creates': r.failed,
      're-sent after 429': r.resent,
      'on the server': `${r.created}/${r.dashboards}${r.distinct === r.created ? '' : ` (${r.created - r.distinct} duplicates)`}${r.ok ? ' ok' : ' WRONG'}`,
      'peak in flight': r.peakInFlight,
    })),
  );
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain && process.argv.includes('--serve')) {
  await serve();
} else if (isMain) {
  const production = process.argv.includes('--production-only') ? 'only' : process.argv.includes('--production');
  const rows = await runApplyBench({ quick: process.argv.includes('--quick'), production });
  process.stdout.write(`Node ${process.version}, ${new Date().toISOString()}\n\n${formatApplyRows(rows)}\n`);
  for (const r of rows) if (r.detail) process.stdout.write(`- ${r.case}: ${r.detail}\n`);
  if (rows.some((r) => !r.ok)) process.exitCode = 1;
}
