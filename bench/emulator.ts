/**
 * Emulator benchmark: how fast the emulator serves, so it is never the bottleneck of another benchmark.
 *
 *   node --import tsx bench/emulator.ts
 *
 * The emulator runs in a child process (its own event loop and CPU), the load comes from this one over
 * loopback with a keep-alive agent. Rows: small requests (GET one dashboard, with a valid token and with a
 * wrong one) at concurrency 32 for ~3 s, creating 10,000 dashboards of 12 tiles, and listing them.
 * `runEmulatorBench()` returns the rows for bench/run.ts.
 */
import { fork } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../src/emulator/index.ts';

export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  /** Extra figures: latencies, sizes, the server's CPU share. */
  detail: string;
}

export interface EmulatorBenchOptions {
  /** Length of each small-request run, ms (default 3000). */
  durationMs?: number;
  /** Requests in flight (default 32). */
  concurrency?: number;
  /** Dashboards to create and list (default 10,000). */
  dashboards?: number;
  /** Tiles per dashboard (default 12). */
  tiles?: number;
  /** How many times the list is fetched (default 5; the first one builds the cached JSON). */
  listRuns?: number;
}

type ServerMessage = { url: string } | { cpu: NodeJS.CpuUsage; rss: number };

/** The child side: start an emulator and answer CPU/memory questions over IPC. */
async function serve(): Promise<void> {
  const emu = await startEmulator({ seed: 1, logLimit: 1000 });
  const send = (m: ServerMessage) => process.send?.(m);
  process.on('message', (m: string) => {
    if (m === 'usage') send({ cpu: process.cpuUsage(), rss: process.memoryUsage().rss });
    if (m === 'stop') void emu.close().then(() => process.exit(0));
  });
  send({ url: emu.url });
}

interface Reply {
  status: number;
  bytes: number;
  ms: number;
}

function call(agent: Agent, url: string, method: string, path: string, token: string, body?: string): Promise<Reply> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { authorization: `Bearer ${token}` };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(body);
    }
    const req = request(url + path, { method, agent, headers }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes, ms: performance.now() - t0 }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const round = (n: number, d = 1) => Math.round(n * 10 ** d) / 10 ** d;

function dashboard(i: number, tiles: number): string {
  return JSON.stringify({
    name: `Service ${i} overview`,
    tags: ['team:bench', `service:${i % 50}`, 'managed-by:steward'],
    tiles: Array.from({ length: tiles }, (_, t) => ({
      name: `Tile ${t + 1}`,
      x: (t % 2) * 6,
      y: Math.floor(t / 2) * 3,
      w: 6,
      h: 3,
      asRatio: false,
      series: [
        {
          type: 'time',
          dataSource: 'events',
          sourceId: '65f5e4a3b9e77c001a0000f1',
          aggFn: t % 3 === 0 ? 'count' : 'avg',
          field: t % 3 === 0 ? undefined : 'duration',
          where: `service:svc-${i} AND level:error`,
          whereLanguage: 'lucene',
          groupBy: t % 2 ? ['host'] : [],
        },
      ],
    })),
  });
}

/** Runs the benchmark and returns its rows (nothing is printed). */
export async function runEmulatorBench(options: EmulatorBenchOptions = {}): Promise<BenchRow[]> {
  const durationMs = options.durationMs ?? 3000;
  const concurrency = options.concurrency ?? 32;
  const count = options.dashboards ?? 10_000;
  const tiles = options.tiles ?? 12;
  const listRuns = options.listRuns ?? 5;

  // tsx resolved from here, so the child starts whatever the caller's working directory.
  const child = fork(fileURLToPath(import.meta.url), ['--serve'], {
    execArgv: ['--import', import.meta.resolve('tsx')],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const next = () => new Promise<ServerMessage>((resolve) => child.once('message', (m: ServerMessage) => resolve(m)));
  const usage = async () => {
    const m = next();
    child.send('usage');
    return (await m) as { cpu: NodeJS.CpuUsage; rss: number };
  };
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const rows: BenchRow[] = [];
  try {
    const { url } = (await next()) as { url: string };

    // Warm-up (JIT, sockets), and one dashboard to GET.
    const created = JSON.parse(
      await new Promise<string>((resolve, reject) => {
        const body = dashboard(0, tiles);
        const req = request(
          url + '/api/v2/dashboards',
          { method: 'POST', agent, headers: { authorization: 'Bearer dev-token', 'content-type': 'application/json' } },
          (res) => {
            let s = '';
            res
              .setEncoding('utf8')
              .on('data', (c: string) => (s += c))
              .on('end', () => resolve(s));
          },
        );
        req.on('error', reject);
        req.end(body);
      }),
    ) as { data: { id: string } };
    const path = `/api/v2/dashboards/${created.data.id}`;
    await Promise.all(Array.from({ length: concurrency * 20 }, () => call(agent, url, 'GET', path, 'dev-token')));

    const load = async (name: string, token: string, expect: number) => {
      const latencies: number[] = [];
      let unexpected = 0;
      const before = await usage();
      const t0 = performance.now();
      const end = t0 + durationMs;
      await Promise.all(
        Array.from({ length: concurrency }, async () => {
          while (performance.now() < end) {
            const r = await call(agent, url, 'GET', path, token);
            latencies.push(r.ms);
            if (r.status !== expect) unexpected++;
          }
        }),
      );
      const elapsed = performance.now() - t0;
      const after = await usage();
      const serverCpu = (after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system) / 1000 / elapsed;
      latencies.sort((a, b) => a - b);
      const rate = latencies.length / (elapsed / 1000);
      rows.push({
        name,
        value: Math.round(rate),
        unit: 'req/s',
        detail: `concurrency ${concurrency}, ${latencies.length} requests in ${round(elapsed / 1000, 2)} s, p50 ${round(percentile(latencies, 50), 2)} ms, p99 ${round(
          percentile(latencies, 99),
          2,
        )} ms, server CPU ${Math.round(serverCpu * 100)} % of a core (≈ ${Math.round(rate / serverCpu).toLocaleString('en-US')} req/s per busy core)${unexpected ? `, ${unexpected} unexpected statuses` : ''}`,
      });
    };
    await load(`GET /api/v2/dashboards/{id} (200)`, 'dev-token', 200);
    await load(`GET /api/v2/dashboards/{id} with a wrong token (401)`, 'wrong-token', 401);

    // Create `count` dashboards (one exists already).
    const bodies = Array.from({ length: count - 1 }, (_, i) => dashboard(i + 1, tiles));
    let nextBody = 0;
    let createFailures = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (nextBody < bodies.length) {
          const r = await call(agent, url, 'POST', '/api/v2/dashboards', 'dev-token', bodies[nextBody++]);
          if (r.status !== 200) createFailures++;
        }
      }),
    );
    const createMs = performance.now() - t0;
    const bodyBytes = bodies.reduce((n, b) => n + b.length, 0) / bodies.length;
    rows.push({
      name: `POST /api/v2/dashboards, ${tiles} tiles each`,
      value: Math.round(bodies.length / (createMs / 1000)),
      unit: 'creates/s',
      detail: `${bodies.length} creates in ${round(createMs / 1000, 2)} s at concurrency ${concurrency}, ${Math.round(bodyBytes)} B per body${createFailures ? `, ${createFailures} failures` : ''}`,
    });

    // List them all, several times: server time from the emulator's own log, client time end to end.
    const runs: { client: number; server: number; bytes: number }[] = [];
    for (let i = 0; i < listRuns; i++) {
      await call(agent, url, 'DELETE', '/__emulator/requests', 'dev-token');
      const r = await call(agent, url, 'GET', '/api/v2/dashboards', 'dev-token');
      if (r.status !== 200) throw new Error(`list answered ${r.status}`);
      const log = await new Promise<string>((resolve, reject) => {
        request(url + '/__emulator/requests', { agent }, (res) => {
          let s = '';
          res
            .setEncoding('utf8')
            .on('data', (c: string) => (s += c))
            .on('end', () => resolve(s));
        })
          .on('error', reject)
          .end();
      });
      const entry = (JSON.parse(log) as { requests: { path: string; ms: number }[] }).requests.find((e) => e.path === '/api/v2/dashboards');
      runs.push({ client: r.ms, server: entry?.ms ?? NaN, bytes: r.bytes });
    }
    const { rss } = await usage();
    const warm = runs.slice(1);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
    const mb = runs[0]!.bytes / 1024 / 1024;
    rows.push({
      name: `GET /api/v2/dashboards: ${count} dashboards of ${tiles} tiles, first call (builds the cached JSON)`,
      value: round(runs[0]!.server, 1),
      unit: 'ms server',
      detail: `${round(runs[0]!.client, 1)} ms at the client, ${round(mb, 1)} MiB`,
    });
    rows.push({
      name: `GET /api/v2/dashboards: ${count} dashboards of ${tiles} tiles, later calls (median of ${warm.length})`,
      value: round(median(warm.map((r) => r.server)), 1),
      unit: 'ms server',
      detail: `${round(median(warm.map((r) => r.client)), 1)} ms at the client (transfer and read of ${round(mb, 1)} MiB), emulator RSS ${Math.round(rss / 1024 / 1024)} MiB`,
    });
  } finally {
    agent.destroy();
    child.send('stop');
    await new Promise((resolve) => {
      const t = setTimeout(() => {
        child.kill('SIGKILL');
        resolve(undefined);
      }, 2000);
      child.once('exit', () => {
        clearTimeout(t);
        resolve(undefined);
      });
    });
  }
  return rows;
}

/** Rows as a Markdown table. */
export function formatBenchRows(rows: BenchRow[]): string {
  return [
    '| measure | value | detail |',
    '|---|---:|---|',
    ...rows.map((r) => `| ${r.name} | ${r.value.toLocaleString('en-US')} ${r.unit} | ${r.detail} |`),
  ].join('\n');
}

const isMain = process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1];
if (isMain && process.argv.includes('--serve')) {
  await serve();
} else if (isMain) {
  const rows = await runEmulatorBench();
  process.stdout.write(`Node ${process.version}, ${new Date().toISOString()}\n\n${formatBenchRows(rows)}\n`);
}
